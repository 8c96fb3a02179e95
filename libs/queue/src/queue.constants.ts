// Queue and job names. Never rename: they are stored in Redis with every waiting,
// delayed and failed job, so a rename strands the jobs enqueued under the old name.

/** BullMQ queues of the service. */
export const QUEUES = {
  /** System hook deliveries: one fan-out job per batch of events, one job per retried (event, hook) or resend. */
  HOOK_DELIVERIES: 'hook-deliveries',
  /** Periodic housekeeping (pruning logs, expiring tokens, ...). */
  MAINTENANCE: 'maintenance',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** Job names, per queue. */
export const JOBS = {
  [QUEUES.HOOK_DELIVERIES]: {
    DELIVER_HOOK: 'deliver-hook',
    FAN_OUT: 'fan-out',
  },
  [QUEUES.MAINTENANCE]: {
    PRUNE_HOOK_LOGS: 'prune-hook-logs',
  },
} as const satisfies Record<QueueName, Record<string, string>>;

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
 * Job name → payload, per queue. Payloads are plain JSON (BullMQ stores them as such):
 * ids and strings, never class instances or dates. `requestId` carries the correlation id
 * of the request or event that caused the job into its logs.
 */
export interface QueueJobMap {
  'hook-deliveries': {
    'deliver-hook': HookDeliveryJob;
    'fan-out': HookFanOutJob;
  };
  maintenance: {
    'prune-hook-logs': { olderThanDays: number };
  };
}

// Compile-time guard: `QueueJobMap` and `JOBS` name the same queues and the same jobs.
type Assert<T extends true> = T;
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type JobNamesOfConstants<Q extends QueueName> = (typeof JOBS)[Q][keyof (typeof JOBS)[Q]];
type JobMapMatchesConstants = Assert<SameKeys<keyof QueueJobMap, QueueName>> &
  Assert<{ [Q in QueueName]: SameKeys<keyof QueueJobMap[Q], JobNamesOfConstants<Q>> }[QueueName]>;

/** Job names of one queue. */
export type JobName<Q extends QueueName> = keyof QueueJobMap[Q] & string;

/** Payload of one job. */
export type JobPayload<Q extends QueueName, N extends JobName<Q>> = QueueJobMap[Q][N];

/** Every job of a queue as a discriminated union `{ name, data }` (narrow with `switch (job.name)`). */
export type QueueJob<Q extends QueueName> = { [N in JobName<Q>]: { name: N; data: JobPayload<Q, N> } }[JobName<Q>];

/** Every job name of `queue`, from the constants above. */
export const jobNamesOf = <Q extends QueueName>(queue: Q): JobName<Q>[] => Object.values(JOBS[queue]) as JobName<Q>[];
