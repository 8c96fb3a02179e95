import { DataSource, MigrationExecutor } from 'typeorm';

/** Arbitrary, fixed key of the advisory lock that serializes migrations across processes. Never change. */
export const MIGRATION_LOCK_KEY = 7_305_142_001;

/**
 * Runs pending migrations while holding a PostgreSQL advisory lock, so that several
 * processes starting at once apply each migration exactly once. They run on the connection
 * that holds the lock: if that connection is cut (a restart, a terminated backend), the lock
 * and the migration in progress go with it (it rolls back), and the boot fails rather than go
 * on migrating unlocked.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    const applied = await executor.executePendingMigrations();
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}

/** True when every known migration has been applied. */
export async function migrationsApplied(dataSource: DataSource): Promise<boolean> {
  return !(await dataSource.showMigrations());
}
