import { Inject, Injectable } from '@nestjs/common';
import { REDIS } from '@app/queue';
import type { Redis } from 'ioredis';
import { ReadinessCheck } from '../readiness';

/** States in which a command can be answered soon: a PING is worth sending. */
const ANSWERING_STATES = new Set(['ready', 'wait', 'connecting', 'connect']);

/** Redis answers PING on the shared connection. */
@Injectable()
export class RedisIndicator implements ReadinessCheck {
  readonly name = 'redis';
  private lastError?: string;

  constructor(@Inject(REDIS) private readonly redis: Redis) {
    redis.on('error', (error: Error) => {
      this.lastError = error.message;
    });
    redis.on('ready', () => {
      this.lastError = undefined;
    });
  }

  async check(): Promise<void> {
    // While ioredis is reconnecting, a PING would only wait in the offline queue (the
    // connection never gives up on a command): answer at once with the last cause instead.
    if (!ANSWERING_STATES.has(this.redis.status)) {
      throw new Error(`connection ${this.redis.status}${this.lastError ? `: ${this.lastError}` : ''}`);
    }
    // A first connection that fails leaves the PING queued: fail on the connection error instead.
    let onError: (error: Error) => void = () => undefined;
    const failed = new Promise<never>((_, reject) => {
      onError = reject;
      this.redis.once('error', onError);
    });
    try {
      const answer = await Promise.race([this.redis.ping(), failed]);
      if (answer !== 'PONG') throw new Error(`unexpected PING answer ${answer}`);
    } finally {
      this.redis.off('error', onError);
    }
  }
}
