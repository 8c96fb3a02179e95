import 'reflect-metadata';
import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { MessagingModule } from '@app/messaging';
import { MetricsModule } from '@app/observability';
import { RedisModule } from '@app/queue';
import { createTestDatabase } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AlertingModule } from './alerting.module';
import { integrationTokenMatches } from './core/integration-token';
import { FIRST_HTTP_INTEGRATION } from './core/http-integrations.repository';
import { CreateHttpIntegrationUseCase } from './use-cases/create-http-integration.use-case';
import { DeleteHttpIntegrationUseCase } from './use-cases/delete-http-integration.use-case';
import { ResetHttpIntegrationTokenUseCase } from './use-cases/reset-http-integration-token.use-case';
import { UpdateHttpIntegrationUseCase } from './use-cases/update-http-integration.use-case';
import { NotifyTargetCache } from './ingestion/notify-target.cache';
import { ENTITIES } from '@apps/entities';

/** One "process": the alerting module with its real PostgreSQL, Redis and outbox. */
@Module({})
class AlertingProcessModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AlertingProcessModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(ENTITIES),
        RedisModule,
        MetricsModule,
        MessagingModule.forRoot({ relay: false }),
        AlertingModule,
      ],
    };
  }
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 3_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The notify target cache of two processes: a change made through one is seen by the other at once, not after the lifetime. */
describe('NotifyTargetCache across processes', () => {
  let db: { url: string; drop: () => Promise<void> };
  let a: INestApplicationContext;
  let b: INestApplicationContext;
  let projectPath: string;
  let integrationId: number;
  let projectId: number;

  beforeAll(async () => {
    db = await createTestDatabase('notify_target_cache');
    const prefix = `t${randomBytes(4).toString('hex')}`;
    // A lifetime far longer than the test: only the invalidation can make a change visible.
    const config = AppConfig.fromEnvironment({
      DATABASE_URL: db.url,
      REDIS_PREFIX: prefix,
      KAFKA_TOPIC_PREFIX: prefix,
      LOG_LEVEL: 'silent',
      ALERT_INTEGRATION_CACHE_TTL: '600',
    });
    a = await NestFactory.createApplicationContext(AlertingProcessModule.forRoot(config), { logger: false });
    b = await NestFactory.createApplicationContext(AlertingProcessModule.forRoot(config), { logger: false });
    const dataSource = a.get(DataSource);
    const [namespace] = await dataSource.query(
      `INSERT INTO namespaces (name, path, full_path, full_name, kind) VALUES ('ops', 'ops', 'ops', 'ops', 'group') RETURNING id`,
    );
    const [project] = await dataSource.query(`INSERT INTO projects (name, path, namespace_id) VALUES ('web', 'web', $1) RETURNING id`, [namespace.id]);
    projectId = project.id;
    projectPath = 'ops/web';
    const [integration] = await dataSource.query(
      `INSERT INTO alert_http_integrations (project_id, name, endpoint_identifier, token_digest) VALUES ($1, 'Prom', 'abc123', repeat('0', 64)) RETURNING id`,
      [project.id],
    );
    integrationId = integration.id;
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  const targetSeenBy =
    (context: INestApplicationContext, endpoint: string | null = 'abc123') =>
    () =>
      context.get(NotifyTargetCache).get(projectPath, endpoint === null ? FIRST_HTTP_INTEGRATION : { endpointIdentifier: endpoint });
  const command = { actorId: 1, project: { id: 0, groupId: null }, integrationId: 0 };

  it('serves a cached target without the database, and drops it in every process when the key is reset, the integration changed or deleted', async () => {
    const seenByA = targetSeenBy(a);
    const cached = await seenByA();
    expect(cached).toMatchObject({ project: { id: projectId, groupId: expect.any(Number) }, integration: { id: integrationId, active: true } });
    expect(await seenByA()).toBe(cached);
    // Case and the first-integration form name the same target.
    expect((await a.get(NotifyTargetCache).get('OPS/Web', FIRST_HTTP_INTEGRATION))?.integration.id).toBe(integrationId);

    const { token } = await b.get(ResetHttpIntegrationTokenUseCase).execute({ ...command, project: { id: projectId, groupId: null }, integrationId });
    const reset = await until(seenByA, (t) => t !== null && integrationTokenMatches(token, t.integration.tokenDigest), 'process A to see the new key');
    expect(reset).not.toBe(cached);

    await b.get(UpdateHttpIntegrationUseCase).execute({ ...command, project: { id: projectId, groupId: null }, integrationId, active: false });
    await until(seenByA, (t) => t?.integration.active === false, 'process A to see the deactivation');

    await b.get(DeleteHttpIntegrationUseCase).execute({ ...command, project: { id: projectId, groupId: null }, integrationId });
    await until(seenByA, (t) => t === null, 'process A to see the deletion');
  });

  it('remembers that nothing is there, until an integration is created', async () => {
    expect(await a.get(NotifyTargetCache).get('unknown/path', FIRST_HTTP_INTEGRATION)).toBeNull();
    const firstOfProject = targetSeenBy(a, null);
    expect(await firstOfProject()).toBeNull();
    const { integration } = await b.get(CreateHttpIntegrationUseCase).execute({ actorId: 1, project: { id: projectId, groupId: null }, name: 'Second' });
    const seen = await until(firstOfProject, (t) => t !== null, 'process A to see the new integration');
    expect(seen!.integration.id).toBe(integration.id);
  });
});
