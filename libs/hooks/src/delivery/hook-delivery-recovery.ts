import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { HOOK_DELIVERIES, HookDeliveryJob, HookFanOutJob } from '../core/hooks.jobs';
import type { Queue } from 'bullmq';
import { HookDeliveriesRepository } from './hook-deliveries.repository';
import { HookEventsRepository } from './hook-events.repository';
import { resendJobId, resendJobOf } from './hook-resend-job';
import { HookFanOut } from './hook-fan-out';
import { deliveryJobId, deliveryJobOptions, fanOutJobOptions, totalAttempts } from './hook-jobs';
import { idempotencyKeyOf } from './hook-signature';

const PAGE = 1_000;

/**
 * Rebuilds the delivery queue from its record in PostgreSQL, by itself, every
 * `HOOK_RECOVERY_INTERVAL_MS` (and once at start): a fan-out recorded in `system_hook_events`
 * and not done, or a retry of `system_hook_retries` that is due, whose job is not in Redis
 * (Redis restarted empty, a job removed after failing) is enqueued again under the same job id,
 * after checking that PostgreSQL still owes it. Only what is older than the interval is checked
 * (the dispatcher records an event just before enqueueing it). A rebuilt fan-out leaves out the
 * hooks whose attempt already has an outcome, and a fan-out this process is still running is
 * not enqueued again; an attempt in flight elsewhere when Redis was lost may be sent twice, with
 * the same `webhook-id`.
 */
@Injectable()
export class HookDeliveryRecovery implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(HookDeliveryRecovery.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly events: HookEventsRepository,
    private readonly deliveries: HookDeliveriesRepository,
    @InjectQueue(HOOK_DELIVERIES.name) private readonly queue: Queue,
    @Optional() private readonly fanOut?: HookFanOut,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), this.config.hooks.recoveryIntervalMs);
    this.timer.unref();
    void this.sweep();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One comparison of the queue with the record; resolves with how many jobs were enqueued again. */
  sweep(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.rebuild()
      .then(({ fanOuts, retries, resends }) => {
        if (fanOuts + retries + resends > 0) this.logger.warn(`rebuilt ${fanOuts} fan-out, ${retries} retry and ${resends} resend jobs missing from Redis`);
      })
      .catch((error: unknown) => this.logger.warn(`delivery queue not compared with PostgreSQL: ${(error as Error).message}`))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  async rebuild(now = Date.now()): Promise<{ fanOuts: number; retries: number; resends: number }> {
    const before = new Date(now - this.config.hooks.recoveryIntervalMs);
    return { fanOuts: await this.rebuildFanOuts(before), retries: await this.rebuildRetries(before), resends: await this.rebuildResends(before) };
  }

  /**
   * Resends recorded and not attempted whose job Redis lost: queued again under the same job id
   * from their log entry; a resend whose entry or hook is gone is dropped.
   */
  private async rebuildResends(before: Date): Promise<number> {
    let rebuilt = 0;
    let after: { createdAt: Date; id: string } | null = null;
    for (;;) {
      const page = await this.events.pendingResends(before, after, PAGE);
      const last = page.at(-1);
      if (!last) break;
      after = { createdAt: last.createdAt, id: last.id };
      const missing = await this.missing(page.map((r) => resendJobId(r.deliveryId, r.id)));
      const lost = page.filter((r) => missing.has(resendJobId(r.deliveryId, r.id)));
      const still = await this.events.stillResending(lost.map((r) => r.id));
      const jobs = [];
      for (const resend of lost.filter((r) => still.has(r.id))) {
        const entry = await this.deliveries.find(resend.hookId, resend.deliveryId);
        if (!entry) {
          await this.events.finishResend(resend.id);
          continue;
        }
        jobs.push({
          name: HOOK_DELIVERIES.jobs.DELIVER_HOOK,
          data: resendJobOf(entry, resend.hookId, resend.id, resend.requestId),
          opts: deliveryJobOptions(resendJobId(resend.deliveryId, resend.id), 1),
        });
      }
      if (jobs.length > 0) await this.queue.addBulk(jobs);
      rebuilt += jobs.length;
      if (page.length < PAGE) break;
    }
    return rebuilt;
  }

  private async rebuildFanOuts(before: Date): Promise<number> {
    let rebuilt = 0;
    let after: { createdAt: Date; id: string } | null = null;
    do {
      const page = await this.events.pendingFanOuts(before, after, PAGE);
      after = page.last;
      const missing = await this.missing(page.fanOuts.map((f) => f.jobId));
      // A job this process is still running is not lost, even if Redis lost its record.
      const lost = page.fanOuts.filter((f) => missing.has(f.jobId) && !this.fanOut?.running.has(f.jobId));
      if (lost.length === 0) continue;
      const pending = await this.events.stillPending(lost.flatMap((f) => f.events.map((e) => e.eventId)));
      const jobs = lost
        .map((f) => ({ jobId: f.jobId, events: f.events.filter((e) => pending.has(e.eventId)) }))
        .filter((f) => f.events.length > 0)
        .map((f) => ({
          name: HOOK_DELIVERIES.jobs.FAN_OUT,
          data: { events: f.events, recovered: true } satisfies HookFanOutJob,
          opts: fanOutJobOptions(f.jobId),
        }));
      if (jobs.length > 0) await this.queue.addBulk(jobs);
      rebuilt += jobs.length;
    } while (after);
    return rebuilt;
  }

  private async rebuildRetries(before: Date): Promise<number> {
    let rebuilt = 0;
    let after: { dueAt: Date; eventId: string; hookId: number } | null = null;
    for (;;) {
      const page = await this.events.dueRetries(before, after, PAGE);
      const last = page.at(-1);
      if (!last) break;
      after = { dueAt: last.dueAt, eventId: last.eventId, hookId: last.hookId };
      const missing = await this.missing(page.map((r) => deliveryJobId(r.eventId, r.hookId)));
      const lost = page.filter((r) => missing.has(deliveryJobId(r.eventId, r.hookId)));
      if (lost.length > 0) {
        const due = await this.events.stillDue(lost);
        const jobs = lost
          .filter((r) => due.has(deliveryJobId(r.eventId, r.hookId)))
          .map((r) => {
            const data: HookDeliveryJob = {
              eventId: r.eventId,
              hookId: r.hookId,
              trigger: r.trigger,
              body: r.body,
              idempotencyKey: idempotencyKeyOf(r.eventId, r.hookId),
              occurredAt: r.occurredAt,
              chainId: r.chainId,
              chainDepth: r.chainDepth,
              firstAttempt: r.attempt,
              bodyStored: true,
            };
            return {
              name: HOOK_DELIVERIES.jobs.DELIVER_HOOK,
              data,
              opts: deliveryJobOptions(deliveryJobId(r.eventId, r.hookId), Math.max(1, totalAttempts(this.config) - r.attempt + 1)),
            };
          });
        if (jobs.length > 0) await this.queue.addBulk(jobs);
        rebuilt += jobs.length;
      }
      if (page.length < PAGE) break;
    }
    return rebuilt;
  }

  /** The job ids of `jobIds` that Redis does not hold (in any state: a job is a hash with its name). */
  private async missing(jobIds: string[]): Promise<Set<string>> {
    if (jobIds.length === 0) return new Set();
    const client = await this.queue.getBackend().client;
    const held = await Promise.all(jobIds.map((id) => client.hexists(this.queue.toKey(id), 'name')));
    return new Set(jobIds.filter((_, i) => Number(held[i]) === 0));
  }
}
