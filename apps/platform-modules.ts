import { DynamicModule, Type } from '@nestjs/common';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { MessagingModule } from '@app/messaging';
import { HealthModule, LoggingModule, MetricsModule } from '@app/observability';
import { RedisModule } from '@app/queue';
import { ENTITIES } from './entities';

/**
 * What every app runs on: configuration, JSON logs, metrics, PostgreSQL, Redis, Kafka
 * (with the outbox relay when `relay` is true) and health. Apps add their domain modules.
 */
export function platformModules(config: AppConfig, options: { relay: boolean }): Array<DynamicModule | Type> {
  return [
    ConfigModule.forRoot(config),
    LoggingModule.forRoot(),
    MetricsModule,
    DatabaseModule.forRoot(ENTITIES),
    RedisModule,
    MessagingModule.forRoot({ relay: options.relay }),
    HealthModule,
  ];
}
