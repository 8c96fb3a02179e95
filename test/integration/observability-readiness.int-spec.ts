import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { HealthModule, MetricsModule, ReadinessReport } from '@app/observability';
import { RedisModule } from '@app/queue';
import { createTestDatabase } from '@app/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../../apps/entities';

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Booted {
  app: NestFastifyApplication;
  url: string;
}

/** A Fastify Nest application with the health module, on the given environment. */
async function boot(env: Record<string, string>): Promise<Booted> {
  const config = AppConfig.fromEnvironment({
    REDIS_PREFIX: `obs-ready-${randomBytes(4).toString('hex')}`,
    KAFKA_TOPIC_PREFIX: `obs-ready-${randomBytes(4).toString('hex')}`,
    ...env,
  });

  @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(ENTITIES), RedisModule, MetricsModule, HealthModule] })
  class TestModule {}

  const app = await NestFactory.create<NestFastifyApplication>(
    TestModule,
    new FastifyAdapter({ requestIdHeader: 'x-request-id', genReqId: () => randomUUID() }),
    { logger: ['error'] },
  );
  await app.listen(0, '127.0.0.1');
  return { app, url: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
}

async function readiness(url: string): Promise<{ status: number; body: ReadinessReport; ms: number }> {
  const started = Date.now();
  const res = await fetch(`${url}/-/readiness`);
  return { status: res.status, body: (await res.json()) as ReadinessReport, ms: Date.now() - started };
}

describe('GET /-/readiness and /-/health', () => {
  let db: { url: string; drop: () => Promise<void> };
  const apps: NestFastifyApplication[] = [];

  const start = async (env: Record<string, string>): Promise<string> => {
    const booted = await boot({ DATABASE_URL: db.url, ...env });
    apps.push(booted.app);
    return booted.url;
  };

  beforeAll(async () => {
    db = await createTestDatabase('observability_readiness');
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await db?.drop();
  });

  it('is 200 with every check up when PostgreSQL, the schema, Redis and Kafka answer', async () => {
    const url = await start({});
    const { status, body } = await readiness(url);
    expect(body).toEqual({
      status: 'ok',
      checks: { postgres: { status: 'up' }, migrations: { status: 'up' }, redis: { status: 'up' }, kafka: { status: 'up' } },
    });
    expect(status).toBe(200);
    // The Kafka admin client is reused: a second probe is ok too.
    await expect(readiness(url)).resolves.toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('stays 200, degraded naming kafka, within a few seconds, when no broker listens', async () => {
    const url = await start({ KAFKA_BROKERS: `127.0.0.1:${await closedPort()}` });
    for (let probe = 0; probe < 2; probe++) {
      const { status, body, ms } = await readiness(url);
      expect(status).toBe(200);
      expect(body.status).toBe('degraded');
      expect(body.checks.kafka).toEqual({ status: 'degraded', error: expect.any(String) });
      expect(body.checks.kafka.status !== 'up' && body.checks.kafka.error.length).toBeGreaterThan(0);
      expect(body.checks.postgres).toEqual({ status: 'up' });
      expect(body.checks.redis).toEqual({ status: 'up' });
      expect(ms).toBeLessThan(4_000);
    }
    // Liveness stays 200 and says so too.
    const health = await fetch(`${url}/-/health`);
    expect(health.status).toBe(200);
    await expect(health.json()).resolves.toEqual({ status: 'degraded', checks: { kafka: { status: 'degraded', error: expect.any(String) } } });
  });

  it('is 503 naming redis, within a few seconds, when Redis does not answer', async () => {
    const url = await start({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    for (let probe = 0; probe < 2; probe++) {
      const { status, body, ms } = await readiness(url);
      expect(status).toBe(503);
      expect(body.status).toBe('failed');
      expect(body.checks.redis).toEqual({ status: 'down', error: expect.stringContaining('ECONNREFUSED') });
      expect(body.checks.postgres).toEqual({ status: 'up' });
      expect(body.checks.kafka).toEqual({ status: 'up' });
      expect(ms).toBeLessThan(4_000);
    }
    expect((await fetch(`${url}/-/health`)).status).toBe(200);
  });

  it('is 503 naming migrations when the schema is behind the code', async () => {
    const behind = await createTestDatabase('observability_schema');
    const booted = await boot({ DATABASE_URL: behind.url, MIGRATIONS_RUN: 'false' });
    try {
      await booted.app.get(DataSource).undoLastMigration();
      const { status, body } = await readiness(booted.url);
      expect(status).toBe(503);
      expect(body.checks.migrations).toEqual({ status: 'down', error: 'pending migrations' });
      expect(body.checks.postgres).toEqual({ status: 'up' });
    } finally {
      await booted.app.close();
      await behind.drop();
    }
  });
});
