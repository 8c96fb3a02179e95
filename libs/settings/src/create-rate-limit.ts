import { applyDecorators, CanActivate, ExecutionContext, Injectable, Logger, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AuthenticatedRequest } from '@app/api';
import { DomainError } from '@app/api';
import { FixedWindowRateLimiter, RateLimitVerdict } from '@app/queue';
import { SettingsReader } from './core/settings-reader';

/** Settings that cap create requests per user and minute (0: no cap). */
export type CreateRateLimitSetting = 'issues_create_limit' | 'notes_create_limit';

/** The setting listing the usernames a cap does not apply to (GitLab's `users_allowlist`). */
const ALLOWLISTS: Partial<Record<CreateRateLimitSetting, 'notes_create_limit_allowlist'>> = { notes_create_limit: 'notes_create_limit_allowlist' };

const CREATE_RATE_LIMIT = 'settings:create-rate-limit';
const WINDOW_SECONDS = 60;

/**
 * Per-user, per-minute cap on create requests, read from the application settings: a fixed
 * one-minute window (`FixedWindowRateLimiter`, key `<prefix>:rate:<setting>:<user>:<minute>`). Beyond the
 * cap: 429 with `Retry-After` (seconds to the next window). When Redis cannot be reached the
 * request is let through: a cap must not take creation down with it.
 */
@Injectable()
export class CreateRateLimiter {
  private readonly logger = new Logger(CreateRateLimiter.name);

  constructor(
    private readonly limiter: FixedWindowRateLimiter,
    private readonly settings: SettingsReader,
  ) {}

  async consume(setting: CreateRateLimitSetting, userId: number, now = Date.now(), username?: string): Promise<void> {
    const settings = await this.settings.get();
    const limit = settings.number(setting);
    if (limit <= 0) return;
    const allowlist = ALLOWLISTS[setting];
    if (allowlist && username !== undefined && settings.strings(allowlist).some((name) => name.toLowerCase() === username.toLowerCase())) return;
    let verdict: RateLimitVerdict;
    try {
      verdict = await this.limiter.hit(['rate', setting, userId], limit, WINDOW_SECONDS, now);
    } catch (error) {
      this.logger.warn(`rate limit ${setting} not checked: ${(error as Error).message}`);
      return;
    }
    if (!verdict.allowed) throw DomainError.rateLimited(verdict.retryAfterSeconds);
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
    if (setting && principal) await this.limiter.consume(setting, principal.user.id, Date.now(), principal.user.username);
    return true;
  }
}

/** `@CreateRateLimit('issues_create_limit')` on a create route: at most that many per user and minute. */
export const CreateRateLimit = (setting: CreateRateLimitSetting): MethodDecorator =>
  applyDecorators(SetMetadata(CREATE_RATE_LIMIT, setting), UseGuards(CreateRateLimitGuard));
