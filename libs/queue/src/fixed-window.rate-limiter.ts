import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import type { Redis } from 'ioredis';
import { REDIS, redisKey } from './redis.constants';

/** The outcome of one counted request. */
export interface RateLimitVerdict {
  /** False beyond the limit: answer 429 with `Retry-After: retryAfterSeconds`. */
  allowed: boolean;
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Whole seconds until the current window ends (at least 1). */
  retryAfterSeconds: number;
}

/** The window a time falls in, and the whole seconds left in it (`now` in ms). */
export function fixedWindowOf(now: number, windowSeconds: number): { index: number; retryAfterSeconds: number } {
  const windowMs = windowSeconds * 1000;
  const index = Math.floor(now / windowMs);
  return { index, retryAfterSeconds: Math.ceil(((index + 1) * windowMs - now) / 1000) };
}

/**
 * The one fixed-window rate limiter: at most `limit` requests per `windowSeconds` for one
 * subject, counted in Redis (`<prefix>:<subject...>:<window index>`, expiring after the
 * window), shared by every replica. Windows are aligned on the epoch, so every replica agrees
 * on when one ends. A Redis failure is thrown: each caller decides whether the request passes
 * (create limits) or fails (the alert notify limit).
 */
@Injectable()
export class FixedWindowRateLimiter {
  constructor(
    private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** Counts one request of `subject` (key parts, e.g. `['rate', 'issues_create_limit', userId]`). */
  async hit(subject: ReadonlyArray<string | number>, limit: number, windowSeconds: number, now = Date.now()): Promise<RateLimitVerdict> {
    const window = fixedWindowOf(now, windowSeconds);
    const key = redisKey(this.config.redis.prefix, ...subject, window.index);
    const replies = await this.redis
      .multi()
      .incr(key)
      .expire(key, windowSeconds + 1)
      .exec();
    const [error, count] = (replies?.[0] ?? [null, 0]) as [Error | null, number];
    if (error) throw error;
    return { allowed: Number(count) <= limit, count: Number(count), retryAfterSeconds: window.retryAfterSeconds };
  }
}
