import { AsyncLocalStorage } from 'node:async_hooks';
import { currentRequestId } from '@app/observability';
import type { NewDomainEvent } from './catalogue/domain-event-catalogue';
import { buildDomainEvent, DomainEvent, messageKeyOf } from './core/domain-event';

/** An `outbox_events` row as every writer inserts it (column names), its envelope in `payload`. */
export interface OutboxRecord {
  id: string;
  topic: string;
  message_key: string;
  payload: DomainEvent;
  headers: Record<string, string>;
}

/**
 * What the outbox rows of one piece of work carry besides its events, captured where the work
 * was requested (a batch written later, elsewhere, passes what each payload captured).
 */
export interface OutboxContext {
  /** The request that caused the events: the `x-request-id` header (unless one is given). */
  requestId?: string;
  /** Additional top-level envelope fields (`hook_chain`); the envelope's own fields win. */
  extras?: Record<string, unknown>;
}

const envelopeExtras = new AsyncLocalStorage<Record<string, unknown>>();

/**
 * Runs `fn` so that every event it appends carries `extras` as additional top-level envelope
 * fields (the envelope's own fields always win). Used for `hook_chain`: the loop protection of
 * system hooks, set while serving a request made by a hook receiver.
 */
export const runWithEnvelopeExtras = <T>(extras: Record<string, unknown>, fn: () => T): T => envelopeExtras.run(extras, fn);

/** The request id and envelope extras of the current async context (a request, or none). */
export const currentOutboxContext = (): OutboxContext => ({ requestId: currentRequestId(), extras: envelopeExtras.getStore() });

/** The headers of an outbox row: `headers`, plus `x-request-id` from the context unless given. */
export function outboxHeaders(context: OutboxContext, headers: Record<string, string> = {}): Record<string, string> {
  return context.requestId && headers['x-request-id'] === undefined ? { ...headers, 'x-request-id': context.requestId } : headers;
}

/**
 * The one place an event becomes an outbox row: the envelope (id, version, occurred_at...)
 * with the context's extras, the topic, the key (project id) and the headers (pass the result
 * of `outboxHeaders`; rows of one context may share it). Pure but for the id and the time.
 */
export function outboxRecordOf(event: NewDomainEvent, topic: string, context: OutboxContext, headers: Record<string, string>): OutboxRecord {
  const built = buildDomainEvent(event);
  const payload = context.extras ? ({ ...context.extras, ...built } as DomainEvent) : built;
  return { id: payload.id, topic, message_key: messageKeyOf(payload), payload, headers };
}

/** `outboxRecordOf` for each event, in order, sharing one headers object. */
export function outboxRecordsOf(
  events: readonly NewDomainEvent[],
  topic: string,
  context: OutboxContext,
  headers: Record<string, string> = {},
): OutboxRecord[] {
  const rowHeaders = outboxHeaders(context, headers);
  return events.map((event) => outboxRecordOf(event, topic, context, rowHeaders));
}
