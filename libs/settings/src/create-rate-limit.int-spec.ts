import 'reflect-metadata';
import { CanActivate, Controller, DynamicModule, ExecutionContext, HttpCode, Injectable, Module, Post } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { configureHttpApp, createFastifyAdapter } from '@app/api';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { MessagingModule } from '@app/messaging';
import { RedisModule } from '@app/queue';
import { createTestDatabase } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { CreateRateLimit, CreateRateLimiter } from './create-rate-limit';
import { SettingsModule } from './settings.module';
import { UpdateApplicationSettingsUseCase } from './use-cases/update-application-settings.use-case';
import { ENTITIES } from '@apps/entities';

/** Stands in for the API's AuthGuard: the user id comes from a header. */
@Injectable()
class HeaderPrincipalGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string>; principal?: unknown }>();
    const id = Number(request.headers['x-user-id']);
    request.principal = id ? { user: { id, isAdmin: false }, credential: 'personal', scopes: ['api'], tokenId: null } : null;
    return true;
  }
}

@Controller()
class ThingsController {
  @Post('things')
  @HttpCode(201)
  @CreateRateLimit('issues_create_limit')
  create(): { ok: true } {
    return { ok: true };
  }
}

@Module({})
class RateLimitTestModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: RateLimitTestModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(ENTITIES), RedisModule, MessagingModule.forRoot({ relay: false }), SettingsModule],
      controllers: [ThingsController],
      providers: [{ provide: APP_GUARD, useClass: HeaderPrincipalGuard }],
    };
  }
}

describe('Create rate limits from the application settings', () => {
  let db: { url: string; drop: () => Promise<void> };
  let app: NestFastifyApplication;
  let baseUrl: string;

  const create = (userId: number) => fetch(`${baseUrl}/api/v4/things`, { method: 'POST', headers: { 'x-user-id': String(userId) } });

  beforeAll(async () => {
    db = await createTestDatabase('rate_limit');
    const prefix = `t${randomBytes(4).toString('hex')}`;
    const config = AppConfig.fromEnvironment({ DATABASE_URL: db.url, REDIS_PREFIX: prefix, KAFKA_TOPIC_PREFIX: prefix, LOG_LEVEL: 'silent' });
    app = await NestFactory.create<NestFastifyApplication>(RateLimitTestModule.forRoot(config), createFastifyAdapter(config), { logger: false });
    configureHttpApp(app, config);
    await app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('answers 429 with Retry-After beyond issues_create_limit per user and minute, and 0 lifts the cap', async () => {
    await app.get(UpdateApplicationSettingsUseCase).execute({ params: { issues_create_limit: 2 }, actorId: 1 });
    // Stay clear of a minute boundary, where the window starts afresh.
    const secondOfMinute = new Date().getSeconds();
    if (secondOfMinute > 55) await new Promise((resolve) => setTimeout(resolve, (61 - secondOfMinute) * 1000));

    expect((await create(1)).status).toBe(201);
    expect((await create(1)).status).toBe(201);
    const limited = await create(1);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ message: 'Retry later' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Per user: another user still creates.
    expect((await create(2)).status).toBe(201);

    await app.get(UpdateApplicationSettingsUseCase).execute({ params: { issues_create_limit: 0 }, actorId: 1 });
    expect((await create(1)).status).toBe(201);
  });

  it('counts in fixed one-minute windows', async () => {
    await app.get(UpdateApplicationSettingsUseCase).execute({ params: { issues_create_limit: 1 }, actorId: 1 });
    const limiter = app.get(CreateRateLimiter);
    const start = Math.floor(Date.now() / 60_000) * 60_000 + 120_000;
    await expect(limiter.consume('issues_create_limit', 7, start + 1_000)).resolves.toBeUndefined();
    await expect(limiter.consume('issues_create_limit', 7, start + 50_000)).rejects.toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 10 } });
    await expect(limiter.consume('issues_create_limit', 7, start + 60_000)).resolves.toBeUndefined();
  });
});
