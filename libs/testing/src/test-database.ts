import { randomBytes } from 'node:crypto';
import { createDataSource, dropDatabase, ensureDatabase, parseDatabaseUrl, runMigrationsLocked } from '@app/database';
import { AppConfig } from '@app/config';
import { testEnvironment } from './test-environment';

/** Server that hosts the test databases (the machine's PostgreSQL unless TEST_DATABASE_SERVER says otherwise). */
export const TEST_DATABASE_SERVER = testEnvironment.databaseServer();
const templateDatabase = testEnvironment.templateDatabase;

const urlOf = (database: string): string => `${TEST_DATABASE_SERVER.replace(/\/+$/, '')}/${database}`;

/** Creates (once per test run) the template database with every migration applied. */
export async function prepareTemplateDatabase(name = templateDatabase()): Promise<void> {
  const url = urlOf(name);
  await dropDatabase(url);
  await ensureDatabase(url);
  // Migrations are SQL of their own: the template needs no entity list.
  const dataSource = await createDataSource(AppConfig.fromEnvironment({ DATABASE_URL: url }), []).initialize();
  try {
    await runMigrationsLocked(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** A fresh database for one test file, cloned from the migrated template. */
export async function createTestDatabase(label = 'test'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `service_api_t_${label
    .replace(/[^a-z0-9]/gi, '_')
    .toLowerCase()
    .slice(0, 30)}_${randomBytes(4).toString('hex')}`;
  const url = urlOf(name);
  await ensureDatabase(url, templateDatabase());
  return { url, drop: () => dropDatabase(url) };
}

export async function dropTemplateDatabase(name = templateDatabase()): Promise<void> {
  await dropDatabase(urlOf(name));
}

export { parseDatabaseUrl };
