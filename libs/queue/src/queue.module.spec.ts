import { REDIS_RECONNECT_MAX_DELAY_MS, redisReconnectDelay } from './queue.module';

describe('redisReconnectDelay', () => {
  it('reconnects quickly at first and never waits longer than the cap', () => {
    expect(redisReconnectDelay(1)).toBe(100);
    expect(redisReconnectDelay(3)).toBe(300);
    for (const attempt of [10, 20, 50, 1_000]) expect(redisReconnectDelay(attempt)).toBe(REDIS_RECONNECT_MAX_DELAY_MS);
    expect(REDIS_RECONNECT_MAX_DELAY_MS).toBeLessThanOrEqual(1_000);
  });
});
