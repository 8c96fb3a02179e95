// Queue and job names. Never rename: they are stored in Redis with every waiting,
// delayed and failed job, so a rename strands the jobs enqueued under the old name.

/** BullMQ queues of the service. */
export const QUEUES = {
  /** One job per (domain event, hook): an HTTP POST to a hook URL. */
  HOOK_DELIVERIES: 'hook-deliveries',
  /** Periodic housekeeping (pruning logs, expiring tokens, ...). */
  MAINTENANCE: 'maintenance',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** Job names, per queue. */
export const JOBS = {
  [QUEUES.HOOK_DELIVERIES]: {
    DELIVER_HOOK: 'deliver-hook',
  },
  [QUEUES.MAINTENANCE]: {
    PRUNE_HOOK_LOGS: 'prune-hook-logs',
  },
} as const satisfies Record<QueueName, Record<string, string>>;

/**
 * Job name → payload, per queue. Payloads are plain JSON (BullMQ stores them as such):
 * ids and strings, never class instances or dates. `requestId` carries the correlation id
 * of the request or event that caused the job into its logs.
 */
export interface QueueJobMap {
  'hook-deliveries': {
    'deliver-hook': { eventId: string; hookId: number; requestId?: string };
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
