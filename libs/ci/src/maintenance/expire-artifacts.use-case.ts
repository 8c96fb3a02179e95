import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobActionsUseCase } from '../jobs/job-actions.use-case';

/**
 * Removes the artifacts whose `expire_at` passed (the archive, its metadata and the reports; the
 * log is not an artifact and stays): the rows in one statement, then the objects. The record is
 * PostgreSQL's `expire_at`, so a run missed while Redis was down is caught up by the next one.
 */
@Injectable()
export class ExpireArtifactsUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly jobActions: JobActionsUseCase,
  ) {}

  async execute(batchSize: number): Promise<{ removed: number }> {
    const removed = (await this.dataSource.query(
      `DELETE FROM ci_job_artifacts WHERE id IN (
         SELECT id FROM ci_job_artifacts WHERE expire_at IS NOT NULL AND expire_at <= now() ORDER BY expire_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING storage_key`,
      [batchSize],
    )) as [{ storage_key: string }[], number] | { storage_key: string }[];
    const rows = Array.isArray(removed[0]) ? (removed[0] as { storage_key: string }[]) : (removed as { storage_key: string }[]);
    await this.jobActions.deleteObjects(rows.map((row) => row.storage_key));
    return { removed: rows.length };
  }
}
