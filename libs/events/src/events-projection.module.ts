import { Module } from '@nestjs/common';
import { EventsRetentionModule } from './retention/events-retention.module';
import { EventsProjector } from './projection/events.projector';
import { ProjectionsRebuildModule } from './projection/projections-rebuild.module';

/**
 * The write side of the projections (projector app): consumes the domain event stream and
 * prunes old events. Needs the global ConfigModule, DatabaseModule, MessagingModule (relay
 * off) and `QueueModule.forRoot()`.
 */
@Module({
  imports: [ProjectionsRebuildModule, EventsRetentionModule],
  providers: [EventsProjector],
  exports: [EventsProjector, ProjectionsRebuildModule, EventsRetentionModule],
})
export class EventsProjectionModule {}
