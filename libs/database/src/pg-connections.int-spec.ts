import { AppConfig } from '@app/config';
import { createTestDatabase, eventually } from '@app/testing';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { createDataSource } from './data-source';
import { isConnectionLost, SERVICE_APPLICATION_NAME, takePoolConnection } from './pg-connections';

interface Queryable {
  query(text: string): Promise<{ rows: Array<Record<string, unknown>> }>;
}

describe('pool connections cut by the server', () => {
  let db: { url: string; drop: () => Promise<void> };
  let dataSource: DataSource;
  const pool = () => (dataSource.driver as PostgresDriver).master as Pool;
  /** Terminates the backends of the data source's pool (what a restart or failover does). */
  const terminatePool = async (): Promise<number> => {
    const [client, release] = await takePoolConnection<Queryable>(dataSource);
    try {
      const { rows } = await client.query(
        `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE datname = current_database() AND application_name = '${SERVICE_APPLICATION_NAME}' AND pid <> pg_backend_pid()`,
      );
      return rows.length;
    } finally {
      release();
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase('pg_connections');
    dataSource = await createDataSource(AppConfig.fromEnvironment({ DATABASE_URL: db.url }), []).initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('fails the statement of a held connection whose backend is terminated, not the process, and discards that connection', async () => {
    const [held, release] = await takePoolConnection<Queryable>(dataSource);
    const sleeping = held.query('SELECT pg_sleep(30)');
    await expect(terminatePool()).resolves.toBe(1);
    const error = await sleeping.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeDefined();
    expect(isConnectionLost(error)).toBe(true);
    const before = pool().totalCount;
    release(error);
    // Handed back as broken: the pool dropped it rather than lending it again.
    expect(pool().totalCount).toBe(before - 1);
    await expect(dataSource.query('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
  });

  it('keeps the process up when a connection checked out with no listener of its own is cut', async () => {
    // pg-pool's own API: the client is lent with no `error` listener of the pool's or the caller's.
    const client = await pool().connect();
    await client.query('SELECT 1');
    const exits: unknown[] = [];
    const onUncaught = (error: unknown) => exits.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      await expect(terminatePool()).resolves.toBe(1);
      // The server's FATAL message reaches the client as an `error` event: heard, not thrown.
      await eventually(
        async () =>
          (await client.query('SELECT 1').then(
            () => undefined,
            (e: unknown) => e,
          )) ?? undefined,
        'the cut to reach the client',
      );
      expect(exits).toEqual([]);
    } finally {
      process.removeListener('uncaughtException', onUncaught);
      client.release(new Error('cut'));
    }
  });

  it('survives idle connections cut in the pool, and answers on new ones', async () => {
    // Three idle connections in the pool.
    const taken = await Promise.all([1, 2, 3].map(() => takePoolConnection<Queryable>(dataSource)));
    for (const [, release] of taken) release();
    expect(pool().idleCount).toBeGreaterThanOrEqual(3);
    await expect(terminatePool()).resolves.toBeGreaterThanOrEqual(2);
    // Each cut idle connection's `error` reached the pool's handler (not the process): dropped.
    await eventually(() => (pool().totalCount === 1 ? true : undefined), 'the cut idle connections to leave the pool');
    await expect(dataSource.query('SELECT 2 AS two')).resolves.toEqual([{ two: 2 }]);
  });

  it('tells a cut connection from a failed statement', async () => {
    expect(isConnectionLost(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLost({ driverError: { code: '08006' } })).toBe(true);
    expect(isConnectionLost(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isConnectionLost(Object.assign(new Error('deadlock'), { code: '40P01' }))).toBe(false);
    expect(isConnectionLost(undefined)).toBe(false);
  });
});
