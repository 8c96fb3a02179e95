import type { Message, TopicMessages } from 'kafkajs';

/** One claimed row of `outbox_events`, as the relay reads it. */
export interface OutboxRow {
  seq: string;
  id: string;
  topic: string;
  message_key: string;
  payload: Record<string, unknown>;
  headers: Record<string, unknown> | null;
}

/** A Kafka message built from one row, with its approximate size on the wire. */
export interface OutboxMessage {
  topic: string;
  message: Message;
  bytes: number;
}

/**
 * The Kafka message of one outbox row: the payload as JSON, keyed by the row's key, with the
 * row's headers (nulls dropped, values as strings) plus `event-id` and `event-type`.
 */
export function toMessage(row: OutboxRow): OutboxMessage {
  const value = JSON.stringify(row.payload);
  const headers: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(row.headers ?? {})) {
    if (headerValue !== null && headerValue !== undefined) headers[name] = String(headerValue);
  }
  headers['event-id'] = row.id;
  headers['event-type'] = String(row.payload.type ?? '');
  const bytes =
    Buffer.byteLength(value) +
    Buffer.byteLength(row.message_key) +
    Object.entries(headers).reduce((sum, [name, v]) => sum + Buffer.byteLength(name) + Buffer.byteLength(v), 0);
  return { topic: row.topic, message: { key: row.message_key, value, headers }, bytes };
}

/** Splits in order into chunks of at most `maxBytes` (a single larger message gets its own chunk). */
export function chunkBySize<T extends { bytes: number }>(items: T[], maxBytes: number): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    if (current.length > 0 && size + item.bytes > maxBytes) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += item.bytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * The produce requests that publish `rows` in order: one `sendBatch` per chunk of at most
 * `maxRequestBytes`, its messages grouped by topic (row order kept within each topic).
 */
export function produceRequestsOf(rows: OutboxRow[], maxRequestBytes: number): TopicMessages[][] {
  return chunkBySize(rows.map(toMessage), maxRequestBytes).map((chunk) => {
    const byTopic = new Map<string, Message[]>();
    for (const { topic, message } of chunk) {
      const list = byTopic.get(topic) ?? [];
      list.push(message);
      byTopic.set(topic, list);
    }
    return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
  });
}

/** Whether `error` or any error it wraps is a Kafka protocol error of one of `types`. */
export function hasErrorType(error: unknown, types: ReadonlySet<string>, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const e = error as { type?: unknown; originalError?: unknown; errors?: unknown; cause?: unknown };
  if (typeof e.type === 'string' && types.has(e.type)) return true;
  const nested = [e.originalError, e.cause, ...(Array.isArray(e.errors) ? e.errors : [])];
  return nested.some((inner) => hasErrorType(inner, types, depth + 1));
}

/** An error's message, with the message of the error it wraps (kafkajs `originalError`) when different. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    const inner = (error as { originalError?: unknown }).originalError;
    return inner instanceof Error && inner.message !== error.message ? `${error.message} (${inner.message})` : error.message;
  }
  return String(error);
}
