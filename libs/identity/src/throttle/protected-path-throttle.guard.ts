import { applyDecorators, CanActivate, ExecutionContext, Injectable, Logger, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '@app/api';
import { FixedWindowRateLimiter, RateLimitVerdict } from '@app/queue';
import { SettingsReader } from '@app/settings';
import type { FastifyRequest } from 'fastify';

const PROTECTED_PATH = 'identity:protected-path';

/** Which requests of a protected route count (all of them when absent). */
export type ProtectedPathFilter = (request: FastifyRequest) => boolean;

/** Longest wait for Redis: past it the request is let through (a throttle must not take sign-in down). */
const REDIS_WAIT_MS = 1_000;

/**
 * GitLab's protected paths throttle (Rack::Attack `throttle_unauthenticated_protected_paths`):
 * at most `throttle_protected_paths_requests_per_period` (10) requests per client IP and
 * `throttle_protected_paths_period_in_seconds` (60) to a protected path, counted before the
 * request is looked at, so right and wrong passwords alike; beyond: 429 `Retry later` with
 * `Retry-After` (seconds to the end of the window). Counted in Redis (fixed window, key
 * `<prefix>:throttle:protected_paths:<ip>:<window>`): a throttle is a cache, so when Redis fails
 * or does not answer within a second the request passes.
 */
@Injectable()
export class ProtectedPathThrottleGuard implements CanActivate {
  private readonly logger = new Logger(ProtectedPathThrottleGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: FixedWindowRateLimiter,
    private readonly settings: SettingsReader,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const filter = this.reflector.get<ProtectedPathFilter | true | undefined>(PROTECTED_PATH, context.getHandler());
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!filter || (filter !== true && !filter(request))) return true;
    const settings = await this.settings.get();
    if (!settings.boolean('throttle_protected_paths_enabled')) return true;
    const limit = settings.number('throttle_protected_paths_requests_per_period');
    const period = settings.number('throttle_protected_paths_period_in_seconds');
    const verdict = await this.hit(request.ip, limit, period);
    if (verdict && !verdict.allowed) throw DomainError.rateLimited(verdict.retryAfterSeconds);
    return true;
  }

  private async hit(ip: string, limit: number, period: number): Promise<RateLimitVerdict | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from Redis within ${REDIS_WAIT_MS} ms`)), REDIS_WAIT_MS);
    });
    const counted = this.limiter.hit(['throttle', 'protected_paths', ip], limit, period);
    try {
      return await Promise.race([counted, timeout]);
    } catch (error) {
      counted.catch(() => undefined);
      this.logger.warn(`protected path throttle not checked: ${(error as Error).message}`);
      return null;
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Marks a route as a protected path (GitLab's `protected_paths`): its POST requests are throttled
 * per client IP. `filter` narrows which requests count (e.g. only the OAuth password grant).
 */
export const ProtectedPath = (filter?: ProtectedPathFilter): MethodDecorator =>
  applyDecorators(SetMetadata(PROTECTED_PATH, filter ?? true), UseGuards(ProtectedPathThrottleGuard));
