import { Injectable } from '@nestjs/common';
import type { JobTokenIdentity, JobTokenResolver } from '@app/api';
import { JobsRepository } from './jobs.repository';

/** Job tokens are valid while their job runs (GitLab: the token dies with the job). */
@Injectable()
export class CiJobTokenResolver implements JobTokenResolver {
  constructor(private readonly jobs: JobsRepository) {}

  async resolveRunning(token: string): Promise<JobTokenIdentity | null> {
    const job = await this.jobs.findByToken(token);
    if (!job || job.status !== 'running') return null;
    return { jobId: job.id, projectId: job.projectId, userId: job.userId };
  }
}
