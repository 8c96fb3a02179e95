import { retryTransaction } from './transaction-retry';

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });

describe(retryTransaction.name, () => {
  it('re-runs after a deadlock or serialization failure and returns the first success', async () => {
    const failures = [pgError('40P01'), pgError('40001')];
    let calls = 0;
    const result = await retryTransaction(async () => {
      calls += 1;
      const failure = failures.shift();
      if (failure) throw failure;
      return 'done';
    });
    expect(result).toBe('done');
    expect(calls).toBe(3);
  });

  it('recognises the code on a TypeORM QueryFailedError (driverError)', async () => {
    let calls = 0;
    await retryTransaction(async () => {
      calls += 1;
      if (calls === 1) throw Object.assign(new Error('query failed'), { driverError: { code: '40P01' } });
    });
    expect(calls).toBe(2);
  });

  it('gives up after the last attempt and never retries other errors', async () => {
    let calls = 0;
    await expect(
      retryTransaction(async () => {
        calls += 1;
        throw pgError('40P01');
      }, 3),
    ).rejects.toThrow('pg 40P01');
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      retryTransaction(async () => {
        calls += 1;
        throw pgError('23505');
      }),
    ).rejects.toThrow('pg 23505');
    expect(calls).toBe(1);
  });
});
