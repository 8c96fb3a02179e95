import { JobWorker, OnJob, QueueWorker } from '@app/queue';
import { EVENTS_RETENTION, PRUNE_EVENTS_SCHEDULE, PruneEventsPayload } from './events.jobs';
import { EVENT_RETENTION_YEARS } from '../reads/events.repository';
import { PruneEventsUseCase } from './prune-events.use-case';

/** Runs the retention jobs of the event projections: the prune, daily. */
@QueueWorker(EVENTS_RETENTION)
export class EventsRetentionProcessor extends JobWorker {
  constructor(private readonly pruneEvents: PruneEventsUseCase) {
    super();
  }

  @OnJob(EVENTS_RETENTION, EVENTS_RETENTION.jobs.PRUNE_EVENTS, { schedule: { cron: PRUNE_EVENTS_SCHEDULE }, data: { olderThanYears: EVENT_RETENTION_YEARS } })
  async prune({ olderThanYears }: PruneEventsPayload): Promise<{ removed: number }> {
    return { removed: await this.pruneEvents.execute({ olderThanYears }) };
  }
}
