import { Inject, Module, OnModuleInit, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { fastifyOf } from '../core/fastify-instance';
import { registerHealthRoutes } from './health.routes';
import { HealthService } from './health.service';
import { KafkaIndicator } from './indicators/kafka.indicator';
import { MigrationsIndicator, PostgresIndicator } from './indicators/postgres.indicator';
import { RedisIndicator } from './indicators/redis.indicator';

/**
 * Liveness and readiness. Needs the global `DataSource` (DatabaseModule), `REDIS`
 * (RedisModule) and `AppConfig`. In an application served by Fastify it serves
 * `GET /-/health` and `GET /-/readiness`; headless applications expose the same routes
 * with `startObservabilityServer`.
 */
@Module({
  providers: [PostgresIndicator, MigrationsIndicator, RedisIndicator, KafkaIndicator, HealthService],
  exports: [HealthService],
})
export class HealthModule implements OnModuleInit {
  constructor(
    @Inject(HealthService) private readonly health: HealthService,
    @Optional() @Inject(HttpAdapterHost) private readonly adapterHost?: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const fastify = fastifyOf(this.adapterHost);
    if (fastify) registerHealthRoutes(fastify, this.health);
  }
}
