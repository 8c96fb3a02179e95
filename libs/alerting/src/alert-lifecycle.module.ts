import { Module } from '@nestjs/common';
import { IssuesModule } from '@app/issues';
import { NamespacesModule } from '@app/namespaces';
import { AlertingModule } from './alerting.module';
import { AlertBotRepository } from './lifecycle/alert-bot.repository';
import { AlertLifecycleConsumer } from './lifecycle/alert-lifecycle.consumer';
import { AlertStateEventsRepository } from './lifecycle/alert-state-events.repository';
import { CloseAlertIncidentUseCase } from './lifecycle/close-alert-incident.use-case';
import { CreateAlertIncidentUseCase } from './lifecycle/create-alert-incident.use-case';
import { ProcessedAlertEventsRepository } from './lifecycle/processed-alert-events.repository';

/**
 * The alert lifecycle off the request path (run by the alert-engine app): state events
 * recorded, incidents opened and closed from the alert domain events. Needs the global ConfigModule, DatabaseModule,
 * MessagingModule, MetricsModule and RedisModule.
 */
@Module({
  imports: [NamespacesModule, IssuesModule, AlertingModule],
  providers: [
    AlertBotRepository,
    ProcessedAlertEventsRepository,
    AlertStateEventsRepository,
    CreateAlertIncidentUseCase,
    CloseAlertIncidentUseCase,
    AlertLifecycleConsumer,
  ],
  exports: [AlertLifecycleConsumer],
})
export class AlertLifecycleModule {}
