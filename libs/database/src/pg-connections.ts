import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * The `application_name` of every PostgreSQL connection of the service: the pool's connections
 * carry it as it is, each dedicated connection with a suffix (`service-api-outbox-relay`, …), so
 * `pg_stat_activity` tells them apart (and tests count them).
 */
export const SERVICE_APPLICATION_NAME = 'service-api';

/** The pool's size per data source (per process, per app of `npm start`). */
export const POOL_MAX_CONNECTIONS = 20;

/** SQLSTATE classes and codes of a connection that is gone (not of the statement). */
const CONNECTION_LOST_CODES = new Set(['57P01', '57P02', '57P03', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);
const CONNECTION_LOST_MESSAGES = /^(Connection terminated|Client has encountered a connection error|Client was closed|Connection ended)/;

/**
 * True when `error` says the PostgreSQL connection was cut (the backend was terminated, the
 * server restarted or failed over, the socket broke) rather than that a statement failed. Work
 * that had not committed when its connection was cut can run again on another connection.
 */
export function isConnectionLost(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; driverError?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.driverError && e.driverError !== error && isConnectionLost(e.driverError)) return true;
  const code = typeof e.code === 'string' ? e.code : '';
  if (CONNECTION_LOST_CODES.has(code) || code.startsWith('08')) return true;
  return typeof e.message === 'string' && CONNECTION_LOST_MESSAGES.test(e.message);
}

/** A node-postgres client as the pool hands it out. */
interface PoolClientLike {
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

const logger = new Logger('Database');

/**
 * A connection taken from the data source's pool for use without the ORM (a COPY stream, the
 * alert batch's statements), and its release. pg-pool listens for `error` only on idle
 * clients: a checked-out client whose backend is terminated emits `error` with nobody
 * listening, which ends the process. This listens for it while the connection is held (the
 * statement in flight fails by itself), and `release` hands a connection that failed so back
 * as broken, so the pool discards it rather than lending it again. Pass `release` the error of
 * any failure after which the connection's state is unknown.
 */
export async function takePoolConnection<C>(dataSource: DataSource): Promise<[C, (error?: unknown) => void]> {
  const [client, release] = (await (dataSource.driver as PostgresDriver).obtainMasterConnection()) as [C & PoolClientLike, (error?: unknown) => void];
  let cut: Error | undefined;
  const onError = (error: Error) => {
    if (cut === undefined) logger.warn(`a held PostgreSQL connection was cut: ${error.message}`);
    cut ??= error;
  };
  client.on('error', onError);
  let released = false;
  return [
    client,
    (error?: unknown) => {
      if (released) return;
      released = true;
      client.removeListener('error', onError);
      const broken = error ?? cut;
      release(broken === undefined ? undefined : broken instanceof Error ? broken : new Error(String(broken)));
    },
  ];
}

/**
 * Every connection the pool opens (pg-pool's `onConnect`) listens for `error` for as long as it
 * lives. pg-pool listens only while a connection is idle, and a holder (a TypeORM query runner,
 * `takePoolConnection`, `pool.query`) only while it holds one, with windows between them (a
 * runner gives its listener up before the pool takes the connection back, a cut can come between
 * two holders' statements): an `error` event nobody listens to ends the process. The statement in
 * flight fails by itself, and a connection that is no longer queryable is dropped by the pool
 * when it is handed back; this listener only keeps the event from reaching the process.
 */
export function listenForConnectionErrors(client: { on(event: 'error', listener: (error: Error) => void): unknown }): void {
  let seen = false;
  client.on('error', (error: Error) => {
    if (!seen) logger.debug(`a PostgreSQL connection was cut: ${error.message}`);
    seen = true;
  });
}

/**
 * The pool's `error` event: an idle connection was cut (the server restarted, its backend was
 * terminated). pg-pool has already dropped it; the next query opens a new one. Logged, never
 * thrown (an `error` event nobody listens to ends the process).
 */
export function onIdleConnectionError(error: Error): void {
  logger.warn(`an idle PostgreSQL connection of the pool was cut (the pool replaces it): ${error.message}`);
}
