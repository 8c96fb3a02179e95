import type { HookDeliveryStatus } from '../entities/hook-delivery.entity';

// The rows of the delivery log (`system_hook_deliveries`) and their COPY text format: pure.

/** How long delivery log rows are kept. */
export const HOOK_LOG_RETENTION_DAYS = 14;

export interface NewHookDelivery {
  hookId: number;
  eventId: string | null;
  trigger: string;
  url: string;
  requestHeaders: Record<string, string>;
  /** Null when the body is the event's, stored once in `system_hook_events`. */
  requestBody: string | null;
  responseStatus: number | null;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  status: HookDeliveryStatus;
  error: string | null;
  durationMs: number;
  idempotencyKey: string;
  webhookUuid: string | null;
  attempt: number;
  eventOccurredAt: string | null;
}

/** The outcome class of an answered or failed attempt. */
export function deliveryStatusOf(status: number | null): HookDeliveryStatus {
  if (status !== null && status >= 200 && status < 300) return 'successful';
  if (status !== null && status >= 300 && status < 500) return 'client_failure';
  return 'server_failure';
}

/** The columns of a delivery log row, in the order of `copyLine`'s fields. */
export const DELIVERY_COLUMNS = [
  'hook_id',
  'event_id',
  'trigger',
  'url',
  'request_headers',
  'request_body',
  'response_status',
  'response_headers',
  'response_body',
  'status',
  'error',
  'duration_ms',
  'idempotency_key',
  'webhook_uuid',
  'attempt',
  'event_occurred_at',
] as const;

/** Characters that COPY's text format escapes (NUL cannot be stored in text at all: dropped). */
const COPY_SPECIAL = /[\\\n\r\t\u0000]/g;
const HAS_COPY_SPECIAL = /[\\\n\r\t\u0000]/;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u0000': '' };

/** A field of COPY's text format: `\N` for NULL, else the text with backslash, newline, CR and tab escaped. */
export function copyField(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  // Most fields have nothing to escape: one test, no copy.
  return HAS_COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIAL, (c) => COPY_ESCAPES[c]) : value;
}

/** One row of the delivery log's COPY (`HookDeliveriesRepository.insertMany`), newline-terminated (the fields in the order of `DELIVERY_COLUMNS`). */
export function copyLine(row: NewHookDelivery): string {
  return (
    `${row.hookId}\t${copyField(row.eventId)}\t${copyField(row.trigger.slice(0, 255))}\t${copyField(row.url.slice(0, 2048))}\t` +
    `${copyField(JSON.stringify(row.requestHeaders))}\t${copyField(row.requestBody)}\t${copyField(row.responseStatus)}\t` +
    `${copyField(row.responseHeaders === null ? null : JSON.stringify(row.responseHeaders))}\t${copyField(row.responseBody)}\t${row.status}\t${copyField(row.error)}\t` +
    `${Math.min(row.durationMs, 2_147_483_647)}\t${copyField(row.idempotencyKey)}\t${copyField(row.webhookUuid)}\t${row.attempt}\t${copyField(row.eventOccurredAt)}\n`
  );
}
