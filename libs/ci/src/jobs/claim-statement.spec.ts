import { ENTITIES } from '@apps/entities';
import { DataSource } from 'typeorm';
import { CiJobEntity } from '../entities/ci-job.entity';
import { claimStatement } from './jobs.repository';

/**
 * The runner's job claim is the hottest statement of the service: its text, for each type of
 * runner, is kept in `__snapshots__/claim-statement.spec.ts.snap`, so that any change to it shows
 * in review (`jest -u` writes the new text; read the diff before committing it).
 */
describe(claimStatement.name, () => {
  let jobColumns: (from: string) => string;

  beforeAll(async () => {
    // The entity metadata alone (no connection): the columns the statement returns.
    const dataSource = new DataSource({ type: 'postgres', entities: ENTITIES });
    await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
    const columns = dataSource.getMetadata(CiJobEntity).columns.map((column) => column.databaseName);
    jobColumns = (from) => columns.map((name) => `${from}."${name}"`).join(', ');
  });

  it.each(['instance_type', 'group_type', 'project_type'])('claims for a %s runner with the reviewed statement', (runnerType) => {
    const statement = claimStatement(runnerType, jobColumns);
    expect(statement.name).toBe(`ci_claim_v2_${runnerType}`);
    expect(statement.text).toMatchSnapshot();
  });

  it('scopes each type of runner differently and locks the job it takes without waiting', () => {
    const texts = ['instance_type', 'group_type', 'project_type'].map((type) => claimStatement(type, jobColumns).text);
    expect(new Set(texts).size).toBe(3);
    for (const text of texts) expect(text).toContain('FOR UPDATE OF j SKIP LOCKED');
    expect(texts[1]).toContain('$6 = ANY(n.traversal_ids)');
    expect(texts[2]).toContain('ci_runner_projects rp WHERE rp.runner_id = $3');
  });
});
