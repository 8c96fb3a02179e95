import { applyDecorators, CanActivate, ExecutionContext, Inject, Injectable, Logger, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AuthenticatedRequest } from '@app/api';
import { DomainError } from '@app/api';
import { AppConfig } from '@app/config';
import { REDIS, redisKey } from '@app/queue';
import type { Redis } from 'ioredis';
import { SettingsReader } from './settings-reader';

/** Settings that cap create requests per user and minute (0: no cap). */
export type CreateRateLimitSetting = 'issues_create_limit' | 'notes_create_limit';

const CREATE_RATE_LIMIT = 'settings:create-rate-limit';
const WINDOW_MS = 60_000;

/**
 * Per-user, per-minute cap on create requests, read from the application settings: a fixed
 * one-minute window counted in Redis (`<prefix>:rate:<setting>:<user>:<minute>`). Beyond the
 * cap: 429 with `Retry-After` (seconds to the next window). When Redis cannot be reached the
 * request is let through: a cap must not take creation down with it.
 */
@Injectable()
export class CreateRateLimiter {
  private readonly logger = new Logger(CreateRateLimiter.name);

  constructor(
    private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly settings: SettingsReader,
  ) {}

  async consume(setting: CreateRateLimitSetting, userId: number, now = Date.now()): Promise<void> {
    const limit = (await this.settings.get()).number(setting);
    if (limit <= 0) return;
    const window = Math.floor(now / WINDOW_MS);
    const key = redisKey(this.config.redis.prefix, 'rate', setting, userId, window);
    let count: number;
    try {
      const results = await this.redis.multi().incr(key).pexpire(key, 2 * WINDOW_MS).exec();
      count = Number(results?.[0]?.[1] ?? 0);
    } catch (error) {
      this.logger.warn(`rate limit ${setting} not checked: ${(error as Error).message}`);
      return;
    }
    if (count > limit) throw DomainError.rateLimited(Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
  }
}

/** Applies the cap of `CreateRateLimit` to the authenticated user of the request. */
@Injectable()
export class CreateRateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: CreateRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const setting = this.reflector.get<CreateRateLimitSetting | undefined>(CREATE_RATE_LIMIT, context.getHandler());
    const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
    if (setting && principal) await this.limiter.consume(setting, principal.user.id);
    return true;
  }
}

/** `@CreateRateLimit('issues_create_limit')` on a create route: at most that many per user and minute. */
export const CreateRateLimit = (setting: CreateRateLimitSetting): MethodDecorator =>
  applyDecorators(SetMetadata(CREATE_RATE_LIMIT, setting), UseGuards(CreateRateLimitGuard));
