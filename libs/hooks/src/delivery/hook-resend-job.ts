import { randomUUID } from 'node:crypto';
import type { HookDeliveryEntity } from '../entities';
import type { HookDeliveryJob } from '../core/hooks.jobs';
import { HookDeliveryLog } from './hook-delivery-log';

/** The job of a resend of a logged delivery: its body and headers' identity as logged. */
export function resendJobOf(entry: HookDeliveryEntity, hookId: number, resendId: string, requestId: string | null): HookDeliveryJob {
  const headers = entry.requestHeaders;
  return {
    eventId: entry.eventId,
    hookId,
    trigger: entry.trigger,
    body: HookDeliveryLog.bodyOf(entry),
    idempotencyKey: entry.idempotencyKey,
    occurredAt: entry.eventOccurredAt ? entry.eventOccurredAt.toISOString() : null,
    chainId: headers['X-Service-Event-UUID'] ?? entry.eventId ?? randomUUID(),
    chainDepth: Number(headers['X-Service-Event-Chain-Depth'] ?? 1) || 1,
    resend: true,
    resendId,
    ...(requestId ? { requestId } : {}),
    bodyStored: entry.requestBody === null && entry.event != null,
  };
}

/** The job id of a resend (unique per request: two resends of one entry are two attempts). */
export const resendJobId = (deliveryId: string, resendId: string): string => `resend_${deliveryId}_${resendId}`;
