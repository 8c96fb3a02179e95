import { defineQueue } from '@app/queue';

// The BullMQ queues of the events lib. Never rename a queue or a job: stored in Redis with every job.

export interface PruneEventsPayload {
  olderThanYears: number;
}

/** Housekeeping of the event projections (run by the projector). */
export const EVENTS_RETENTION = defineQueue<{ 'prune-events': PruneEventsPayload }>()('events-retention', {
  /** Deletes contribution events older than the retention period; repeated daily. */
  PRUNE_EVENTS: 'prune-events',
});

/** When the prune job runs: every day at 03:17 UTC (off the hour, away from other jobs). */
export const PRUNE_EVENTS_SCHEDULE = '17 3 * * *';
