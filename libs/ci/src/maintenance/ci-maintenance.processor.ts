import { JobWorker, OnJob, QueueWorker } from '@app/queue';
import {
  CI_MAINTENANCE,
  CI_MAINTENANCE_BATCH,
  CiMaintenancePayload,
  DROP_STUCK_JOBS_SCHEDULE,
  EXPIRE_ARTIFACTS_SCHEDULE,
  PROCESS_UNPROCESSED_PIPELINES_SCHEDULE,
  START_DUE_SCHEDULED_JOBS_SCHEDULE,
  StartScheduledJobPayload,
} from '../queues/ci.jobs';
import { PipelineProcessingLine } from '../pipelines/pipeline-processing-line';
import { StartScheduledJobsUseCase } from '../scheduling/start-scheduled-jobs.use-case';
import { DropStuckJobsUseCase } from './drop-stuck-jobs.use-case';
import { ExpireArtifactsUseCase } from './expire-artifacts.use-case';

/** Runs the CI housekeeping jobs on their schedules, and the timers of delayed jobs. */
@QueueWorker(CI_MAINTENANCE)
export class CiMaintenanceProcessor extends JobWorker {
  constructor(
    private readonly dropStuck: DropStuckJobsUseCase,
    private readonly expireArtifacts: ExpireArtifactsUseCase,
    private readonly scheduled: StartScheduledJobsUseCase,
    private readonly processing: PipelineProcessingLine,
  ) {
    super();
  }

  @OnJob(CI_MAINTENANCE, CI_MAINTENANCE.jobs.PROCESS_UNPROCESSED_PIPELINES, {
    schedule: PROCESS_UNPROCESSED_PIPELINES_SCHEDULE,
    data: { batchSize: CI_MAINTENANCE_BATCH },
  })
  async processUnprocessed({ batchSize }: CiMaintenancePayload): Promise<{ processed: number }> {
    return this.processing.sweep(batchSize);
  }

  @OnJob(CI_MAINTENANCE, CI_MAINTENANCE.jobs.DROP_STUCK_JOBS, { schedule: DROP_STUCK_JOBS_SCHEDULE, data: { batchSize: CI_MAINTENANCE_BATCH } })
  async dropStuckJobs({ batchSize }: CiMaintenancePayload): Promise<{ dropped: number }> {
    return this.dropStuck.execute(batchSize);
  }

  @OnJob(CI_MAINTENANCE, CI_MAINTENANCE.jobs.EXPIRE_ARTIFACTS, { schedule: EXPIRE_ARTIFACTS_SCHEDULE, data: { batchSize: CI_MAINTENANCE_BATCH } })
  async expire({ batchSize }: CiMaintenancePayload): Promise<{ removed: number }> {
    return this.expireArtifacts.execute(batchSize);
  }

  @OnJob(CI_MAINTENANCE, CI_MAINTENANCE.jobs.START_SCHEDULED_JOB)
  async startScheduledJob({ ciJobId }: StartScheduledJobPayload): Promise<{ outcome: string }> {
    return { outcome: await this.scheduled.startIfDue(ciJobId) };
  }

  @OnJob(CI_MAINTENANCE, CI_MAINTENANCE.jobs.START_DUE_SCHEDULED_JOBS, {
    schedule: START_DUE_SCHEDULED_JOBS_SCHEDULE,
    data: { batchSize: CI_MAINTENANCE_BATCH },
  })
  async startDueScheduledJobs({ batchSize }: CiMaintenancePayload): Promise<{ started: number; timers: number }> {
    return this.scheduled.sweep(batchSize);
  }
}
