import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { JobWorker, OnJob, QueueWorker } from '@app/queue';
import { runWithRequestId } from '@app/observability';
import { Job, UnrecoverableError } from 'bullmq';
import { DataSource } from 'typeorm';
import { SystemHookEntity } from '../entities/system-hook.entity';
import { HOOK_DELIVERIES, HookDeliveryJob } from '../hooks.jobs';
import { HookDeliverer } from './hook-deliverer';
import { disabledReason } from './hook-health';

/** Thrown for a failed attempt that will be retried; carries the delay chosen by the schedule. */
export class HookDeliveryRetry extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
    this.name = 'HookDeliveryRetry';
  }
}

/** ±20 % around the scheduled delay, so that deliveries failing together do not retry together. */
export const RETRY_JITTER = 0.2;

/**
 * The delay before the retry that follows attempt `attemptsMade + 1`: the schedule's entry with
 * jitter, and at least the receiver's `Retry-After`.
 */
export function retryDelay(scheduleMs: readonly number[], attemptsMade: number, retryAfterMs: number | null, random = Math.random): number {
  const scheduled = scheduleMs[Math.min(attemptsMade, scheduleMs.length - 1)] ?? 0;
  const jittered = Math.round(scheduled * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
  return Math.max(jittered, retryAfterMs ?? 0);
}

/** BullMQ backoff strategy of the queue: the delay the processor decided (see `HookDeliveryRetry`). */
export const hookBackoffStrategy = (_attemptsMade: number, _type?: string, error?: Error): number =>
  error instanceof HookDeliveryRetry || error?.name === 'HookDeliveryRetry' ? (error as HookDeliveryRetry).delayMs : 5_000;

/** Backoff type of the delivery jobs (resolved by `hookBackoffStrategy`). */
export const HOOK_BACKOFF_TYPE = 'hook-schedule';

const HOOK_CACHE_MS = 1_000;

/**
 * Runs the `deliver-hook` jobs: one attempt per run. A failed attempt throws so that BullMQ
 * retries the job after the delay of the schedule (`HOOK_RETRY_SCHEDULE`); a disabled hook's
 * events are logged as `skipped` (resendable) instead of being sent.
 */
@QueueWorker(HOOK_DELIVERIES, { concurrency: 100, settings: { backoffStrategy: hookBackoffStrategy } })
export class HookDeliveryProcessor extends JobWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(HookDeliveryProcessor.name);
  private readonly hooks = new Map<number, { at: number; hook: Promise<SystemHookEntity | null> }>();

  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly deliverer: HookDeliverer,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.hooks.concurrency;
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

  @OnJob(HOOK_DELIVERIES, HOOK_DELIVERIES.jobs.DELIVER_HOOK)
  async deliverHook(data: HookDeliveryJob, job: Job<HookDeliveryJob>): Promise<{ status: string }> {
    const run = () => this.deliver(job);
    return data.requestId ? runWithRequestId(data.requestId, run) : run();
  }

  private async deliver(job: Job<HookDeliveryJob>): Promise<{ status: string }> {
    const data = job.data;
    const hook = await this.hook(data.hookId);
    // A deleted hook takes its log with it: nothing to deliver or record.
    if (!hook) return { status: 'hook deleted' };
    const attempt = { hook, eventId: data.eventId, trigger: data.trigger, body: data.body, idempotencyKey: data.idempotencyKey, occurredAt: data.occurredAt, chainId: data.chainId, chainDepth: data.chainDepth, attempt: job.attemptsMade + 1 };
    if (!data.resend) {
      const reason = disabledReason(hook, new Date());
      if (reason) {
        await this.deliverer.skip(attempt, reason);
        return { status: 'skipped' };
      }
    }
    const outcome = await this.deliverer.deliver(attempt);
    if (outcome.ok) return { status: outcome.status };
    if (!outcome.retryable) throw new UnrecoverableError(outcome.error ?? 'delivery refused');
    const attempts = job.opts.attempts ?? 1;
    if (job.attemptsMade + 1 >= attempts) throw new UnrecoverableError(`${outcome.error} (last of ${attempts} attempts)`);
    throw new HookDeliveryRetry(outcome.error ?? 'delivery failed', retryDelay(this.config.hooks.retryScheduleMs, job.attemptsMade, outcome.retryAfterMs));
  }

  /** The hook with its token, read at most once a second per hook (health changes are applied to the cached row). */
  private hook(id: number): Promise<SystemHookEntity | null> {
    const now = Date.now();
    const cached = this.hooks.get(id);
    if (cached && now - cached.at < HOOK_CACHE_MS) return cached.hook;
    const hook = this.dataSource
      .getRepository(SystemHookEntity)
      .createQueryBuilder('h')
      .addSelect('h.encryptedToken')
      .where('h.id = :id', { id })
      .getOne();
    this.hooks.set(id, { at: now, hook });
    hook.catch(() => this.hooks.delete(id));
    return hook;
  }
}
