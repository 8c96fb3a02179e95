import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** The `statistics` object of a project (all integers). */
export interface ProjectStatisticsValues {
  commit_count: number;
  storage_size: number;
  repository_size: number;
  wiki_size: number;
  lfs_objects_size: number;
  job_artifacts_size: number;
  pipeline_artifacts_size: number;
  packages_size: number;
  snippets_size: number;
  uploads_size: number;
  container_registry_size: number;
}

export const STATISTICS_KEYS = [
  'commit_count',
  'storage_size',
  'repository_size',
  'wiki_size',
  'lfs_objects_size',
  'job_artifacts_size',
  'pipeline_artifacts_size',
  'packages_size',
  'snippets_size',
  'uploads_size',
  'container_registry_size',
] as const satisfies readonly (keyof ProjectStatisticsValues)[];

/** Every value a writer may set (`storage_size` is derived: the sum of the sizes, computed by the database). */
export type WritableStatistic = Exclude<keyof ProjectStatisticsValues, 'storage_size'>;
const WRITABLE: readonly WritableStatistic[] = STATISTICS_KEYS.filter((key): key is WritableStatistic => key !== 'storage_size');

export const EMPTY_STATISTICS: ProjectStatisticsValues = Object.fromEntries(STATISTICS_KEYS.map((key) => [key, 0])) as unknown as ProjectStatisticsValues;

/**
 * Reads and writes `project_statistics`. A project without a row has every value 0.
 *
 * After a push, the repository library records the repository's size and commit count with
 * `set(projectId, { repository_size, commit_count }, tx)`, which runs
 * `INSERT INTO project_statistics (project_id, repository_size, commit_count) VALUES ($1, $2, $3)
 *  ON CONFLICT (project_id) DO UPDATE SET repository_size = EXCLUDED.repository_size, commit_count = EXCLUDED.commit_count, updated_at = now()`.
 */
@Injectable()
export class ProjectStatisticsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async forProjects(projectIds: number[], manager: EntityManager = this.dataSource.manager): Promise<Map<number, ProjectStatisticsValues>> {
    if (projectIds.length === 0) return new Map();
    const rows = (await manager.query(`SELECT project_id, ${STATISTICS_KEYS.join(', ')} FROM project_statistics WHERE project_id = ANY($1)`, [
      projectIds,
    ])) as Array<Record<string, string | number>>;
    return new Map(
      rows.map((row) => [
        Number(row.project_id),
        Object.fromEntries(STATISTICS_KEYS.map((key) => [key, Number(row[key])])) as unknown as ProjectStatisticsValues,
      ]),
    );
  }

  /** Sets some values of a project's statistics (creating the row); the others keep their value. */
  async set(projectId: number, values: Partial<Record<WritableStatistic, number>>, manager: EntityManager = this.dataSource.manager): Promise<void> {
    const keys = WRITABLE.filter((key) => values[key] !== undefined);
    if (keys.length === 0) return;
    for (const key of keys) {
      const value = values[key]!;
      if (!Number.isSafeInteger(value) || value < 0) throw new Error(`project statistics: ${key} must be a non-negative integer`);
    }
    const placeholders = keys.map((_, index) => `$${index + 2}`).join(', ');
    const updates = keys.map((key) => `${key} = EXCLUDED.${key}`).join(', ');
    await manager.query(
      `INSERT INTO project_statistics (project_id, ${keys.join(', ')}) VALUES ($1, ${placeholders})
       ON CONFLICT (project_id) DO UPDATE SET ${updates}, updated_at = now()`,
      [projectId, ...keys.map((key) => values[key])],
    );
  }
}
