import { Global, Module } from '@nestjs/common';
import { JOB_TOKEN_RESOLVER } from '@app/api';
import { CiJobTokenResolver } from './jobs/ci-job-token.resolver';
import { JobsRepository } from './jobs/jobs.repository';

/** Makes the job token resolver visible to the git HTTP access check (global: the repository library cannot import CI). */
@Global()
@Module({
  providers: [JobsRepository, CiJobTokenResolver, { provide: JOB_TOKEN_RESOLVER, useExisting: CiJobTokenResolver }],
  exports: [JOB_TOKEN_RESOLVER],
})
export class CiJobTokenModule {}
