import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { assertJobHandlers } from '@app/queue/job-handlers';
import { HookDeliveryJob, HookFanOutJob, JOBS, QUEUES } from '@app/queue/queue.constants';
import { runWithRequestId } from '@app/observability/request-context';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
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
@Processor(QUEUES.HOOK_DELIVERIES, { concurrency: 100, lockDuration: 15_000, stalledInterval: 15_000, maxStalledCount: 10, settings: { backoffStrategy: hookBackoffStrategy } })
export class HookDeliveryProcessor extends WorkerHost implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(HookDeliveryProcessor.name);

  constructor(
    private readonly config: AppConfig,
    private readonly fanOut: HookFanOut,
    private readonly redelivery: HookRedelivery,
  ) {
    super();
  }

  onModuleInit(): void {
    assertJobHandlers(QUEUES.HOOK_DELIVERIES, [JOBS['hook-deliveries'].DELIVER_HOOK, JOBS['hook-deliveries'].FAN_OUT]);
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

  async process(job: Job, token?: string): Promise<unknown> {
    switch (job.name) {
      case JOBS['hook-deliveries'].FAN_OUT: {
        const fanOut = job as Job<HookFanOutJob>;
        // Run before (failed, stalled) or rebuilt from PostgreSQL: some hooks may have their outcome already.
        return this.fanOut.execute(fanOut.data, (fanOut.attemptsStarted ?? 1) > 1 || fanOut.data.recovered === true, fanOut.id);
      }
      case JOBS['hook-deliveries'].DELIVER_HOOK: {
        const delivery = job as Job<HookDeliveryJob>;
        const run = () => this.redelivery.execute(delivery.data, { attemptsMade: delivery.attemptsMade, attempts: delivery.opts.attempts ?? 1 });
        try {
          return await (delivery.data.requestId ? runWithRequestId(delivery.data.requestId, run) : run());
        } catch (error) {
          if (!(error instanceof HookDeliveryPostponed)) throw error;
          // Back to the delayed set, no attempt counted.
          await delivery.moveToDelayed(Date.now() + error.delayMs, token);
          throw new DelayedError();
        }
      }
      default:
        throw new UnrecoverableError(`unknown job ${job.name}`);
    }
  }
}
