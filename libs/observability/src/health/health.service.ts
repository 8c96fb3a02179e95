import { Inject, Injectable } from '@nestjs/common';
import { KafkaIndicator } from './indicators/kafka.indicator';
import { MigrationsIndicator, PostgresIndicator } from './indicators/postgres.indicator';
import { RedisIndicator } from './indicators/redis.indicator';
import { ReadinessCheck, ReadinessReport, runReadinessChecks } from './readiness';

/** Liveness and readiness of the process. */
@Injectable()
export class HealthService {
  private readonly checks: readonly ReadinessCheck[];

  constructor(
    @Inject(PostgresIndicator) postgres: PostgresIndicator,
    @Inject(MigrationsIndicator) migrations: MigrationsIndicator,
    @Inject(RedisIndicator) redis: RedisIndicator,
    @Inject(KafkaIndicator) kafka: KafkaIndicator,
  ) {
    this.checks = [postgres, migrations, redis, kafka];
  }

  /** Always ok while the process serves requests. */
  liveness(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Ok only when PostgreSQL, the schema, Redis and Kafka all answer; every check in parallel and bounded in time. */
  readiness(): Promise<ReadinessReport> {
    return runReadinessChecks(this.checks);
  }
}
