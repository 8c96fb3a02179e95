import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { EventsProjectionModule } from '@app/events';
import { SystemNotesModule } from '@app/notes';
import { QueueModule } from '@app/queue';
import { platformModules } from '../../platform-modules';

/**
 * Materializes contribution and resource events from the domain event stream (consumer
 * group `projector.v1`), writes the system notes of changes (group `system-notes.v1`), prunes events older than 3 years (daily BullMQ job), and serves
 * health and metrics.
 */
@Module({})
export class ProjectorModule {
  static forRoot(config: AppConfig = AppConfig.fromEnvironment()): DynamicModule {
    return {
      module: ProjectorModule,
      imports: [...platformModules(config, { relay: false }), QueueModule.forRoot(), EventsProjectionModule, SystemNotesModule],
    };
  }
}
