import type { EntityManager } from 'typeorm';

/**
 * A statement of a hot path, prepared once per connection under its name: PostgreSQL parses and
 * plans it on first use and reuses the plan (a generic one after five runs, when it costs no
 * more), instead of planning it for every run; for the statements of claiming and finishing CI
 * jobs and of the outbox, planning cost more than running them. Name a statement for its text
 * (one text per name), and list the columns it returns rather than `*`: a prepared statement
 * whose result type changes (a column added by a migration while the process runs) fails.
 */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a prepared statement on the manager's connection (its transaction's, when it has one,
 * else one from the pool) and resolves with its rows (`RETURNING` rows for a write).
 */
export async function queryPrepared<T = Record<string, unknown>>(manager: EntityManager, statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  const runner = manager.queryRunner as unknown as { databaseConnection?: PgQueryable; isReleased?: boolean } | undefined;
  const connection =
    runner && !runner.isReleased && runner.databaseConnection
      ? runner.databaseConnection
      : (manager.connection.driver as unknown as { master: PgQueryable }).master;
  const result = await connection.query({ name: statement.name, text: statement.text, values });
  return result.rows as T[];
}
