import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import type { JobStatus } from '../status/ci-status';
import { CiJobArtifactEntity } from '../entities/ci-job-artifact.entity';
import { CiJobTraceEntity } from '../entities/ci-job-trace.entity';
import { CiJobEntity } from '../entities/ci-job.entity';
import type { CiRunnerEntity } from '../entities/ci-runner.entity';
import { digestSecret } from '../runners/runner-tokens';

@Injectable()
export class JobsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Locks the oldest pending build this runner may run (its projects, group or the instance;
   * every tag of the job among the runner's; untagged jobs only if the runner takes them).
   * `SKIP LOCKED`: two runners asking at once never get the same job, and neither waits.
   */
  async lockNextFor(tx: EntityManager, runner: CiRunnerEntity): Promise<CiJobEntity | null> {
    const params: unknown[] = [runner.tagList, runner.runUntagged];
    let scope = 'true';
    if (runner.runnerType === 'project_type') {
      params.push(runner.id);
      scope = `j.project_id IN (SELECT rp.project_id FROM ci_runner_projects rp WHERE rp.runner_id = $${params.length})`;
    } else if (runner.runnerType === 'group_type') {
      params.push(runner.groupId);
      scope = `j.project_id IN (SELECT p.id FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE $${params.length} = ANY(n.traversal_ids))`;
    }
    const rows = (await tx.query(
      `SELECT j.id FROM ci_jobs j
       WHERE j.status = 'pending' AND j.type = 'build' AND ${scope}
         AND j.tag_list <@ $1::text[] AND ($2 OR cardinality(j.tag_list) > 0)
       ORDER BY j.id LIMIT 1 FOR UPDATE OF j SKIP LOCKED`,
      params,
    )) as { id: number }[];
    if (rows.length === 0) return null;
    return tx.getRepository(CiJobEntity).findOneBy({ id: rows[0].id });
  }

  async countPending(): Promise<number> {
    const rows = (await this.dataSource.query(`SELECT count(*)::int AS n FROM ci_jobs WHERE status = 'pending' AND type = 'build'`)) as { n: number }[];
    return rows[0].n;
  }

  async save(tx: EntityManager, job: CiJobEntity): Promise<CiJobEntity> {
    return tx.getRepository(CiJobEntity).save(job);
  }

  async findById(id: number, manager: EntityManager = this.dataSource.manager): Promise<CiJobEntity | null> {
    return manager.getRepository(CiJobEntity).findOneBy({ id });
  }

  /** The job, locked for the rest of the transaction. */
  async lock(tx: EntityManager, id: number): Promise<CiJobEntity | null> {
    return tx.getRepository(CiJobEntity).createQueryBuilder('j').setLock('pessimistic_write').where('j.id = :id', { id }).getOne();
  }

  /** The job whose token this is, in any state (the caller decides what the state allows). */
  async findByToken(token: string, manager: EntityManager = this.dataSource.manager): Promise<CiJobEntity | null> {
    if (!token) return null;
    return manager.getRepository(CiJobEntity).findOneBy({ tokenDigest: digestSecret(token) });
  }

  /** Latest jobs of a pipeline by name (for dependencies). */
  async latestByNames(pipelineId: number, names: string[]): Promise<CiJobEntity[]> {
    if (names.length === 0) return [];
    return this.dataSource.getRepository(CiJobEntity).find({ where: { pipelineId, name: In(names), retried: false }, order: { id: 'ASC' } });
  }

  async latestBeforeStage(pipelineId: number, stageIdx: number): Promise<CiJobEntity[]> {
    return this.dataSource
      .getRepository(CiJobEntity)
      .createQueryBuilder('j')
      .where('j.pipeline_id = :pipelineId AND j.retried = false AND j.stage_idx < :stageIdx AND j.type = :type', { pipelineId, stageIdx, type: 'build' })
      .orderBy('j.id', 'ASC')
      .getMany();
  }

  async artifacts(jobIds: number[], fileType?: string): Promise<CiJobArtifactEntity[]> {
    if (jobIds.length === 0) return [];
    return this.dataSource.getRepository(CiJobArtifactEntity).find({ where: { jobId: In(jobIds), ...(fileType ? { fileType } : {}) }, order: { id: 'ASC' } });
  }

  /** Records an artifact file, replacing the job's file of that type; returns the storage key of the replaced one. */
  async saveArtifact(manager: EntityManager, artifact: Partial<CiJobArtifactEntity>): Promise<string | null> {
    const repository = manager.getRepository(CiJobArtifactEntity);
    const previous = await repository.findOneBy({ jobId: artifact.jobId, fileType: artifact.fileType });
    if (previous) await repository.delete({ id: previous.id });
    await repository.save(repository.create(artifact));
    return previous?.storageKey ?? null;
  }

  async trace(jobId: number, manager: EntityManager = this.dataSource.manager): Promise<CiJobTraceEntity | null> {
    return manager.getRepository(CiJobTraceEntity).findOneBy({ jobId });
  }

  /** The trace row, locked (created empty when missing): appends to one trace are serialized. */
  async lockTrace(tx: EntityManager, jobId: number, storageKey: string): Promise<CiJobTraceEntity> {
    await tx.query('INSERT INTO ci_job_traces (job_id, storage_key, size) VALUES ($1, $2, 0) ON CONFLICT (job_id) DO NOTHING', [jobId, storageKey]);
    return tx.getRepository(CiJobTraceEntity).createQueryBuilder('t').setLock('pessimistic_write').where('t.job_id = :jobId', { jobId }).getOneOrFail();
  }

  async saveTrace(tx: EntityManager, trace: CiJobTraceEntity): Promise<void> {
    await tx.getRepository(CiJobTraceEntity).save(trace);
  }

  /**
   * Jobs of a project (or of one pipeline) for the list endpoints, highest id first: builds or
   * bridges, of the given statuses; retried attempts only with `includeRetried`.
   */
  list(filter: { projectId: number; pipelineId?: number; type: 'build' | 'bridge'; statuses?: JobStatus[]; includeRetried: boolean }): SelectQueryBuilder<CiJobEntity> {
    const qb = this.dataSource.getRepository(CiJobEntity).createQueryBuilder('j').where('j.project_id = :projectId', { projectId: filter.projectId }).andWhere('j.type = :type', { type: filter.type });
    if (filter.pipelineId !== undefined) qb.andWhere('j.pipeline_id = :pipelineId', { pipelineId: filter.pipelineId });
    if (filter.statuses && filter.statuses.length > 0) qb.andWhere('j.status IN (:...statuses)', { statuses: filter.statuses });
    if (!filter.includeRetried) qb.andWhere('j.retried = false');
    return qb.orderBy('j.id', 'DESC');
  }

  async findInProject(projectId: number, jobId: number, manager: EntityManager = this.dataSource.manager): Promise<CiJobEntity | null> {
    return manager.getRepository(CiJobEntity).findOneBy({ id: jobId, projectId });
  }

  async deleteArtifacts(tx: EntityManager, jobId: number): Promise<CiJobArtifactEntity[]> {
    const rows = await tx.getRepository(CiJobArtifactEntity).find({ where: { jobId } });
    if (rows.length > 0) await tx.getRepository(CiJobArtifactEntity).delete({ jobId });
    return rows;
  }

  async deleteTrace(tx: EntityManager, jobId: number): Promise<CiJobTraceEntity | null> {
    const trace = await tx.getRepository(CiJobTraceEntity).findOneBy({ jobId });
    if (trace) await tx.getRepository(CiJobTraceEntity).delete({ jobId });
    return trace;
  }

  /** What the job payload needs about the project. */
  async projectInfo(projectId: number): Promise<{ fullPath: string; name: string } | null> {
    const rows = (await this.dataSource.query(
      `SELECT n.full_path || '/' || p.path AS full_path, p.name FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE p.id = $1`,
      [projectId],
    )) as { full_path: string; name: string }[];
    return rows[0] ? { fullPath: rows[0].full_path, name: rows[0].name } : null;
  }
}
