import { AppConfig } from '@app/config';
import { createTestDatabase } from '@app/testing';
import { DataSource } from 'typeorm';
import { createDataSource } from './data-source';
import { migrationsApplied, runMigrationsLocked } from './migrate';

describe('runMigrationsLocked', () => {
  it('applies every migration once when several processes start at the same time', async () => {
    const db = await createTestDatabase('migrate');
    // The clone already has the migrations: roll back to an empty schema first.
    const setup = await createDataSource(AppConfig.fromEnvironment({ DATABASE_URL: db.url }), []).initialize();
    while ((await setup.query('SELECT count(*)::int AS n FROM migrations'))[0].n > 0) {
      await setup.undoLastMigration();
    }
    await expect(migrationsApplied(setup)).resolves.toBe(false);
    await setup.destroy();

    const sources: DataSource[] = await Promise.all(
      [1, 2, 3].map(() => createDataSource(AppConfig.fromEnvironment({ DATABASE_URL: db.url }), []).initialize()),
    );
    try {
      const results = await Promise.all(sources.map((s) => runMigrationsLocked(s)));
      expect(results.flat()).toHaveLength(sources[0].migrations.length);
      await expect(migrationsApplied(sources[0])).resolves.toBe(true);
      const rows = await sources[0].query('SELECT count(*)::int AS n FROM migrations');
      expect(rows[0].n).toBe(sources[0].migrations.length);
    } finally {
      await Promise.all(sources.map((s) => s.destroy()));
      await db.drop();
    }
  });
});
