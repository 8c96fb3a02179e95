/** Injection token of the shared ioredis connection (`@Inject(REDIS) redis: Redis`). */
export const REDIS = Symbol('REDIS');

/** Key under the configured prefix (`REDIS_PREFIX`), for keys written outside BullMQ: `redisKey(prefix, 'rate', ip)`. */
export const redisKey = (prefix: string, ...parts: Array<string | number>): string => [prefix, ...parts].filter((p) => p !== '').join(':');
