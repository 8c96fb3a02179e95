import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { CI_MAINTENANCE } from './ci.jobs';

/**
 * The Redis side of delayed jobs: one delayed queue job per `scheduled` CI job, due at its
 * `scheduled_at`. Only a timer: the record is the job row (status `scheduled`, `scheduled_at`),
 * and `StartScheduledJobsUseCase.sweep` starts from PostgreSQL whatever a lost timer would have.
 */
@Injectable()
export class ScheduledJobTimers {
  private readonly logger = new Logger(ScheduledJobTimers.name);

  constructor(@InjectQueue(CI_MAINTENANCE.name) private readonly queue: Queue) {}

  /**
   * Sets the timers (idempotent: the queue job id names the job and its due time, so a timer
   * set again is not doubled). A Redis failure is logged, never thrown: the sweep catches up.
   */
  async set(jobs: readonly { id: number; scheduledAt: Date }[]): Promise<void> {
    for (const job of jobs) {
      const name = CI_MAINTENANCE.jobs.START_SCHEDULED_JOB;
      try {
        await this.queue.add(
          name,
          { ciJobId: job.id },
          { jobId: `scheduled-${job.id}-${job.scheduledAt.getTime()}`, delay: Math.max(0, job.scheduledAt.getTime() - Date.now()), attempts: 3 },
        );
      } catch (error) {
        this.logger.warn(`timer of delayed job ${job.id} not set (the sweep starts it): ${(error as Error).message}`);
      }
    }
  }
}
