import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { Redis } from 'ioredis';
import { FixedWindowRateLimiter } from './fixed-window.rate-limiter';
import { REDIS } from './redis.constants';

/** How long a graceful QUIT may take before the socket is simply closed. */
const QUIT_TIMEOUT_MS = 2_000;

/**
 * The shared ioredis connection for everything that is not a BullMQ queue (rate limits,
 * settings-cache invalidation, health). `lazyConnect`: nothing connects until the first
 * command, so booting does not fail while Redis is away; commands wait in the offline
 * queue and ioredis reconnects with backoff. `maxRetriesPerRequest: null` keeps it usable
 * by BullMQ workers too. Keys must carry `config.redis.prefix` (see `redisKey`); the
 * connection sets no `keyPrefix` because BullMQ does not support one. Subscribers need
 * their own connection: `redis.duplicate()`.
 */
export function createRedisConnection(url: string): Redis {
  const logger = new Logger('Redis');
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    connectionName: 'service-api',
    // Closing while reconnecting leaves ioredis waiting this long on a socket that is already
    // gone (default 2 s), which holds the process open at shutdown.
    disconnectTimeout: 500,
  });
  let lastError: string | undefined;
  redis.on('error', (error: Error) => {
    // ioredis emits one error per failed reconnection attempt: log each distinct cause once.
    if (error.message !== lastError) logger.warn(`connection error: ${error.message}`);
    lastError = error.message;
  });
  redis.on('ready', () => {
    if (lastError) logger.log('connection restored');
    lastError = undefined;
  });
  return redis;
}

/** Closes `redis` and waits until it has ended: QUIT when connected (bounded in time), otherwise drops the socket. */
export async function closeRedisConnection(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') {
    // ioredis may not emit `end` when closed while reconnecting: do not wait for it then.
    redis.disconnect();
    return;
  }
  const ended = new Promise<void>((resolve) => redis.once('end', () => resolve()));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      redis.disconnect();
      resolve();
    }, QUIT_TIMEOUT_MS);
  });
  try {
    await Promise.race([
      redis.quit().then(
        () => ended,
        () => redis.disconnect(),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Provides the shared ioredis connection under `REDIS`, closed on shutdown. */
@Global()
@Module({
  providers: [
    { provide: REDIS, inject: [AppConfig], useFactory: (config: AppConfig): Redis => createRedisConnection(config.redis.url) },
    FixedWindowRateLimiter,
  ],
  exports: [REDIS, FixedWindowRateLimiter],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await closeRedisConnection(this.redis);
  }
}
