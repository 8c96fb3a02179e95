import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { EVENTS_RETENTION_JOBS, EVENTS_RETENTION_QUEUE, PRUNE_EVENTS_SCHEDULE, PruneEventsPayload } from '../events-queue.constants';
import { EVENT_RETENTION_YEARS } from '../events.repository';
import { PruneEventsUseCase } from './prune-events.use-case';

/** Runs the retention jobs of the event projections. */
@Processor(EVENTS_RETENTION_QUEUE)
export class EventsRetentionProcessor extends WorkerHost {
  constructor(private readonly pruneEvents: PruneEventsUseCase) {
    super();
  }

  async process(job: Job<PruneEventsPayload>): Promise<{ removed: number }> {
    switch (job.name) {
      case EVENTS_RETENTION_JOBS.PRUNE_EVENTS:
        return { removed: await this.pruneEvents.execute({ olderThanYears: job.data.olderThanYears }) };
      default:
        throw new Error(`unknown job ${job.name} on ${EVENTS_RETENTION_QUEUE}`);
    }
  }
}

/** Registers the daily prune as a BullMQ job scheduler (idempotent: one schedule however many projectors start). */
@Injectable()
export class EventsRetentionScheduler implements OnApplicationBootstrap {
  constructor(@InjectQueue(EVENTS_RETENTION_QUEUE) private readonly queue: Queue) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(
      EVENTS_RETENTION_JOBS.PRUNE_EVENTS,
      { pattern: PRUNE_EVENTS_SCHEDULE, tz: 'UTC' },
      { name: EVENTS_RETENTION_JOBS.PRUNE_EVENTS, data: { olderThanYears: EVENT_RETENTION_YEARS } satisfies PruneEventsPayload, opts: { attempts: 3 } },
    );
  }
}
