import { computeBackoff, DEFAULT_BACKOFF } from './backoff';

describe(computeBackoff.name, () => {
  const noJitter = { initialMs: 100, maxMs: 5_000, factor: 2, jitter: 0 };

  it('doubles from the initial delay on every attempt', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => computeBackoff(attempt, noJitter))).toEqual([100, 200, 400, 800, 1600, 3200]);
  });

  it('never exceeds the cap, even for huge attempt counts', () => {
    expect(computeBackoff(7, noJitter)).toBe(5_000);
    expect(computeBackoff(50, noJitter)).toBe(5_000);
    expect(computeBackoff(10_000, noJitter)).toBe(5_000);
  });

  it('treats attempts below 1 as the first attempt', () => {
    expect(computeBackoff(0, noJitter)).toBe(100);
    expect(computeBackoff(-3, noJitter)).toBe(100);
  });

  it('removes at most the jitter fraction of the delay', () => {
    const options = { ...noJitter, jitter: 0.5 };
    expect(computeBackoff(3, options, () => 0)).toBe(400);
    expect(computeBackoff(3, options, () => 0.5)).toBe(300);
    expect(computeBackoff(3, options, () => 0.999999)).toBe(200);
  });

  it('uses a 100 ms to 5 s range with some jitter by default', () => {
    const first = computeBackoff(1);
    expect(first).toBeGreaterThanOrEqual(100 * (1 - DEFAULT_BACKOFF.jitter));
    expect(first).toBeLessThanOrEqual(100);
    expect(computeBackoff(100)).toBeLessThanOrEqual(5_000);
    expect(computeBackoff(100)).toBeGreaterThanOrEqual(5_000 * (1 - DEFAULT_BACKOFF.jitter));
  });

  it('honours a custom growth factor', () => {
    expect(computeBackoff(3, { initialMs: 10, maxMs: 1_000, factor: 3, jitter: 0 })).toBe(90);
  });
});
