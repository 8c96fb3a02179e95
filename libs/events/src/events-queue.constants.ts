// Queue and job names of the events library. Never rename: stored in Redis with every job.

/** Housekeeping of the event projections (run by the projector). */
export const EVENTS_RETENTION_QUEUE = 'events-retention';

export const EVENTS_RETENTION_JOBS = {
  /** Deletes contribution events older than the retention period; repeated daily. */
  PRUNE_EVENTS: 'prune-events',
} as const;

export interface PruneEventsPayload {
  olderThanYears: number;
}

/** When the prune job runs: every day at 03:17 UTC (off the hour, away from other jobs). */
export const PRUNE_EVENTS_SCHEDULE = '17 3 * * *';
