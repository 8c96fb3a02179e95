import { AppConfig } from '@app/config';
import { DataSource, DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** The one data source definition shared by the apps, the migration CLI and the tests. */
export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    // JIT compilation only pays off for long analytic queries; on this API's short queries its
    // start-up cost (over 100 ms seen on event list pages) is pure latency.
    extra: { max: 20, application_name: 'service-api', options: '-c jit=off' },
  };
}

export const createDataSource = (config: AppConfig): DataSource => new DataSource(dataSourceOptions(config.database.url));
