import Redis from 'ioredis';

/**
 * Deletes every key under `prefix` (a test's own `REDIS_PREFIX`) on the Redis at `url`: what a
 * FLUSHDB, or a restart without persistence, does to that test's service, without touching the
 * keys of the other test files sharing the machine's Redis. Resolves with the keys deleted.
 */
export async function deleteRedisKeys(url: string, prefix: string): Promise<string[]> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const deleted: string[] = [];
    const stream = redis.scanStream({ match: `${prefix}:*`, count: 1_000 });
    for await (const keys of stream as AsyncIterable<string[]>) {
      if (keys.length === 0) continue;
      await redis.unlink(...keys);
      deleted.push(...keys);
    }
    return deleted;
  } finally {
    redis.disconnect();
  }
}
