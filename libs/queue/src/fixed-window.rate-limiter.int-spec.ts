import 'reflect-metadata';
import { AppConfig } from '@app/config';
import { randomBytes } from 'node:crypto';
import { FixedWindowRateLimiter } from './fixed-window.rate-limiter';
import { closeRedisConnection, createRedisConnection } from './redis.module';

describe(FixedWindowRateLimiter.name, () => {
  const prefix = `rate-it-${randomBytes(4).toString('hex')}`;
  const config = AppConfig.fromEnvironment({ REDIS_PREFIX: prefix });
  const redis = createRedisConnection(config.redis.url);
  const limiter = new FixedWindowRateLimiter(config, redis);

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await closeRedisConnection(redis);
  });

  it('allows `limit` requests per window and subject, then refuses until the window ends', async () => {
    const now = 1_000 * 60 * 1_000_000 + 45_500; // 45.5 s into a minute window
    const verdicts = [];
    for (let i = 0; i < 3; i++) verdicts.push(await limiter.hit(['t', 'user', 1], 2, 60, now));
    expect(verdicts.map((v) => [v.allowed, v.count])).toEqual([
      [true, 1],
      [true, 2],
      [false, 3],
    ]);
    expect(verdicts[2]!.retryAfterSeconds).toBe(15);
    // Another subject has its own count; the next window starts afresh.
    await expect(limiter.hit(['t', 'user', 2], 2, 60, now)).resolves.toMatchObject({ allowed: true, count: 1 });
    await expect(limiter.hit(['t', 'user', 1], 2, 60, now + 15_000)).resolves.toMatchObject({ allowed: true, count: 1, retryAfterSeconds: 60 });
  });

  it('counts under the configured prefix, in a key that expires after its window', async () => {
    const now = Date.now();
    await limiter.hit(['t', 'ttl'], 5, 30, now);
    const key = `${prefix}:t:ttl:${Math.floor(now / 30_000)}`;
    await expect(redis.get(key)).resolves.toBe('1');
    const ttl = await redis.ttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(31);
  });
});
