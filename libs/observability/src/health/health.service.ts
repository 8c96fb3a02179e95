import { Inject, Injectable } from '@nestjs/common';
import { KafkaIndicator } from './indicators/kafka.indicator';
import { MigrationsIndicator, PostgresIndicator } from './indicators/postgres.indicator';
import { RedisIndicator } from './indicators/redis.indicator';
import { CheckResult, ReadinessCheck, ReadinessReport, overallStatus, runCheck } from './readiness';

/** How old the last known state of an optional dependency may be before a liveness probe refreshes it (in the background). */
export const LIVENESS_REFRESH_MS = 5_000;

/** The liveness answer: always 200; `degraded` names the optional dependencies last seen away. */
export type LivenessReport = { status: 'ok' } | { status: 'degraded'; checks: Record<string, CheckResult> };

/** Liveness and readiness of the process. */
@Injectable()
export class HealthService {
  private readonly checks: readonly ReadinessCheck[];
  /** Last result of each optional check, from readiness probes or the liveness refresh. */
  private readonly lastKnown = new Map<string, { result: CheckResult; at: number }>();
  private refreshing: Promise<unknown> | null = null;

  constructor(
    @Inject(PostgresIndicator) postgres: PostgresIndicator,
    @Inject(MigrationsIndicator) migrations: MigrationsIndicator,
    @Inject(RedisIndicator) redis: RedisIndicator,
    @Inject(KafkaIndicator) kafka: KafkaIndicator,
  ) {
    this.checks = [postgres, migrations, redis, kafka];
  }

  /**
   * 200 while the process serves. `ok`, or `degraded` with the optional dependencies (Kafka)
   * last seen away. Never waits for a dependency: it answers from the last known state
   * (refreshed in the background when older than `LIVENESS_REFRESH_MS`), so a hanging broker
   * cannot make a liveness probe time out and restart a process that works.
   */
  liveness(): LivenessReport {
    const now = Date.now();
    const optional = this.checks.filter((c) => c.optional);
    if (!this.refreshing && optional.some((c) => now - (this.lastKnown.get(c.name)?.at ?? 0) > LIVENESS_REFRESH_MS)) {
      this.refreshing = Promise.all(optional.map(async (c) => this.remember(c.name, await runCheck(c)))).finally(() => {
        this.refreshing = null;
      });
    }
    const away = [...this.lastKnown].filter(([, { result }]) => result.status !== 'up');
    return away.length === 0 ? { status: 'ok' } : { status: 'degraded', checks: Object.fromEntries(away.map(([name, { result }]) => [name, result])) };
  }

  /**
   * Every check in parallel, each bounded in time: `failed` (503) when PostgreSQL, the schema or
   * Redis does not answer; `degraded` (still ready, 200) when only Kafka does not, since writes
   * then wait in the outbox; `ok` otherwise.
   */
  async readiness(): Promise<ReadinessReport> {
    const results = await Promise.all(
      this.checks.map(async (c): Promise<[string, CheckResult]> => {
        const result = await runCheck(c);
        if (c.optional) this.remember(c.name, result);
        return [c.name, result];
      }),
    );
    return { status: overallStatus(results.map(([, r]) => r)), checks: Object.fromEntries(results) };
  }

  private remember(name: string, result: CheckResult): void {
    this.lastKnown.set(name, { result, at: Date.now() });
  }
}
