import { Module } from '@nestjs/common';
import { IdentityModule } from '@app/identity';
import { IssuesModule } from '@app/issues';
import { NamespacesModule } from '@app/namespaces';
import { EventPresenter } from './event.presenter';
import { EventsController } from './events.controller';
import { EventsRepository } from './reads/events.repository';
import { ResourceEventPresenter } from './resource-event.presenter';
import { ResourceEventsController } from './resource-events.controller';
import { ResourceEventsRepository } from './reads/resource-events.repository';

/** The read side of the projections: contribution events and resource events (gateway). */
@Module({
  imports: [IdentityModule, NamespacesModule, IssuesModule],
  controllers: [EventsController, ResourceEventsController],
  providers: [EventsRepository, EventPresenter, ResourceEventsRepository, ResourceEventPresenter],
})
export class EventsModule {}
