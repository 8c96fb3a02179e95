import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, LessThan } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ProjectExportEntity } from '../entities/project-export.entity';
import { ProjectImportFailureEntity } from '../entities/project-import-failure.entity';
import { ProjectImportStateEntity } from '../entities/project-import-state.entity';
import { MAX_FAILED_RELATIONS, RelationFailure } from '../import/project-importer';

/** The status records of exports and imports, and the failed relations of imports. */
@Injectable()
export class ProjectTransferRepository {
  constructor(private readonly dataSource: DataSource) {}

  export(projectId: number, manager: EntityManager = this.dataSource.manager): Promise<ProjectExportEntity | null> {
    return manager.findOneBy(ProjectExportEntity, { projectId });
  }

  lockExport(tx: EntityManager, projectId: number): Promise<ProjectExportEntity | null> {
    return tx.findOne(ProjectExportEntity, { where: { projectId }, lock: { mode: 'pessimistic_write' } });
  }

  /** Records a new export request of a project that has no export row yet. */
  async insertExport(tx: EntityManager, row: Omit<ProjectExportEntity, 'createdAt' | 'updatedAt'>): Promise<void> {
    await tx.insert(ProjectExportEntity, row);
  }

  /** Changes the project's export row (whatever its generation). */
  async updateExport(tx: EntityManager, projectId: number, values: Partial<ProjectExportEntity>): Promise<void> {
    await tx.update(ProjectExportEntity, { projectId }, values);
  }

  /** Changes the export row of one generation; resolves with whether it was still that generation. */
  async updateExportGeneration(
    projectId: number,
    generation: number,
    values: Partial<ProjectExportEntity>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const result = await manager.update(ProjectExportEntity, { projectId, generation }, values);
    return !!result.affected;
  }

  /**
   * Opens the export's ONE read-only REPEATABLE READ transaction: every read of `work` sees the
   * same snapshot of the database, so the archive is consistent across its relations.
   */
  readSnapshot<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction('REPEATABLE READ', async (tx) => {
      await tx.query('SET TRANSACTION READ ONLY');
      return work(tx);
    });
  }

  importState(projectId: number, manager: EntityManager = this.dataSource.manager): Promise<ProjectImportStateEntity | null> {
    return manager.findOneBy(ProjectImportStateEntity, { projectId });
  }

  lockImport(tx: EntityManager, projectId: number): Promise<ProjectImportStateEntity | null> {
    return tx.findOne(ProjectImportStateEntity, { where: { projectId }, lock: { mode: 'pessimistic_write' } });
  }

  /**
   * Marks an import `started` and counts the start, if it still waits or runs; resolves with the
   * number of starts so far, or null when the import is no longer pending.
   */
  async startImport(projectId: number): Promise<number | null> {
    const rows = (await this.dataSource.query(
      `UPDATE project_import_states SET status = 'started', attempts = attempts + 1, updated_at = now() WHERE project_id = $1 AND status IN ('scheduled', 'started') RETURNING attempts`,
      [projectId],
    )) as [Array<{ attempts: number }>, number];
    return rows[0][0]?.attempts ?? null;
  }

  /** Records a new import request. */
  async insertImportState(row: QueryDeepPartialEntity<ProjectImportStateEntity>): Promise<void> {
    await this.dataSource.manager.insert(ProjectImportStateEntity, row);
  }

  /** Changes the project's import state row. */
  async updateImportState(
    projectId: number,
    values: QueryDeepPartialEntity<ProjectImportStateEntity>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.update(ProjectImportStateEntity, { projectId }, values);
  }

  failures(projectId: number): Promise<ProjectImportFailureEntity[]> {
    return this.dataSource.manager.find(ProjectImportFailureEntity, { where: { projectId }, order: { id: 'ASC' }, take: MAX_FAILED_RELATIONS });
  }

  async addFailures(manager: EntityManager, projectId: number, failures: RelationFailure[]): Promise<void> {
    if (failures.length === 0) return;
    const existing = await manager.count(ProjectImportFailureEntity, { where: { projectId } });
    const room = Math.max(0, MAX_FAILED_RELATIONS - existing);
    if (room > 0)
      await manager.insert(
        ProjectImportFailureEntity,
        failures.slice(0, room).map((f) => ({ ...f, projectId })),
      );
  }

  /** Exports and imports waiting or running, last changed before `before`: their jobs are checked against Redis. */
  pendingExports(before: Date): Promise<ProjectExportEntity[]> {
    return this.dataSource.manager.find(ProjectExportEntity, {
      where: { status: In(['queued', 'started', 'regeneration_in_progress']), updatedAt: LessThan(before) },
      take: 1000,
    });
  }

  pendingImports(before: Date): Promise<ProjectImportStateEntity[]> {
    return this.dataSource.manager.find(ProjectImportStateEntity, { where: { status: In(['scheduled', 'started']), updatedAt: LessThan(before) }, take: 1000 });
  }

  expiredExports(now: Date): Promise<ProjectExportEntity[]> {
    return this.dataSource.manager.find(ProjectExportEntity, { where: { expiresAt: LessThan(now) }, take: 1000 });
  }
}
