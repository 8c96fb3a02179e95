import { Injectable } from '@nestjs/common';
import { JobActionsUseCase } from '../jobs/job-actions.use-case';
import { MaintenanceRepository } from './maintenance.repository';

/**
 * Removes the artifacts whose `expire_at` passed (the archive, its metadata and the reports; the
 * log is not an artifact and stays): the rows in one statement, then the objects. The record is
 * PostgreSQL's `expire_at`, so a run missed while Redis was down is caught up by the next one.
 */
@Injectable()
export class ExpireArtifactsUseCase {
  constructor(
    private readonly maintenance: MaintenanceRepository,
    private readonly jobActions: JobActionsUseCase,
  ) {}

  async execute(batchSize: number): Promise<{ removed: number }> {
    const keys = await this.maintenance.deleteExpiredArtifacts(batchSize);
    await this.jobActions.deleteObjects(keys);
    return { removed: keys.length };
  }
}
