import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { assertJobHandlers, JobPayload, JOBS, QUEUES } from '@app/queue';
import { Job, Queue, UnrecoverableError } from 'bullmq';
import { HOOK_LOG_RETENTION_DAYS, HookDeliveryLog } from './hook-delivery-log';

/** When the delivery log is pruned: every day at 03:41 UTC (off the hour, away from other jobs). */
export const PRUNE_HOOK_LOGS_SCHEDULE = '41 3 * * *';

/** Runs the `maintenance` queue: today its only job is pruning the system hook delivery log. */
@Processor(QUEUES.MAINTENANCE)
export class MaintenanceProcessor extends WorkerHost implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(MaintenanceProcessor.name);

  constructor(private readonly log: HookDeliveryLog) {
    super();
  }

  onModuleInit(): void {
    assertJobHandlers(QUEUES.MAINTENANCE, [JOBS.maintenance.PRUNE_HOOK_LOGS]);
  }

  onApplicationBootstrap(): void {
    this.worker.on('error', (error) => this.logger.warn(`maintenance worker: ${error.message}`));
  }

  async process(job: Job<JobPayload<'maintenance', 'prune-hook-logs'>>): Promise<{ removed: number }> {
    switch (job.name) {
      case JOBS.maintenance.PRUNE_HOOK_LOGS: {
        const removed = await this.log.prune(job.data.olderThanDays);
        if (removed > 0) this.logger.log(`removed ${removed} system hook delivery log rows older than ${job.data.olderThanDays} days`);
        return { removed };
      }
      default:
        throw new UnrecoverableError(`unknown job ${job.name} on ${QUEUES.MAINTENANCE}`);
    }
  }
}

/** Registers the daily prune as a BullMQ job scheduler (idempotent: one schedule however many gateways start). */
@Injectable()
export class HookLogRetentionScheduler implements OnApplicationBootstrap {
  constructor(@InjectQueue(QUEUES.MAINTENANCE) private readonly queue: Queue) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(
      JOBS.maintenance.PRUNE_HOOK_LOGS,
      { pattern: PRUNE_HOOK_LOGS_SCHEDULE, tz: 'UTC' },
      { name: JOBS.maintenance.PRUNE_HOOK_LOGS, data: { olderThanDays: HOOK_LOG_RETENTION_DAYS }, opts: { attempts: 3 } },
    );
  }
}
