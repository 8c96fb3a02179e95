import { Module } from '@nestjs/common';
import { IssuesModule } from '@app/issues';
import { NamespacesModule } from '@app/namespaces';
import { AlertingModule } from '../alerting.module';
import { AlertBotRepository } from './alert-bot.repository';
import { AlertLifecycleConsumer } from './alert-lifecycle.consumer';
import { AlertStateEventsRepository } from './alert-state-events.repository';
import { CloseAlertIncidentUseCase } from './close-alert-incident.use-case';
import { CreateAlertIncidentUseCase } from './create-alert-incident.use-case';
import { ProcessedAlertEventsRepository } from './processed-alert-events.repository';

/**
 * The alert lifecycle off the request path (run by the alert-engine app): state events
 * recorded, incidents opened and closed from the alert domain events. Needs the global ConfigModule, DatabaseModule,
 * MessagingModule, MetricsModule and RedisModule.
 */
@Module({
  imports: [NamespacesModule, IssuesModule, AlertingModule],
  providers: [AlertBotRepository, ProcessedAlertEventsRepository, AlertStateEventsRepository, CreateAlertIncidentUseCase, CloseAlertIncidentUseCase, AlertLifecycleConsumer],
  exports: [AlertLifecycleConsumer],
})
export class AlertLifecycleModule {}
