import { Module } from '@nestjs/common';
import { IdentityModule } from '@app/identity';
import { NamespacesModule } from '@app/namespaces';
import { AlertingMetrics } from './core/alerting.metrics';
import { AlertsController } from './alerts.controller';
import { AlertsRepository } from './core/alerts.repository';
import { HttpIntegrationsController } from './http-integrations.controller';
import { HttpIntegrationsRepository } from './core/http-integrations.repository';
import { CreateHttpIntegrationUseCase } from './use-cases/create-http-integration.use-case';
import { DeleteHttpIntegrationUseCase } from './use-cases/delete-http-integration.use-case';
import { AlertBatchRepository } from './ingestion/alert-batch.repository';
import { AlertIngestionBatcher } from './ingestion/alert-ingestion.batcher';
import { NotifyTargetCache } from './ingestion/notify-target.cache';
import { IngestAlertUseCase } from './use-cases/ingest-alert.use-case';
import { ReceiveAlertNotificationUseCase } from './use-cases/receive-alert-notification.use-case';
import { ResetHttpIntegrationTokenUseCase } from './use-cases/reset-http-integration-token.use-case';
import { UpdateAlertUseCase } from './use-cases/update-alert.use-case';
import { UpdateHttpIntegrationUseCase } from './use-cases/update-http-integration.use-case';

/**
 * Alert ingestion (notify endpoints: plain Fastify routes, see `registerAlertNotifyRoutes`), HTTP
 * endpoint integrations and the on-call alert API.
 * Needs the global ConfigModule, DatabaseModule, MessagingModule, MetricsModule and RedisModule.
 */
@Module({
  imports: [IdentityModule, NamespacesModule],
  controllers: [HttpIntegrationsController, AlertsController],
  providers: [
    AlertingMetrics,
    AlertsRepository,
    HttpIntegrationsRepository,
    AlertBatchRepository,
    AlertIngestionBatcher,
    NotifyTargetCache,
    IngestAlertUseCase,
    ReceiveAlertNotificationUseCase,
    CreateHttpIntegrationUseCase,
    UpdateHttpIntegrationUseCase,
    DeleteHttpIntegrationUseCase,
    ResetHttpIntegrationTokenUseCase,
    UpdateAlertUseCase,
  ],
  exports: [IngestAlertUseCase, ReceiveAlertNotificationUseCase, AlertsRepository, HttpIntegrationsRepository],
})
export class AlertingModule {}
