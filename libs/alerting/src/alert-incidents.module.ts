import { Module } from '@nestjs/common';
import { IdentityModule } from '@app/identity';
import { IssuesModule } from '@app/issues';
import { NamespacesModule } from '@app/namespaces';
import { AlertingModule } from './alerting.module';
import { AlertIncidentsController } from './lifecycle/alert-incidents.controller';
import { CreateIncidentFromAlertUseCase } from './lifecycle/create-incident-from-alert.use-case';

/** Incidents opened from an alert by hand, on the request path (the gateway). */
@Module({
  imports: [IdentityModule, NamespacesModule, IssuesModule, AlertingModule],
  controllers: [AlertIncidentsController],
  providers: [CreateIncidentFromAlertUseCase],
})
export class AlertIncidentsModule {}
