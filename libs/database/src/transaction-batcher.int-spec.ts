import { AppConfig } from '@app/config';
import { createTestDatabase } from '@app/testing';
import { DataSource } from 'typeorm';
import { createDataSource } from './data-source';
import { TransactionBatcher } from './transaction-batcher';

describe('TransactionBatcher', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('batcher');
    dataSource = await createDataSource(AppConfig.fromEnvironment({ DATABASE_URL: db.url }), []).initialize();
    await dataSource.query('CREATE TABLE batched (n int PRIMARY KEY, tx bigint NOT NULL)');
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('runs the items submitted meanwhile in shared transactions, each answered with its own result', async () => {
    let batches = 0;
    const batcher = new TransactionBatcher<number, number>(dataSource, {
      maxBatch: 4,
      around: async (_tx, batch) => {
        batches++;
        return batch();
      },
      run: async (tx, n) => {
        const [row] = (await tx.query('INSERT INTO batched (n, tx) VALUES ($1, txid_current()) RETURNING n * 10 AS out', [n])) as { out: number }[];
        return row.out;
      },
    });
    const results = await Promise.all(Array.from({ length: 9 }, (_, i) => batcher.submit(i + 1)));
    expect(results).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90]);
    // The first item runs alone (nobody waited), the eight that came meanwhile in two transactions of four.
    expect(batches).toBe(3);
    const transactions = (await dataSource.query('SELECT tx, count(*)::int AS n FROM batched GROUP BY tx ORDER BY min(n)')) as { n: number }[];
    expect(transactions.map((row) => row.n)).toEqual([1, 4, 4]);
  });

  it("keeps one item's failure its own: the others of its batch are committed in their own transactions", async () => {
    await dataSource.query('DELETE FROM batched');
    const batcher = new TransactionBatcher<number, number>(dataSource, {
      maxBatch: 8,
      run: async (tx, n) => {
        await tx.query('INSERT INTO batched (n, tx) VALUES ($1, txid_current())', [n]);
        if (n === 3) throw new Error('item 3 fails');
        return n;
      },
    });
    const outcomes = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => batcher.submit(n)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[2] as PromiseRejectedResult).reason).toEqual(new Error('item 3 fails'));
    expect((await dataSource.query('SELECT n FROM batched ORDER BY n')) as { n: number }[]).toEqual([{ n: 1 }, { n: 2 }, { n: 4 }, { n: 5 }]);
  });
});
