import { AppConfig } from '@app/config';
import { DataSource, DataSourceOptions, EntitySchema } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { listenForConnectionErrors, onIdleConnectionError, POOL_MAX_CONNECTIONS, SERVICE_APPLICATION_NAME } from './pg-connections';

/** The entity classes of a data source: the apps (the composition root) pass theirs; this library names none. */
export type EntityList = ReadonlyArray<Function | EntitySchema>;

/** The one data source definition shared by the apps, the migration CLI and the tests. */
export function dataSourceOptions(url: string, entities: EntityList): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [...entities],
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    // JIT compilation only pays off for long analytic queries; on this API's short queries its
    // start-up cost (over 100 ms seen on event list pages) is pure latency.
    // Every connection listens for `error` for its whole life (`listenForConnectionErrors`).
    extra: { max: POOL_MAX_CONNECTIONS, application_name: SERVICE_APPLICATION_NAME, options: '-c jit=off', onConnect: listenForConnectionErrors },
    // An idle connection cut by the server (restart, failover, terminated backend) is logged and
    // replaced on next use; in-use ones are the holder's (TypeORM's query runners, `takePoolConnection`).
    poolErrorHandler: onIdleConnectionError,
  };
}

export const createDataSource = (config: AppConfig, entities: EntityList): DataSource => new DataSource(dataSourceOptions(config.database.url, entities));
