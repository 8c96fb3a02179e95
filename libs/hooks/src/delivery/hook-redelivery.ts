import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import type { HookDeliveryJob } from '../core/hooks.jobs';
import { UnrecoverableError } from 'bullmq';
import { AttemptLimiter, NOT_STARTED } from './attempt-limiter';
import { HookCache } from './hook-cache';
import { HookDeliverer } from './hook-deliverer';
import { HookEventsRepository } from './hook-events.repository';
import { disabledReason } from '../core/hook-health';
import { HOOK_LINE_WAIT_MS, HookDeliveryPostponed, HookDeliveryRetry, retryDelay } from './hook-jobs';

/** Where a delivery job stands: how many times it ran before and how many runs it may take. */
export interface DeliveryJobRun {
  attemptsMade: number;
  attempts: number;
}

/**
 * Runs a `deliver-hook` job: one attempt per run (a retry of an event's delivery to one hook, an
 * attempt handed over, or a resend). A failed attempt throws `HookDeliveryRetry` so that BullMQ
 * runs the job again after the schedule's delay, recorded first in `system_hook_retries`; the
 * final outcome removes the record. A disabled hook's event is logged as `skipped` instead. An
 * attempt that cannot start (its slow hook holds its whole share) is postponed (`HookDeliveryPostponed`).
 */
@Injectable()
export class HookRedelivery {
  constructor(
    private readonly config: AppConfig,
    private readonly hooks: HookCache,
    private readonly deliverer: HookDeliverer,
    private readonly events: HookEventsRepository,
    private readonly limiter: AttemptLimiter,
  ) {}

  async execute(data: HookDeliveryJob, run: DeliveryJobRun): Promise<{ status: string }> {
    // Retries of an event are recorded in PostgreSQL (resends in their own table); jobs queued before the fan-out design are not.
    const recorded = data.bodyStored === true && data.eventId !== null && !data.resend;
    const finish = async (): Promise<void> => {
      if (recorded) await this.events.finishRetry(data.eventId!, data.hookId);
      if (data.resend && data.resendId) await this.events.finishResend(data.resendId);
    };
    const hook = await this.hooks.get(data.hookId);
    if (!hook) {
      await finish();
      return { status: 'hook deleted' };
    }
    const number = (data.firstAttempt ?? 1) + run.attemptsMade;
    const attempt = {
      hook,
      eventId: data.eventId,
      trigger: data.trigger,
      body: data.body,
      idempotencyKey: data.idempotencyKey,
      occurredAt: data.occurredAt,
      chainId: data.chainId,
      chainDepth: data.chainDepth,
      attempt: number,
      bodyStored: data.bodyStored,
    };
    const outcome = await this.limiter.tryRun(
      data.hookId,
      async () => {
        const reason = data.resend ? null : disabledReason(hook, new Date());
        if (reason) {
          await this.deliverer.skip(attempt, reason);
          return null;
        }
        return this.deliverer.deliver(attempt);
      },
      HOOK_LINE_WAIT_MS,
    );
    // The hook is slow and holds its whole share: the job waits in Redis rather than hold a worker slot.
    if (outcome === NOT_STARTED) throw new HookDeliveryPostponed(HOOK_LINE_WAIT_MS);
    if (!outcome) {
      await finish();
      return { status: 'skipped' };
    }
    if (outcome.ok) {
      await finish();
      return { status: outcome.status };
    }
    if (!outcome.retryable) {
      await finish();
      throw new UnrecoverableError(outcome.error ?? 'delivery refused');
    }
    if (run.attemptsMade + 1 >= run.attempts) {
      await finish();
      throw new UnrecoverableError(`${outcome.error} (last of ${number} attempts)`);
    }
    const delayMs = retryDelay(this.config.hooks.retryScheduleMs, number - 1, outcome.retryAfterMs);
    if (recorded)
      await this.events.scheduleRetries([{ eventId: data.eventId!, hookId: data.hookId, attempt: number + 1, dueAt: new Date(Date.now() + delayMs) }]);
    throw new HookDeliveryRetry(outcome.error ?? 'delivery failed', delayMs);
  }
}
