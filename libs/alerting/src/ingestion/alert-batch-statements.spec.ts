import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BATCH_STATEMENTS } from './alert-batch.repository';

/**
 * The statements of batched ingestion (the hot path) as reviewable SQL: each is committed as
 * `sql/<name>.sql`, so a change to one shows in review as a change of that file. A change to a
 * statement fails here until its file says the same (edit the file with the statement).
 */
const batchStatementFile = (statement: (typeof BATCH_STATEMENTS)[keyof typeof BATCH_STATEMENTS]): string =>
  `-- PREPARE ${statement.name} (${statement.parameters}) AS\n${statement.sql}\n`;

describe('BATCH_STATEMENTS', () => {
  it.each(Object.entries(BATCH_STATEMENTS))('%s is the statement committed in sql/', (_key, statement) => {
    expect(batchStatementFile(statement)).toBe(readFileSync(join(__dirname, 'sql', `${statement.name}.sql`), 'utf8'));
  });
});
