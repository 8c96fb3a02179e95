import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module, Provider } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AppConfig } from '@app/config';
import { AttemptLimiter } from './delivery/attempt-limiter';
import { HookCache } from './delivery/hook-cache';
import { HookChainInterceptor } from './delivery/hook-chain.interceptor';
import { HookDeliveriesRepository } from './delivery/hook-deliveries.repository';
import { HookDeliveryRecovery } from './delivery/hook-delivery-recovery';
import { HookDeliveryLog } from './delivery/hook-delivery-log';
import { HookDeliveryProcessor } from './delivery/hook-delivery.processor';
import { HookDeliverer } from './delivery/hook-deliverer';
import { HookDispatcher } from './delivery/hook-dispatcher';
import { HookEventsRepository } from './delivery/hook-events.repository';
import { HookFanOut } from './delivery/hook-fan-out';
import { HookGauges } from './delivery/hook-gauges';
import { HookHealthService } from './core/hook-health';
import { HookHttpClient } from './delivery/hook-http-client';
import { MaintenanceProcessor } from './delivery/hook-maintenance.processor';
import { HookMetrics } from './delivery/hook-metrics';
import { HookRedelivery } from './delivery/hook-redelivery';
import { MergeRequestHookData } from './delivery/merge-request-hook-data';
import { MergeRequestHookDataRepository } from './delivery/merge-request-hook-data.repository';
import { OutboundUrlPolicy } from './delivery/outbound-url-policy';
import { HookTokenCipher } from './core/hook-token-cipher';
import { HOOK_DELIVERIES, HOOK_MAINTENANCE } from './core/hooks.jobs';
import { SystemHooksController } from './system-hooks.controller';
import { SystemHooksRepository } from './core/system-hooks.repository';
import { CreateSystemHookUseCase } from './use-cases/create-system-hook.use-case';
import { DeleteSystemHookUseCase } from './use-cases/delete-system-hook.use-case';
import { ResendHookDeliveryUseCase } from './use-cases/resend-hook-delivery.use-case';
import { TestSystemHookUseCase } from './use-cases/test-system-hook.use-case';
import { UpdateSystemHookUseCase } from './use-cases/update-system-hook.use-case';

const API_PROVIDERS: Provider[] = [
  SystemHooksRepository,
  HookTokenCipher,
  HookHttpClient,
  HookDeliveriesRepository,
  HookDeliveryLog,
  // Resends are recorded in PostgreSQL by the API, with or without the delivery pipeline in this process.
  HookEventsRepository,
  HookHealthService,
  HookMetrics,
  HookDeliverer,
  OutboundUrlPolicy,
  HookGauges,
  CreateSystemHookUseCase,
  UpdateSystemHookUseCase,
  DeleteSystemHookUseCase,
  TestSystemHookUseCase,
  ResendHookDeliveryUseCase,
  { provide: APP_INTERCEPTOR, useClass: HookChainInterceptor },
];

/**
 * What runs the deliveries: the stream dispatcher, the delivery worker (fan-outs and retries
 * sharing one attempt limit), the queue's recovery from PostgreSQL and the log retention.
 */
const DELIVERY_PROVIDERS: Provider[] = [
  MergeRequestHookDataRepository,
  MergeRequestHookData,
  HookCache,
  { provide: AttemptLimiter, useFactory: (config: AppConfig) => new AttemptLimiter(config.hooks.concurrency), inject: [AppConfig] },
  HookFanOut,
  HookRedelivery,
  HookDispatcher,
  HookDeliveryProcessor,
  HookDeliveryRecovery,
  MaintenanceProcessor,
];

/**
 * System hooks: the administration API (`/hooks`, delivery log, resend, test delivery) and,
 * when `HOOK_DELIVERY_ENABLED` is true (default), the delivery pipeline in this process.
 * Needs the global ConfigModule, DatabaseModule, MessagingModule, SettingsModule and
 * `QueueModule.forRoot()`.
 */
@Module({})
export class HooksModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: HooksModule,
      imports: [BullModule.registerQueue({ name: HOOK_DELIVERIES.name }, { name: HOOK_MAINTENANCE.name })],
      controllers: [SystemHooksController],
      providers: [...API_PROVIDERS, ...(config.hooks.deliveryEnabled ? DELIVERY_PROVIDERS : [])],
      exports: [SystemHooksRepository, HookTokenCipher, HookHttpClient, HookDeliverer, HookDeliveryLog],
    };
  }
}
