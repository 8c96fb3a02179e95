import { AppConfig } from '@app/config';
import { createTestDatabase } from '@app/testing';
import { DataSource } from 'typeorm';
import { createDataSource } from './data-source';
import { queryPrepared } from './prepared-query';

describe('queryPrepared', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  const statement = { name: 'test_prepared_add_v1', text: 'SELECT $1::int + 1 AS n' };
  const prepared = (manager = dataSource.manager) =>
    manager.query(`SELECT name FROM pg_prepared_statements WHERE name = $1`, [statement.name]) as Promise<unknown[]>;

  beforeAll(async () => {
    db = await createTestDatabase('prepared');
    dataSource = await createDataSource(AppConfig.fromEnvironment({ DATABASE_URL: db.url }), []).initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it("runs on the transaction's connection, prepared there once and reused", async () => {
    await dataSource.transaction(async (tx) => {
      expect(await prepared(tx)).toEqual([]);
      expect(await queryPrepared(tx, statement, [1])).toEqual([{ n: 2 }]);
      expect(await prepared(tx)).toEqual([{ name: statement.name }]);
      expect(await queryPrepared(tx, statement, [41])).toEqual([{ n: 42 }]);
    });
  });

  it("is rolled back with the transaction's other statements", async () => {
    await dataSource.query('CREATE TABLE prepared_rows (n int)');
    const insert = { name: 'test_prepared_insert_v1', text: 'INSERT INTO prepared_rows (n) VALUES ($1) RETURNING n' };
    await expect(
      dataSource.transaction(async (tx) => {
        expect(await queryPrepared(tx, insert, [7])).toEqual([{ n: 7 }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await dataSource.query('SELECT count(*)::int AS n FROM prepared_rows')).toEqual([{ n: 0 }]);
  });

  it('runs on a pooled connection without a transaction', async () => {
    expect(await queryPrepared(dataSource.manager, statement, [9])).toEqual([{ n: 10 }]);
    expect(await queryPrepared(dataSource.manager, statement, [10])).toEqual([{ n: 11 }]);
  });
});
