import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { JobWorker, OnJob, QueueWorker, repeatOptionsOf } from '@app/queue';
import type { Queue } from 'bullmq';
import {
  CI_MAINTENANCE,
  CI_MAINTENANCE_BATCH,
  CiMaintenancePayload,
  DROP_STUCK_JOBS_SCHEDULE,
  EXPIRE_ARTIFACTS_SCHEDULE,
  PROCESS_UNPROCESSED_PIPELINES_SCHEDULE,
  START_DUE_SCHEDULED_JOBS_SCHEDULE,
  StartScheduledJobPayload,
} from '../ci.jobs';
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

  @OnJob(CI_MAINTENANCE, CI_MAINTENANCE.jobs.PROCESS_UNPROCESSED_PIPELINES, { schedule: PROCESS_UNPROCESSED_PIPELINES_SCHEDULE, data: { batchSize: CI_MAINTENANCE_BATCH } })
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

  @OnJob(CI_MAINTENANCE, CI_MAINTENANCE.jobs.START_DUE_SCHEDULED_JOBS, { schedule: START_DUE_SCHEDULED_JOBS_SCHEDULE, data: { batchSize: CI_MAINTENANCE_BATCH } })
  async startDueScheduledJobs({ batchSize }: CiMaintenancePayload): Promise<{ started: number; timers: number }> {
    return this.scheduled.sweep(batchSize);
  }
}

/** How often the schedules are compared with Redis. */
export const CI_SCHEDULE_CHECK_MS = 5 * 60_000;

/**
 * The job schedulers are upserted at boot; a Redis that restarts empty while the process runs
 * would lose them. This puts back, every few minutes, a scheduler that is missing (never one
 * that exists: upserting it again would postpone its next run). The work itself is derived from
 * PostgreSQL at each run, so nothing else needs rebuilding.
 */
@Injectable()
export class CiScheduleKeeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CiScheduleKeeper.name);
  private timer: NodeJS.Timeout | null = null;

  constructor(@InjectQueue(CI_MAINTENANCE.name) private readonly queue: Queue) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.restore(), CI_SCHEDULE_CHECK_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Resolves with the names of the schedulers put back. */
  async restore(): Promise<string[]> {
    const restored: string[] = [];
    const schedules = [
      [CI_MAINTENANCE.jobs.DROP_STUCK_JOBS, DROP_STUCK_JOBS_SCHEDULE],
      [CI_MAINTENANCE.jobs.EXPIRE_ARTIFACTS, EXPIRE_ARTIFACTS_SCHEDULE],
      [CI_MAINTENANCE.jobs.START_DUE_SCHEDULED_JOBS, START_DUE_SCHEDULED_JOBS_SCHEDULE],
      [CI_MAINTENANCE.jobs.PROCESS_UNPROCESSED_PIPELINES, PROCESS_UNPROCESSED_PIPELINES_SCHEDULE],
    ] as const;
    try {
      for (const [name, schedule] of schedules) {
        if (await this.queue.getJobScheduler(name)) continue;
        await this.queue.upsertJobScheduler(name, repeatOptionsOf(schedule), { name, data: { batchSize: CI_MAINTENANCE_BATCH }, opts: { attempts: 3 } });
        restored.push(name);
      }
      if (restored.length > 0) this.logger.warn(`CI job schedulers missing from Redis put back: ${restored.join(', ')}`);
    } catch (error) {
      this.logger.warn(`CI job schedulers not compared with Redis: ${(error as Error).message}`);
    }
    return restored;
  }
}
