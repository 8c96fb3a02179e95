import { Module } from '@nestjs/common';
import { NamespacesModule } from '@app/namespaces';
import { CiRepositoryReader } from './git/ci-repository-reader';
import { CiPushConsumer } from './pipelines/ci-push.consumer';
import { PipelineProcessor } from './pipelines/pipeline-processor';
import { PipelinesRepository } from './pipelines/pipelines.repository';
import { PipelinesController } from './pipelines.controller';
import { CreatePipelineUseCase } from './use-cases/create-pipeline.use-case';

/**
 * CI pipelines and jobs: configuration from the repositories, pipelines on pushes and through
 * the API. Needs the global ConfigModule, DatabaseModule, MessagingModule and RepositoryModule.
 */
@Module({
  imports: [NamespacesModule],
  controllers: [PipelinesController],
  providers: [CiRepositoryReader, PipelinesRepository, PipelineProcessor, CreatePipelineUseCase, CiPushConsumer],
  exports: [PipelinesRepository, CreatePipelineUseCase, PipelineProcessor],
})
export class CiModule {}
