import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { NamespacesModule } from '@app/namespaces';
import { ProtectedBranchesModule } from '@app/repository';
import { CiJobTokenModule } from './ci-job-token.module';
import { CiRepositoryReader } from './git/ci-repository-reader';
import { JobLifecycleService } from './jobs/job-lifecycle.service';
import { JobQueueNotifier } from './queues/job-queue-notifier';
import { JobQueueRepository } from './queues/job-queue.repository';
import { JobsRepository } from './jobs/jobs.repository';
import { RunnerPermissions } from './runners/runner-permissions';
import { RunnerProtocolController } from './runners/runner-protocol.controller';
import { RunnersController } from './runners/runners.controller';
import { RunnersRepository } from './runners/runners.repository';
import { LocalObjectStorage, ObjectStorage } from './storage/object-storage';
import { AppendTraceUseCase } from './runners/append-trace.use-case';
import { RequestJobUseCase } from './runners/request-job.use-case';
import { JobLongPoll } from './runners/job-long-poll';
import { UpdateJobUseCase } from './runners/update-job.use-case';
import { UploadArtifactUseCase } from './runners/upload-artifact.use-case';
import { ListAllowedAgentsUseCase } from './runners/list-allowed-agents.use-case';
import { CiPushConsumer } from './triggers/ci-push.consumer';
import { MergeRequestPipelineSources } from './pipelines/merge-request-pipelines.repository';
import { MergeRequestPipelinesController } from './pipelines/merge-request-pipelines.controller';
import { PipelineProcessor } from './pipelines/pipeline-processor';
import { PipelineProcessingLine } from './pipelines/pipeline-processing-line';
import { PipelinesRepository } from './pipelines/pipelines.repository';
import { PipelinesController } from './pipelines/pipelines.controller';
import { PipelineActionsController } from './jobs/pipeline-actions.controller';
import { TestReportsController } from './reports/test-reports.controller';
import { CreatePipelineUseCase } from './pipelines/create-pipeline.use-case';
import { JobActionsUseCase } from './jobs/job-actions.use-case';
import { TriggerDownstreamUseCase } from './triggers/trigger-downstream.use-case';
import { PipelineActionsUseCase } from './jobs/pipeline-actions.use-case';
import { JobsController } from './jobs/jobs.controller';
import { JobViews } from './jobs/job-views.service';
import { JobViewsRepository } from './jobs/job-views.repository';
import { TestReportsService } from './reports/test-reports.service';
import { TestReportsRepository } from './reports/test-reports.repository';
import { MaintenanceRepository } from './maintenance/maintenance.repository';
import { ScheduledJobsRepository } from './scheduling/scheduled-jobs.repository';
import { CI_MAINTENANCE } from './queues/ci.jobs';
import { CiMaintenanceProcessor } from './maintenance/ci-maintenance.processor';
import { DropStuckJobsUseCase } from './maintenance/drop-stuck-jobs.use-case';
import { ExpireArtifactsUseCase } from './maintenance/expire-artifacts.use-case';
import { ScheduledJobTimers } from './queues/scheduled-job-timers';
import { StartScheduledJobsUseCase } from './scheduling/start-scheduled-jobs.use-case';

/**
 * CI pipelines and jobs: configuration from the repositories, pipelines on pushes and through
 * the API. Needs the global ConfigModule, DatabaseModule, MessagingModule, RepositoryModule,
 * SettingsModule and `QueueModule.forRoot()` (the housekeeping jobs).
 */
@Module({
  imports: [NamespacesModule, ProtectedBranchesModule, CiJobTokenModule, BullModule.registerQueue({ name: CI_MAINTENANCE.name })],
  controllers: [
    PipelinesController,
    PipelineActionsController,
    TestReportsController,
    JobsController,
    RunnersController,
    RunnerProtocolController,
    MergeRequestPipelinesController,
  ],
  providers: [
    CiRepositoryReader,
    PipelinesRepository,
    PipelineProcessor,
    PipelineProcessingLine,
    CreatePipelineUseCase,
    CiPushConsumer,
    MergeRequestPipelineSources,
    RunnersRepository,
    RunnerPermissions,
    JobsRepository,
    JobQueueNotifier,
    JobQueueRepository,
    JobLifecycleService,
    RequestJobUseCase,
    JobLongPoll,
    UpdateJobUseCase,
    AppendTraceUseCase,
    UploadArtifactUseCase,
    ListAllowedAgentsUseCase,
    JobViews,
    JobViewsRepository,
    JobActionsUseCase,
    PipelineActionsUseCase,
    TestReportsService,
    TestReportsRepository,
    MaintenanceRepository,
    ScheduledJobsRepository,
    TriggerDownstreamUseCase,
    DropStuckJobsUseCase,
    ExpireArtifactsUseCase,
    ScheduledJobTimers,
    StartScheduledJobsUseCase,
    CiMaintenanceProcessor,
    { provide: ObjectStorage, useClass: LocalObjectStorage },
  ],
  exports: [PipelinesRepository, CreatePipelineUseCase, PipelineProcessor, JobsRepository, ObjectStorage],
})
export class CiModule {}
