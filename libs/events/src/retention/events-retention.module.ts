import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { EVENTS_RETENTION } from './events.jobs';
import { ProjectionsRebuildModule } from '../projection/projections-rebuild.module';
import { EventsRetentionProcessor } from './events-retention.processor';
import { PruneEventsUseCase } from './prune-events.use-case';

/** Daily removal of events older than 3 years (BullMQ job scheduler). Needs `QueueModule.forRoot()`. */
@Module({
  imports: [BullModule.registerQueue({ name: EVENTS_RETENTION.name }), ProjectionsRebuildModule],
  providers: [EventsRetentionProcessor, PruneEventsUseCase],
  exports: [PruneEventsUseCase],
})
export class EventsRetentionModule {}
