import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@app/api';
import { AppConfig } from '@app/config';
import { currentRequestId } from '@app/observability';
import { HOOK_DELIVERIES, HookDeliveryJob } from '../hooks.jobs';
import type { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { HookDeliveryLog } from '../delivery/hook-delivery-log';
import { deliveryJobOptions } from '../delivery/hook-dispatcher';
import { SystemHooksRepository } from '../system-hooks.repository';

export interface ResendHookDeliveryCommand {
  hookId: number;
  /** `id` of the delivery log entry. */
  deliveryId: string;
}

/**
 * `POST /hooks/:id/events/:event_id/resend`: sends the logged body again, once, with the same
 * `Idempotency-Key` (and `webhook-id`) and a new `X-Service-Webhook-UUID`, even to a disabled
 * hook (an administrator asked for it; a success re-enables the hook). Answers 201 with the
 * queued resend; the attempt appears in the log.
 */
@Injectable()
export class ResendHookDeliveryUseCase {
  private readonly logger = new Logger(ResendHookDeliveryUseCase.name);

  constructor(
    private readonly config: AppConfig,
    private readonly hooks: SystemHooksRepository,
    private readonly log: HookDeliveryLog,
    @InjectQueue(HOOK_DELIVERIES.name) private readonly queue: Queue<HookDeliveryJob>,
  ) {}

  async execute({ hookId, deliveryId }: ResendHookDeliveryCommand): Promise<{ job_id: string; idempotency_key: string }> {
    const hook = await this.hooks.find(hookId);
    if (!hook) throw DomainError.notFound('System hook');
    if (!/^\d{1,18}$/.test(deliveryId)) throw DomainError.notFound('Hook event');
    const entry = await this.log.find(hookId, deliveryId);
    if (!entry) throw DomainError.notFound('Hook event');
    const headers = entry.requestHeaders;
    const data: HookDeliveryJob = {
      eventId: entry.eventId,
      hookId,
      trigger: entry.trigger,
      body: entry.requestBody,
      idempotencyKey: entry.idempotencyKey,
      occurredAt: entry.eventOccurredAt ? entry.eventOccurredAt.toISOString() : null,
      chainId: headers['X-Service-Event-UUID'] ?? entry.eventId ?? randomUUID(),
      chainDepth: Number(headers['X-Service-Event-Chain-Depth'] ?? 1) || 1,
      resend: true,
      requestId: currentRequestId(),
    };
    const jobId = `resend_${deliveryId}_${randomUUID()}`;
    await this.queue.add(HOOK_DELIVERIES.jobs.DELIVER_HOOK, data, deliveryJobOptions(this.config, jobId, 1));
    this.logger.log(`resend of delivery ${deliveryId} to system hook ${hookId} queued`);
    return { job_id: jobId, idempotency_key: entry.idempotencyKey };
  }
}
