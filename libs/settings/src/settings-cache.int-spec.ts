import 'reflect-metadata';
import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { MessagingModule } from '@app/messaging';
import { RedisModule } from '@app/queue';
import { createTestDatabase } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SettingsReader } from './core/settings-reader';
import { SettingsModule } from './settings.module';
import { UpdateApplicationSettingsUseCase } from './use-cases/update-application-settings.use-case';
import { ENTITIES } from '@apps/entities';

/** One "process": the settings module with its real PostgreSQL, Redis and outbox. */
@Module({})
class SettingsProcessModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: SettingsProcessModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(ENTITIES), RedisModule, MessagingModule.forRoot({ relay: false }), SettingsModule],
    };
  }
}

/** Polls `read` until it returns `expected` or `timeoutMs` passes; returns how long it took. */
async function waitFor<T>(read: () => Promise<T>, expected: T, timeoutMs = 2_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    if ((await read()) === expected) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`still ${String(await read())} after ${timeoutMs} ms, expected ${String(expected)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('Application settings cache across processes', () => {
  let db: { url: string; drop: () => Promise<void> };
  let a: INestApplicationContext;
  let b: INestApplicationContext;

  const limitSeenBy = (context: INestApplicationContext) => async () => (await context.get(SettingsReader).get()).number('default_projects_limit');
  const update = (context: INestApplicationContext, params: Record<string, unknown>) =>
    context.get(UpdateApplicationSettingsUseCase).execute({ params, actorId: 1 });

  beforeAll(async () => {
    db = await createTestDatabase('settings_cache');
    const prefix = `t${randomBytes(4).toString('hex')}`;
    // The default lifetime (60 s): only the invalidation can make a change visible within the test.
    const config = AppConfig.fromEnvironment({ DATABASE_URL: db.url, REDIS_PREFIX: prefix, KAFKA_TOPIC_PREFIX: prefix, LOG_LEVEL: 'silent' });
    expect(config.settings.cacheTtlSeconds).toBe(60);
    a = await NestFactory.createApplicationContext(SettingsProcessModule.forRoot(config), { logger: false });
    b = await NestFactory.createApplicationContext(SettingsProcessModule.forRoot(config), { logger: false });
    await Promise.all([a.init(), b.init()]);
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await db?.drop();
  });

  it('serves reads from the cache (a change behind its back is not seen)', async () => {
    expect(await limitSeenBy(b)()).toBe(100000);
    await b.get(DataSource).query(`UPDATE application_settings SET "values" = jsonb_set("values", '{default_projects_limit}', '5')`);
    expect(await limitSeenBy(b)()).toBe(100000);
    await b.get(DataSource).query(`UPDATE application_settings SET "values" = "values" - 'default_projects_limit'`);
  });

  it('shows a change made through one process in the other at once', async () => {
    expect(await limitSeenBy(a)()).toBe(100000);
    expect(await limitSeenBy(b)()).toBe(100000);

    await update(a, { default_projects_limit: 7 });
    // The writer sees its own change without waiting for the message.
    expect(await limitSeenBy(a)()).toBe(7);
    const elapsed = await waitFor(limitSeenBy(b), 7);
    expect(elapsed).toBeLessThan(2_000);

    await update(b, { default_projects_limit: 8 });
    expect(await limitSeenBy(b)()).toBe(8);
    await waitFor(limitSeenBy(a), 8);
  });

  it('announces nothing when nothing changed (and both keep their copies)', async () => {
    const before = await b.get(SettingsReader).get();
    const result = await update(a, { default_projects_limit: 8 });
    expect(result.changedKeys).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await b.get(SettingsReader).get()).toBe(before);
  });
});
