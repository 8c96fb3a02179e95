import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@app/api';
import { currentRequestId } from '@app/observability';
import { HOOK_DELIVERIES, HookDeliveryJob } from '../core/hooks.jobs';
import type { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { HookDeliveriesRepository } from '../delivery/hook-deliveries.repository';
import { HookEventsRepository } from '../delivery/hook-events.repository';
import { deliveryJobOptions } from '../delivery/hook-jobs';
import { resendJobId, resendJobOf } from '../delivery/hook-resend-job';
import { SystemHooksRepository } from '../core/system-hooks.repository';

export interface ResendHookDeliveryCommand {
  hookId: number;
  /** `id` of the delivery log entry. */
  deliveryId: string;
}

/**
 * `POST /hooks/:id/events/:event_id/resend`: sends the logged body again, once, with the same
 * `Idempotency-Key` (and `webhook-id`) and a new `X-Service-Webhook-UUID`, even to a disabled
 * hook (an administrator asked for it; a success re-enables the hook). Answers 201 with the
 * queued resend; the attempt appears in the log. The resend is recorded in PostgreSQL before it
 * is queued, so that Redis losing its job does not lose it (`HookDeliveryRecovery` rebuilds it).
 */
@Injectable()
export class ResendHookDeliveryUseCase {
  private readonly logger = new Logger(ResendHookDeliveryUseCase.name);

  constructor(
    private readonly hooks: SystemHooksRepository,
    private readonly deliveries: HookDeliveriesRepository,
    private readonly events: HookEventsRepository,
    @InjectQueue(HOOK_DELIVERIES.name) private readonly queue: Queue<HookDeliveryJob>,
  ) {}

  async execute({ hookId, deliveryId }: ResendHookDeliveryCommand): Promise<{ job_id: string; idempotency_key: string }> {
    const hook = await this.hooks.find(hookId);
    if (!hook) throw DomainError.notFound('System hook');
    if (!/^\d{1,18}$/.test(deliveryId)) throw DomainError.notFound('Hook event');
    const entry = await this.deliveries.find(hookId, deliveryId);
    if (!entry) throw DomainError.notFound('Hook event');
    const resendId = randomUUID();
    const requestId = currentRequestId() ?? null;
    await this.events.recordResend({ id: resendId, hookId, deliveryId, requestId });
    const jobId = resendJobId(deliveryId, resendId);
    await this.queue.add(HOOK_DELIVERIES.jobs.DELIVER_HOOK, resendJobOf(entry, hookId, resendId, requestId), deliveryJobOptions(jobId, 1));
    this.logger.log(`resend of delivery ${deliveryId} to system hook ${hookId} queued`);
    return { job_id: jobId, idempotency_key: entry.idempotencyKey };
  }
}
