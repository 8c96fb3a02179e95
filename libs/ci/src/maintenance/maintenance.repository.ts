import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The statements of the CI housekeeping: candidates of the stuck-job check, expired artifacts. */
@Injectable()
export class MaintenanceRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Running jobs whose runner stopped reporting for their timeout (`defaultTimeout` when they
   * have none) or that ran past it by `graceSeconds`, and pending builds queued for longer than
   * `pendingOutdatedSeconds`; oldest id first.
   */
  async stuckCandidates(
    batchSize: number,
    limits: { defaultTimeout: number; graceSeconds: number; pendingOutdatedSeconds: number },
  ): Promise<{ id: number; pipeline_id: number }[]> {
    return (await this.dataSource.query(
      `SELECT id, pipeline_id FROM ci_jobs
       WHERE (status = 'running' AND (
               COALESCE(last_contact_at, started_at) < now() - make_interval(secs => COALESCE(timeout, $2))
               OR started_at < now() - make_interval(secs => COALESCE(timeout, $2) + $3)))
          OR (status = 'pending' AND type = 'build' AND COALESCE(queued_at, created_at) < now() - make_interval(secs => $4))
       ORDER BY id LIMIT $1`,
      [batchSize, limits.defaultTimeout, limits.graceSeconds, limits.pendingOutdatedSeconds],
    )) as { id: number; pipeline_id: number }[];
  }

  /** Deletes up to `batchSize` artifact rows past their `expire_at` in one statement; returns their storage keys. */
  async deleteExpiredArtifacts(batchSize: number): Promise<string[]> {
    const removed = (await this.dataSource.query(
      `DELETE FROM ci_job_artifacts WHERE id IN (
         SELECT id FROM ci_job_artifacts WHERE expire_at IS NOT NULL AND expire_at <= now() ORDER BY expire_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING storage_key`,
      [batchSize],
    )) as [{ storage_key: string }[], number] | { storage_key: string }[];
    const rows = Array.isArray(removed[0]) ? (removed[0] as { storage_key: string }[]) : (removed as { storage_key: string }[]);
    return rows.map((row) => row.storage_key);
  }
}
