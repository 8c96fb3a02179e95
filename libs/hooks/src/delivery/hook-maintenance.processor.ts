import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { JobWorker, OnJob, QueueWorker } from '@app/queue';
import { HOOK_MAINTENANCE } from '../core/hooks.jobs';
import { HookDeliveriesRepository } from './hook-deliveries.repository';
import { HOOK_LOG_RETENTION_DAYS } from './hook-delivery-rows';

/** When the delivery log is pruned: every day at 03:41 UTC (off the hour, away from other jobs). */
export const PRUNE_HOOK_LOGS_SCHEDULE = '41 3 * * *';

/** Runs the `maintenance` queue: today its only job is pruning the system hook delivery log, daily. */
@QueueWorker(HOOK_MAINTENANCE)
export class MaintenanceProcessor extends JobWorker implements OnApplicationBootstrap {
  private readonly logger = new Logger(MaintenanceProcessor.name);

  constructor(private readonly deliveries: HookDeliveriesRepository) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.on('error', (error) => this.logger.warn(`maintenance worker: ${error.message}`));
  }

  @OnJob(HOOK_MAINTENANCE, HOOK_MAINTENANCE.jobs.PRUNE_HOOK_LOGS, {
    schedule: { cron: PRUNE_HOOK_LOGS_SCHEDULE },
    data: { olderThanDays: HOOK_LOG_RETENTION_DAYS },
  })
  async pruneHookLogs({ olderThanDays }: { olderThanDays: number }): Promise<{ removed: number }> {
    const removed = await this.deliveries.prune(olderThanDays);
    if (removed > 0) this.logger.log(`removed ${removed} system hook delivery log rows older than ${olderThanDays} days`);
    return { removed };
  }
}
