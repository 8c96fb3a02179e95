import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { HOOK_DELIVERIES, HookDeliveryJob, HookFanOutJob } from '../core/hooks.jobs';
import type { Queue } from 'bullmq';
import { AttemptLimiter, NOT_STARTED } from './attempt-limiter';
import { HookCache } from './hook-cache';
import { HookDeliverer } from './hook-deliverer';
import { HookEventsRepository } from './hook-events.repository';
import { disabledReason } from '../core/hook-health';
import { deliveryJobId, deliveryJobOptions, HOOK_LINE_WAIT_MS, retryDelay, totalAttempts } from './hook-jobs';
import { idempotencyKeyOf } from './hook-signature';

/** How far before an event's commit the log is searched for its attempts (clocks of several hosts). */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Runs a fan-out job: the first attempt of each of its events to every hook subscribed, all at
 * once within the process' attempt limit (the hooks' keep-alive connections), in event order.
 * A disabled hook's attempt is logged as skipped. The attempts that failed and may succeed later
 * become (event, hook) retry jobs, recorded first in `system_hook_retries`; so do, as attempt 1
 * due now, the attempts of a slow hook that waited over `HOOK_LINE_WAIT_MS` in its line (the job
 * does not wait for them). Then the events are marked fanned out. Run again (BullMQ retry, stalled job, rebuilt after Redis lost it), it
 * leaves out the hooks whose attempt already has an outcome in PostgreSQL.
 */
@Injectable()
export class HookFanOut {
  private readonly logger = new Logger(HookFanOut.name);
  /** Ids of the fan-out jobs this process is running (the recovery leaves them alone even if Redis lost them). */
  readonly running = new Set<string>();

  constructor(
    private readonly config: AppConfig,
    private readonly hooks: HookCache,
    private readonly deliverer: HookDeliverer,
    private readonly events: HookEventsRepository,
    private readonly limiter: AttemptLimiter,
    @InjectQueue(HOOK_DELIVERIES.name) private readonly queue: Queue,
  ) {}

  async execute(job: HookFanOutJob, runAgain: boolean, jobId?: string): Promise<{ attempts: number; retries: number }> {
    if (!jobId) return this.fanOut(job, runAgain);
    this.running.add(jobId);
    try {
      return await this.fanOut(job, runAgain);
    } finally {
      this.running.delete(jobId);
    }
  }

  private async fanOut(job: HookFanOutJob, runAgain: boolean): Promise<{ attempts: number; retries: number }> {
    const eventIds = job.events.map((e) => e.eventId);
    const handled = runAgain ? await this.events.handled(eventIds, this.logSince(job)) : new Set<string>();
    const hooks = await this.hooks.all(new Set(job.events.flatMap((e) => e.hookIds)));
    const retries: Array<{ eventId: string; hookId: number; attempt: number; dueAt: Date; delayMs: number; attempts: number; data: HookDeliveryJob }> = [];
    const attempts: Array<Promise<void>> = [];
    for (const event of job.events) {
      // Encoded once: every hook's request (and signature) uses the same bytes.
      let bodyBytes: Buffer | undefined;
      for (const hookId of event.hookIds) {
        if (handled.has(deliveryJobId(event.eventId, hookId))) continue;
        const hook = hooks.get(hookId);
        // A deleted hook takes its log with it: nothing to deliver or record.
        if (!hook) continue;
        const idempotencyKey = idempotencyKeyOf(event.eventId, hookId);
        bodyBytes ??= Buffer.from(event.body, 'utf8');
        const attempt = {
          hook,
          eventId: event.eventId,
          trigger: event.trigger,
          body: event.body,
          bodyBytes,
          idempotencyKey,
          occurredAt: event.occurredAt,
          chainId: event.chainId,
          chainDepth: event.chainDepth,
          attempt: 1,
          bodyStored: true,
        };
        // The job data of a retry or a hand-over, built only then (most attempts need none).
        const jobData = (firstAttempt: number): HookDeliveryJob => {
          const { hook: _hook, attempt: _number, bodyBytes: _bytes, ...data } = attempt;
          return { ...data, hookId, firstAttempt };
        };
        const run = async (): Promise<void> => {
          const reason = disabledReason(hook, new Date());
          if (reason) return this.deliverer.skip(attempt, reason);
          const outcome = await this.deliverer.deliver(attempt);
          if (outcome.ok || !outcome.retryable || totalAttempts(this.config) < 2) return;
          const delayMs = retryDelay(this.config.hooks.retryScheduleMs, 0, outcome.retryAfterMs);
          retries.push({
            eventId: event.eventId,
            hookId,
            attempt: 2,
            dueAt: new Date(Date.now() + delayMs),
            delayMs,
            attempts: totalAttempts(this.config) - 1,
            data: jobData(2),
          });
        };
        attempts.push(
          this.limiter.tryRun(hookId, run, HOOK_LINE_WAIT_MS).then((result) => {
            // The hook is slow and holds its whole share: its first attempt becomes a job of its own.
            if (result === NOT_STARTED)
              retries.push({
                eventId: event.eventId,
                hookId,
                attempt: 1,
                dueAt: new Date(),
                delayMs: 0,
                attempts: totalAttempts(this.config),
                data: jobData(1),
              });
          }),
        );
      }
    }
    await Promise.all(attempts);
    if (retries.length > 0) {
      // The record first: if Redis loses (or never gets) the jobs, the recovery rebuilds them when due.
      await this.events.scheduleRetries(retries.map(({ eventId, hookId, attempt, dueAt }) => ({ eventId, hookId, attempt, dueAt })));
      await this.queue
        .addBulk(
          retries.map((r) => ({
            name: HOOK_DELIVERIES.jobs.DELIVER_HOOK,
            data: r.data,
            opts: deliveryJobOptions(deliveryJobId(r.eventId, r.hookId), r.attempts, r.delayMs),
          })),
        )
        .catch((error: unknown) => this.logger.warn(`${retries.length} retry jobs not queued (rebuilt from PostgreSQL when due): ${(error as Error).message}`));
    }
    await this.events.markFannedOut(eventIds);
    return { attempts: attempts.length, retries: retries.length };
  }

  /** The oldest log row an attempt of these events can have. */
  private logSince(job: HookFanOutJob): Date {
    const occurred = job.events.map((e) => (e.occurredAt ? Date.parse(e.occurredAt) : 0));
    return new Date(Math.min(...occurred) - CLOCK_SKEW_MS);
  }
}
