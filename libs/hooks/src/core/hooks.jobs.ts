import { defineQueue } from '@app/queue';

// The BullMQ queues of the hooks lib. Never rename a queue or a job: the names are stored in
// Redis with every waiting, delayed and failed job, so a rename strands the jobs enqueued under the old name.

/**
 * One delivery of one event to one system hook: the retries of an attempt that failed (job id
 * `<eventId>_<hookId>`), an attempt the fan-out handed over, or a resend. The body is built once
 * by the dispatcher (the same bytes for every attempt).
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
  /** A resend's record in `system_hook_resends` (absent on resends queued before it existed). */
  resendId?: string;
  /** Correlation id of the request or event that caused the job, for its logs. */
  requestId?: string;
  /** Number of the job's first attempt (2 for the retries of a failed first attempt); default 1. */
  firstAttempt?: number;
  /** The body is the event's, stored once in `system_hook_events` (the log rows reference it). */
  bodyStored?: boolean;
}

/** One event of a fan-out job: its body, built once, goes to every hook of `hookIds`. */
export interface HookFanOutEvent {
  eventId: string;
  trigger: string;
  body: string;
  occurredAt: string | null;
  chainId: string;
  chainDepth: number;
  /** The hooks subscribed when the event was dispatched, ascending. */
  hookIds: number[];
}

/**
 * The first attempts of a batch of events to every subscribed hook (job id `fan-out_<first event id>`,
 * recorded with each event in `system_hook_events`).
 */
export interface HookFanOutJob {
  events: HookFanOutEvent[];
  /** Re-enqueued from PostgreSQL: some hooks may have been delivered already (checked in the log). */
  recovered?: boolean;
}

/**
 * System hook deliveries: one `fan-out` job per batch of events (the first attempts to every
 * subscribed hook), one `deliver-hook` job per retried (event, hook), handed-over attempt or resend.
 */
export const HOOK_DELIVERIES = defineQueue<{ 'deliver-hook': HookDeliveryJob; 'fan-out': HookFanOutJob }>()('hook-deliveries', {
  DELIVER_HOOK: 'deliver-hook',
  FAN_OUT: 'fan-out',
});

/** Housekeeping of the hooks lib: pruning the delivery log. */
export const HOOK_MAINTENANCE = defineQueue<{ 'prune-hook-logs': { olderThanDays: number } }>()('maintenance', { PRUNE_HOOK_LOGS: 'prune-hook-logs' });
