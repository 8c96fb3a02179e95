import 'reflect-metadata';
import { Inject, Injectable, Logger as NestLogger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { HealthModule, LoggingModule, MetricsModule, MetricsService, ObservabilityServer, startObservabilityServer } from '@app/observability';
import { RedisModule } from '@app/queue';
import { createTestDatabase } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { Logger } from 'nestjs-pino';
import { ENTITIES } from '../../apps/entities';

/** A stand-in for a headless worker (projector, alert-engine): logs and counts what it does. */
@Injectable()
class WorkerService implements OnApplicationBootstrap {
  private readonly logger = new NestLogger(WorkerService.name);

  constructor(@Inject(MetricsService) private readonly metrics: MetricsService) {}

  onApplicationBootstrap(): void {
    this.metrics.counter('worker_events_total', 'Events handled by the worker', ['type']).inc({ type: 'push' }, 3);
    this.logger.log({ msg: 'worker started', credentials: { password: 'pw-secret' } });
  }
}

describe('observability of a headless application (createApplicationContext)', () => {
  const lines: string[] = [];
  const destination = { write: (chunk: string): void => void lines.push(...chunk.split('\n').filter(Boolean)) };
  let db: { url: string; drop: () => Promise<void> };
  let app: INestApplicationContext;
  let server: ObservabilityServer;

  beforeAll(async () => {
    db = await createTestDatabase('observability_headless');
    const config = AppConfig.fromEnvironment({
      DATABASE_URL: db.url,
      REDIS_PREFIX: `obs-headless-${randomBytes(4).toString('hex')}`,
      KAFKA_TOPIC_PREFIX: `obs-headless-${randomBytes(4).toString('hex')}`,
    });

    @Module({
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(ENTITIES),
        RedisModule,
        LoggingModule.forRoot({ destination }),
        MetricsModule,
        HealthModule,
      ],
      providers: [WorkerService],
    })
    class WorkerModule {}

    app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
    app.useLogger(app.get(Logger));
    await app.init();
    server = await startObservabilityServer(app, { host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await server?.close();
    await app?.close();
    await db?.drop();
  });

  it('writes the boot logs and its own logs as JSON lines, secrets redacted', () => {
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toContainEqual(expect.objectContaining({ level: 'info', context: 'InstanceLoader' }));
    const started = records.find((r) => r.msg === 'worker started');
    expect(started).toMatchObject({ level: 'info', context: WorkerService.name, credentials: { password: '[REDACTED]' } });
    expect(lines.join('\n')).not.toContain('pw-secret');
  });

  it('serves liveness and readiness on its own small HTTP server', async () => {
    const health = await fetch(`${server.url}/-/health`);
    expect(health.status).toBe(200);
    await expect(health.json()).resolves.toEqual({ status: 'ok' });

    const readiness = await fetch(`${server.url}/-/readiness`);
    await expect(readiness.json()).resolves.toEqual({
      status: 'ok',
      checks: { postgres: { status: 'up' }, migrations: { status: 'up' }, redis: { status: 'up' }, kafka: { status: 'up' } },
    });
    expect(readiness.status).toBe(200);
  });

  it('serves the metrics other modules registered, with the process metrics', async () => {
    const res = await fetch(`${server.url}/-/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = await res.text();
    expect(body).toContain('worker_events_total{type="push"} 3');
    expect(body).toContain('process_resident_memory_bytes');
  });
});
