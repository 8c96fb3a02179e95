import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { REDIS, redisKey } from '@app/queue';
import { SettingsReader } from '@app/settings';
import type Redis from 'ioredis';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { digestToken } from '../tokens/token-digest';

export interface WebSession {
  userId: number;
  csrfToken: string;
  createdAt: string;
}

/**
 * Web sessions behind the `_service_session` cookie, kept in Redis under the digest of the
 * cookie value, expiring after `session_expire_delay` minutes.
 */
@Injectable()
export class SessionStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: AppConfig,
    private readonly settings: SettingsReader,
  ) {}

  async create(userId: number): Promise<{ cookie: string; session: WebSession; maxAgeSeconds: number }> {
    const cookie = randomBytes(32).toString('base64url');
    const session: WebSession = { userId, csrfToken: randomBytes(32).toString('base64url'), createdAt: new Date().toISOString() };
    // `session_expire_delay` (minutes; SESSION_EXPIRE_DELAY until an administrator sets it).
    const maxAgeSeconds = (await this.settings.get()).number('session_expire_delay') * 60;
    await this.redis.set(this.key(cookie), JSON.stringify(session), 'EX', maxAgeSeconds);
    return { cookie, session, maxAgeSeconds };
  }

  async find(cookie: string): Promise<WebSession | null> {
    const raw = await this.redis.get(this.key(cookie));
    if (!raw) return null;
    try {
      return JSON.parse(raw) as WebSession;
    } catch {
      return null;
    }
  }

  async destroy(cookie: string): Promise<void> {
    await this.redis.del(this.key(cookie));
  }

  /** Constant-time comparison of a presented CSRF token with the session's. */
  static csrfMatches(session: WebSession, presented: string | undefined): boolean {
    if (!presented) return false;
    const a = Buffer.from(session.csrfToken);
    const b = Buffer.from(presented);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  private key(cookie: string): string {
    return redisKey(this.config.redis.prefix, 'session', digestToken(cookie));
  }
}
