import { defineQueue } from '@app/queue';

// The BullMQ queues of the hooks lib. Never rename a queue or a job: the names are stored in
// Redis with every waiting, delayed and failed job, so a rename strands the jobs enqueued under the old name.

/**
 * One delivery of one event to one system hook. The body is built once by the dispatcher
 * (the same bytes for every attempt); job id `<eventId>_<hookId>` for events, so that an
 * event read twice from the stream is enqueued once.
 */
export interface HookDeliveryJob {
  /** The domain event delivered; null for a resend of a test delivery. */
  eventId: string | null;
  hookId: number;
  /** Event name (`project_create`, `push`, `merge_request`...), the log's `trigger`. */
  trigger: string;
  /** The JSON body sent. */
  body: string;
  /** `Idempotency-Key` and `webhook-id`: the same for every attempt and resend. */
  idempotencyKey: string;
  /** When the event was committed (ISO-8601), for the delivery delay. */
  occurredAt: string | null;
  /** Loop protection: `X-Service-Event-UUID` and the depth of this delivery in its chain (1 = caused by a person). */
  chainId: string;
  chainDepth: number;
  /** Set on a resend: one attempt, sent even to a disabled hook. */
  resend?: boolean;
  /** Correlation id of the request or event that caused the job, for its logs. */
  requestId?: string;
}

/** One job per (domain event, hook): an HTTP POST to a hook URL. */
export const HOOK_DELIVERIES = defineQueue<{ 'deliver-hook': HookDeliveryJob }>()('hook-deliveries', { DELIVER_HOOK: 'deliver-hook' });

/** Housekeeping of the hooks lib: pruning the delivery log. */
export const HOOK_MAINTENANCE = defineQueue<{ 'prune-hook-logs': { olderThanDays: number } }>()('maintenance', { PRUNE_HOOK_LOGS: 'prune-hook-logs' });
