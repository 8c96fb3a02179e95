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

  it('gives up a shared transaction that waits on a lock, so that only the item that needs the row waits', async () => {
    await dataSource.query('CREATE TABLE locked_rows (n int PRIMARY KEY, v int NOT NULL DEFAULT 0)');
    await dataSource.query('INSERT INTO locked_rows (n) VALUES (1), (2), (3), (4)');
    const holder = dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await holder.query('SELECT * FROM locked_rows WHERE n = 2 FOR UPDATE');
    try {
      const batcher = new TransactionBatcher<number, number>(dataSource, {
        maxBatch: 8,
        batchLockTimeoutMs: 300,
        run: async (tx, n) => {
          await tx.query('UPDATE locked_rows SET v = v + 1 WHERE n = $1', [n]);
          return n;
        },
      });
      const first = batcher.submit(1);
      const [two, three, four] = [2, 3, 4].map((n) => batcher.submit(n));
      // 3 and 4 shared a transaction with 2: once it gave up, they ran apart, while 2 still waits.
      expect(await Promise.all([first, three, four])).toEqual([1, 3, 4]);
      let twoDone = false;
      void two.then(() => (twoDone = true));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(twoDone).toBe(false);
      await holder.commitTransaction();
      expect(await two).toBe(2);
      expect(await dataSource.query('SELECT n, v FROM locked_rows ORDER BY n')).toEqual([1, 2, 3, 4].map((n) => ({ n, v: 1 })));
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
  });
});
