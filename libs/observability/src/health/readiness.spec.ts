import { ReadinessCheck, runReadinessChecks, withTimeout } from './readiness';

const check = (name: string, run: () => Promise<void>): ReadinessCheck => ({ name, check: run });
const after = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe(runReadinessChecks.name, () => {
  it('is ok when every check resolves', async () => {
    await expect(runReadinessChecks([check('postgres', async () => {}), check('redis', async () => {})])).resolves.toEqual({
      status: 'ok',
      checks: { postgres: { status: 'up' }, redis: { status: 'up' } },
    });
  });

  it('fails naming the check that rejected and why', async () => {
    const report = await runReadinessChecks([
      check('postgres', async () => {}),
      check('redis', async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:1');
      }),
    ]);
    expect(report).toEqual({
      status: 'failed',
      checks: { postgres: { status: 'up' }, redis: { status: 'down', error: 'connect ECONNREFUSED 127.0.0.1:1' } },
    });
  });

  it('is degraded, not failed, when only optional checks are away', async () => {
    const kafka: ReadinessCheck = { name: 'kafka', optional: true, check: async () => Promise.reject(new Error('broker gone')) };
    await expect(runReadinessChecks([check('postgres', async () => {}), kafka])).resolves.toEqual({
      status: 'degraded',
      checks: { postgres: { status: 'up' }, kafka: { status: 'degraded', error: 'broker gone' } },
    });
    // A required one down as well: failed.
    const redis = check('redis', async () => Promise.reject(new Error('refused')));
    await expect(runReadinessChecks([redis, kafka])).resolves.toMatchObject({
      status: 'failed',
      checks: { redis: { status: 'down' }, kafka: { status: 'degraded' } },
    });
  });

  it('counts a check that throws synchronously as down', async () => {
    const throwing: ReadinessCheck = {
      name: 'kafka',
      check: () => {
        throw new Error('not configured');
      },
    };
    await expect(runReadinessChecks([throwing])).resolves.toEqual({ status: 'failed', checks: { kafka: { status: 'down', error: 'not configured' } } });
  });

  it('counts a check that does not answer in time as down, without waiting for it', async () => {
    const started = Date.now();
    const report = await runReadinessChecks([check('kafka', () => new Promise<void>(() => {})), check('redis', async () => {})], 50);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(report.checks.kafka).toEqual({ status: 'down', error: 'no answer within 50 ms' });
    expect(report.checks.redis).toEqual({ status: 'up' });
  });

  it('runs the checks in parallel', async () => {
    const started = Date.now();
    await runReadinessChecks([check('a', () => after(150)), check('b', () => after(150)), check('c', () => after(150))], 1_000);
    expect(Date.now() - started).toBeLessThan(400);
  });

  it('reports the first cause of an aggregate error', async () => {
    const report = await runReadinessChecks([
      check('postgres', async () => {
        throw new AggregateError([new Error('connect ECONNREFUSED ::1:5432')], '');
      }),
    ]);
    expect(report.checks.postgres).toEqual({ status: 'down', error: 'connect ECONNREFUSED ::1:5432' });
  });
});

describe(withTimeout.name, () => {
  it('resolves with the value of a promise that settles in time', async () => {
    await expect(withTimeout(Promise.resolve(42), 100)).resolves.toBe(42);
  });
});
