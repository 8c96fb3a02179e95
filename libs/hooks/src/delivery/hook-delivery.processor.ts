import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { runWithRequestId } from '@app/observability';
import { JobWorker, OnJob, QueueWorker } from '@app/queue';
import { DelayedError, Job } from 'bullmq';
import { HOOK_DELIVERIES, HookDeliveryJob, HookFanOutJob } from '../core/hooks.jobs';
import { HookFanOut } from './hook-fan-out';
import { hookBackoffStrategy, HookDeliveryPostponed } from './hook-jobs';
import { HookRedelivery } from './hook-redelivery';

/**
 * Runs the `hook-deliveries` queue: `fan-out` jobs (the first attempts of a batch of events to
 * every subscribed hook) and `deliver-hook` jobs (retries, handed-over attempts, resends). The
 * attempts of all jobs share `HOOK_WORKER_CONCURRENCY` slots (`AttemptLimiter`); twice as many
 * jobs run at once, so that jobs held by a slow hook's attempts (at most its share of the slots)
 * do not stop the others. A job whose process died is taken up again by another worker once its
 * lock (15 s) has run out.
 */
@QueueWorker(HOOK_DELIVERIES, {
  concurrency: 100,
  lockDuration: 15_000,
  stalledInterval: 15_000,
  maxStalledCount: 10,
  settings: { backoffStrategy: hookBackoffStrategy },
})
export class HookDeliveryProcessor extends JobWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(HookDeliveryProcessor.name);

  constructor(
    private readonly config: AppConfig,
    private readonly fanOut: HookFanOut,
    private readonly redelivery: HookRedelivery,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = 2 * this.config.hooks.concurrency;
    // Redis outages surface here (the worker reconnects by itself); without a listener they would crash the process.
    this.worker.on('error', (error) => this.logger.warn(`delivery worker: ${error.message}`));
  }

  /**
   * Stops taking jobs and lets the attempts in flight finish first thing at shutdown, while the
   * HTTP agents, the database and Redis are still there (BullMQ would close the worker last).
   */
  async onModuleDestroy(): Promise<void> {
    await this.worker.close();
  }

  @OnJob(HOOK_DELIVERIES, HOOK_DELIVERIES.jobs.FAN_OUT)
  fanOutEvents(data: HookFanOutJob, job: Job<HookFanOutJob>): Promise<unknown> {
    // Run before (failed, stalled) or rebuilt from PostgreSQL: some hooks may have their outcome already.
    return this.fanOut.execute(data, (job.attemptsStarted ?? 1) > 1 || data.recovered === true, job.id);
  }

  @OnJob(HOOK_DELIVERIES, HOOK_DELIVERIES.jobs.DELIVER_HOOK)
  async deliverHook(data: HookDeliveryJob, job: Job<HookDeliveryJob>): Promise<{ status: string }> {
    const run = () => this.redelivery.execute(data, { attemptsMade: job.attemptsMade, attempts: job.opts.attempts ?? 1 });
    try {
      return await (data.requestId ? runWithRequestId(data.requestId, run) : run());
    } catch (error) {
      if (!(error instanceof HookDeliveryPostponed)) throw error;
      // Back to the delayed set, no attempt counted.
      await job.moveToDelayed(Date.now() + error.delayMs, job.token);
      throw new DelayedError();
    }
  }
}
