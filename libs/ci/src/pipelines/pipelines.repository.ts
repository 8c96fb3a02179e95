import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { parseCiDuration } from '../config/ci-duration';
import type { ListPipelinesDto } from './pipeline.dto';
import { CiJobEntity } from '../entities/ci-job.entity';
import { SettingsEncryption } from '@app/secrets';
import { CiPipelineVariableEntity, CiVariableType, PIPELINE_VARIABLE_PURPOSE } from '../entities/ci-pipeline-variable.entity';
import { CiPipelineEntity } from '../entities/ci-pipeline.entity';
import { CiStageEntity } from '../entities/ci-stage.entity';
import { PreparedStatement, queryPrepared } from '@app/database';
import type { CiEventScope } from '../events/ci.events';

/** The `internal_ids` usage of pipeline iids (stored value; never rename). */
export const PIPELINE_IID_USAGE = 'ci_pipelines';

// The statements of a pipeline's processing, prepared (see `PreparedStatement`).
const MARK_PROCESSED: PreparedStatement = {
  name: 'ci_jobs_mark_processed_v1',
  text: 'UPDATE ci_jobs SET processed = true WHERE id = ANY($1::int[]) AND processed = false',
};
const SET_JOB_STATUSES: PreparedStatement = {
  name: 'ci_jobs_set_statuses_v1',
  text: 'UPDATE ci_jobs SET status = $1, queued_at = COALESCE($2, queued_at), updated_at = now() WHERE id = ANY($3::int[])',
};
const SET_STAGE_STATUSES: PreparedStatement = {
  name: 'ci_stages_set_statuses_v1',
  text: `UPDATE ci_stages s SET status = COALESCE(v.status, 'skipped')
           FROM ci_stages c LEFT JOIN unnest($2::text[], $3::text[]) AS v(name, status) ON v.name = c.name
          WHERE c.pipeline_id = $1 AND s.id = c.id AND s.status IS DISTINCT FROM COALESCE(v.status, 'skipped')`,
};
const SAVE_PROCESSED: PreparedStatement = {
  name: 'ci_pipelines_save_processed_v1',
  text: 'UPDATE ci_pipelines SET status = $2, started_at = $3, finished_at = $4, duration = $5, queued_duration = $6, coverage = $7, updated_at = now() WHERE id = $1 RETURNING updated_at',
};

/** A pipeline variable with its plain value (never stored so). */
export interface PipelineVariableRow {
  pipelineId: number;
  key: string;
  value: string;
  variableType: CiVariableType;
}

@Injectable()
export class PipelinesRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly encryption: SettingsEncryption,
  ) {}

  /**
   * The next pipeline `iid` of a project. Inside the creating transaction: the counter row stays
   * locked until commit, so concurrent creations queue and a rollback gives the number back.
   */
  async nextIid(tx: EntityManager, projectId: number): Promise<number> {
    const rows = (await tx.query(
      `INSERT INTO internal_ids (scope_type, scope_id, usage, last_value) VALUES ('project', $1, $2, 1)
       ON CONFLICT (scope_type, scope_id, usage) DO UPDATE SET last_value = internal_ids.last_value + 1
       RETURNING last_value`,
      [projectId, PIPELINE_IID_USAGE],
    )) as { last_value: number }[];
    return rows[0].last_value;
  }

  async insertPipeline(tx: EntityManager, pipeline: Partial<CiPipelineEntity>): Promise<CiPipelineEntity> {
    return tx.getRepository(CiPipelineEntity).save(tx.getRepository(CiPipelineEntity).create(pipeline));
  }

  async savePipeline(tx: EntityManager, pipeline: CiPipelineEntity): Promise<CiPipelineEntity> {
    return tx.getRepository(CiPipelineEntity).save(pipeline);
  }

  /** Saves the variables of a new pipeline, their values encrypted. */
  async insertVariables(tx: EntityManager, rows: PipelineVariableRow[]): Promise<void> {
    if (rows.length === 0) return;
    const repository = tx.getRepository(CiPipelineVariableEntity);
    await repository.insert(
      rows.map((row) => ({
        pipelineId: row.pipelineId,
        key: row.key,
        variableType: row.variableType,
        value: null,
        encryptedValue: this.encryption.seal(PIPELINE_VARIABLE_PURPOSE, row.value),
      })),
    );
  }

  async insertStages(tx: EntityManager, rows: Partial<CiStageEntity>[]): Promise<void> {
    if (rows.length > 0) await tx.getRepository(CiStageEntity).save(rows.map((row) => tx.getRepository(CiStageEntity).create(row)));
  }

  async insertJobs(tx: EntityManager, rows: Partial<CiJobEntity>[]): Promise<CiJobEntity[]> {
    if (rows.length === 0) return [];
    const repository = tx.getRepository(CiJobEntity);
    return repository.save(rows.map((row) => repository.create(row)));
  }

  /** Whether a pipeline was already created for this domain event. */
  async existsForEvent(eventId: string, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const rows = (await manager.query('SELECT 1 FROM ci_pipelines WHERE trigger_event_id = $1', [eventId])) as unknown[];
    return rows.length > 0;
  }

  /** The pipeline, locked until the end of the transaction (processing of one pipeline is serialized). */
  async lockPipeline(tx: EntityManager, pipelineId: number): Promise<CiPipelineEntity | null> {
    return tx.getRepository(CiPipelineEntity).createQueryBuilder('p').setLock('pessimistic_write').where('p.id = :pipelineId', { pipelineId }).getOne();
  }

  /**
   * The pipeline for its processing, locked until the end of the transaction: every column but
   * the predefined variables (only the job payload reads them).
   */
  async lockForProcessing(tx: EntityManager, pipelineId: number): Promise<CiPipelineEntity | null> {
    const columns = tx.connection
      .getMetadata(CiPipelineEntity)
      .columns.filter((column) => column.propertyName !== 'predefinedVariables' && !column.relationMetadata)
      .map((column) => `p.${column.propertyName}`);
    return tx
      .getRepository(CiPipelineEntity)
      .createQueryBuilder('p')
      .select(columns)
      .setLock('pessimistic_write')
      .where('p.id = :pipelineId', { pipelineId })
      .getOne();
  }

  /**
   * The latest (not retried) jobs of a pipeline with what its processing, its statuses and the
   * job events read (not their options or variables), in stage order.
   */
  async latestJobsForProcessing(tx: EntityManager, pipelineId: number): Promise<CiJobEntity[]> {
    return tx.getRepository(CiJobEntity).find({
      select: {
        id: true,
        projectId: true,
        pipelineId: true,
        type: true,
        name: true,
        stage: true,
        stageIdx: true,
        status: true,
        when: true,
        allowFailure: true,
        needs: true,
        ref: true,
        sha: true,
        failureReason: true,
        runnerId: true,
        coverage: true,
        startedAt: true,
        finishedAt: true,
        processed: true,
      },
      where: { pipelineId, retried: false },
      order: { stageIdx: 'ASC', id: 'ASC' },
    });
  }

  /**
   * Dates the jobs that just became `scheduled`: `scheduled_at` is `now` plus each job's
   * `start_in` (validated with the configuration; an unreadable one counts as zero).
   */
  async scheduleJobs(tx: EntityManager, ids: number[], now: Date): Promise<{ id: number; scheduledAt: Date }[]> {
    if (ids.length === 0) return [];
    const rows = (await tx.query(`SELECT id, options->>'startIn' AS start_in FROM ci_jobs WHERE id = ANY($1::int[])`, [ids])) as {
      id: number;
      start_in: string | null;
    }[];
    const scheduled = rows.map((row) => ({
      id: row.id,
      scheduledAt: new Date(now.getTime() + (row.start_in ? (parseCiDuration(row.start_in) ?? 0) : 0) * 1000),
    }));
    await tx.query(`UPDATE ci_jobs j SET scheduled_at = v.at FROM unnest($1::int[], $2::timestamptz[]) AS v(id, at) WHERE j.id = v.id`, [
      scheduled.map((s) => s.id),
      scheduled.map((s) => s.scheduledAt.toISOString()),
    ]);
    return scheduled;
  }

  /** The ends of these jobs were seen by their pipeline's processing. */
  async markProcessed(tx: EntityManager, ids: number[]): Promise<void> {
    if (ids.length > 0) await queryPrepared(tx, MARK_PROCESSED, [ids]);
  }

  /** Applies the processing's job transitions: one statement per target status. */
  async setJobStatuses(tx: EntityManager, ids: number[], status: string, queuedAt: Date | null): Promise<void> {
    if (ids.length === 0) return;
    await queryPrepared(tx, SET_JOB_STATUSES, [status, queuedAt, ids]);
  }

  /**
   * Sets the stages of a pipeline to the statuses composed from their jobs (by stage name; a
   * stage without latest jobs is `skipped`), writing only those that changed, in one statement.
   */
  async setStageStatuses(tx: EntityManager, pipelineId: number, statuses: Map<string, string>): Promise<void> {
    await queryPrepared(tx, SET_STAGE_STATUSES, [pipelineId, [...statuses.keys()], [...statuses.values()]]);
  }

  /** Writes the processing's outcome on the pipeline (status, times, coverage); returns the new `updated_at`. */
  async saveProcessed(tx: EntityManager, pipeline: CiPipelineEntity): Promise<void> {
    const rows = await queryPrepared<{ updated_at: Date }>(tx, SAVE_PROCESSED, [
      pipeline.id,
      pipeline.status,
      pipeline.startedAt,
      pipeline.finishedAt,
      pipeline.duration,
      pipeline.queuedDuration,
      pipeline.coverage,
    ]);
    if (rows[0]) pipeline.updatedAt = rows[0].updated_at;
  }

  /** The child pipelines of a pipeline at any depth (`parent_pipeline_id`), parents before children. */
  async descendants(tx: EntityManager, pipelineId: number): Promise<{ id: number; projectId: number }[]> {
    const rows = (await tx.query(
      `WITH RECURSIVE d(id, project_id, depth) AS (
         SELECT id, project_id, 1 FROM ci_pipelines WHERE parent_pipeline_id = $1
         UNION ALL SELECT p.id, p.project_id, d.depth + 1 FROM ci_pipelines p JOIN d ON p.parent_pipeline_id = d.id WHERE d.depth < 10)
       SELECT id, project_id FROM d ORDER BY depth, id`,
      [pipelineId],
    )) as { id: number; project_id: number }[];
    return rows.map((row) => ({ id: row.id, projectId: row.project_id }));
  }

  /** Stored pipeline variables with their plain values. */
  unseal(
    pipelineId: number,
    rows: readonly { key: string; variable_type: CiVariableType; value: string | null; encrypted_value: string | null }[],
  ): PipelineVariableRow[] {
    return rows.map((row) => ({
      pipelineId,
      key: row.key,
      variableType: row.variable_type,
      value: row.encrypted_value !== null ? this.encryption.unseal(PIPELINE_VARIABLE_PURPOSE, row.encrypted_value) : (row.value ?? ''),
    }));
  }

  /** The latest (not retried) jobs of a pipeline, in stage order. */
  async latestJobs(tx: EntityManager, pipelineId: number): Promise<CiJobEntity[]> {
    return tx.getRepository(CiJobEntity).find({ where: { pipelineId, retried: false }, order: { stageIdx: 'ASC', id: 'ASC' } });
  }

  async stages(tx: EntityManager, pipelineId: number): Promise<CiStageEntity[]> {
    return tx.getRepository(CiStageEntity).find({ where: { pipelineId }, order: { position: 'ASC' } });
  }

  async saveStages(tx: EntityManager, stages: CiStageEntity[]): Promise<void> {
    if (stages.length > 0) await tx.getRepository(CiStageEntity).save(stages);
  }

  async saveJobs(tx: EntityManager, jobs: CiJobEntity[]): Promise<void> {
    if (jobs.length > 0) await tx.getRepository(CiJobEntity).save(jobs);
  }

  /** Removes a pipeline; its stages, jobs, variables, traces and artifact rows go with it (cascades). */
  async deletePipeline(tx: EntityManager, pipelineId: number): Promise<void> {
    await tx.getRepository(CiPipelineEntity).delete({ id: pipelineId });
  }

  async findById(manager: EntityManager, pipelineId: number): Promise<CiPipelineEntity | null> {
    return manager.getRepository(CiPipelineEntity).findOneBy({ id: pipelineId });
  }

  async find(projectId: number, pipelineId: number, manager: EntityManager = this.dataSource.manager): Promise<CiPipelineEntity | null> {
    return manager.getRepository(CiPipelineEntity).findOne({ where: { id: pipelineId, projectId }, relations: { user: true } });
  }

  /** The variables of a pipeline, decrypted (for its jobs and the variables endpoint only). */
  async variables(pipelineId: number, manager: EntityManager = this.dataSource.manager): Promise<PipelineVariableRow[]> {
    const rows = await manager.getRepository(CiPipelineVariableEntity).find({
      select: { id: true, pipelineId: true, key: true, variableType: true, value: true, encryptedValue: true },
      where: { pipelineId },
      order: { id: 'ASC' },
    });
    return this.unseal(
      pipelineId,
      rows.map((row) => ({ key: row.key, variable_type: row.variableType, value: row.value, encrypted_value: row.encryptedValue })),
    );
  }

  /** What the predefined variables tell about the user who starts a pipeline. */
  async userSummary(userId: number): Promise<{ id: number; username: string; name: string; email: string } | null> {
    const rows = (await this.dataSource.query('SELECT id, username, name, email FROM users WHERE id = $1', [userId])) as {
      id: number;
      username: string;
      name: string;
      email: string;
    }[];
    return rows[0] ?? null;
  }

  /**
   * A merge request's pipelines (GitLab's `all_pipelines`), newest first: its merge request
   * pipelines, and the branch pipelines of its source branch at its commits (`shas`). Child
   * pipelines are left out, as from the pipeline list.
   */
  forMergeRequest(projectId: number, mergeRequestRef: string, sourceBranch: string, shas: string[]): SelectQueryBuilder<CiPipelineEntity> {
    return this.dataSource
      .getRepository(CiPipelineEntity)
      .createQueryBuilder('p')
      .where('p.project_id = :projectId', { projectId })
      .andWhere('p.parent_pipeline_id IS NULL')
      .andWhere(
        "((p.source = 'merge_request_event' AND p.ref = :mergeRequestRef) OR (p.source <> 'merge_request_event' AND p.tag = false AND p.ref = :sourceBranch AND p.sha = ANY(:shas)))",
        {
          mergeRequestRef,
          sourceBranch,
          shas,
        },
      )
      .orderBy('p.id', 'DESC');
  }

  /** The pipelines of a project for the list endpoint (child pipelines left out), filtered and ordered. */
  list(projectId: number, filter: ListPipelinesDto): SelectQueryBuilder<CiPipelineEntity> {
    const qb = this.dataSource
      .getRepository(CiPipelineEntity)
      .createQueryBuilder('p')
      .where('p.project_id = :projectId', { projectId })
      .andWhere('p.parent_pipeline_id IS NULL');
    switch (filter.scope) {
      case 'running':
        qb.andWhere("p.status = 'running'");
        break;
      case 'pending':
        qb.andWhere("p.status = 'pending'");
        break;
      case 'finished':
        qb.andWhere("p.status IN ('success', 'failed', 'canceled', 'skipped')");
        break;
      case 'branches':
        // GitLab: the latest pipeline of each branch.
        qb.andWhere('p.tag = false').andWhere(
          'p.id IN (SELECT max(b.id) FROM ci_pipelines b WHERE b.project_id = :projectId AND b.tag = false GROUP BY b.ref)',
        );
        break;
      case 'tags':
        qb.andWhere('p.tag = true').andWhere('p.id IN (SELECT max(t.id) FROM ci_pipelines t WHERE t.project_id = :projectId AND t.tag = true GROUP BY t.ref)');
        break;
    }
    if (filter.status) qb.andWhere('p.status = :status', { status: filter.status });
    if (filter.source) qb.andWhere('p.source = :source', { source: filter.source });
    if (filter.ref !== undefined) qb.andWhere('p.ref = :ref', { ref: filter.ref });
    if (filter.sha !== undefined) qb.andWhere('p.sha = :sha', { sha: filter.sha });
    if (filter.yaml_errors === true) qb.andWhere('p.yaml_errors IS NOT NULL');
    if (filter.yaml_errors === false) qb.andWhere('p.yaml_errors IS NULL');
    if (filter.username !== undefined)
      qb.andWhere('p.user_id = (SELECT u.id FROM users u WHERE lower(u.username) = lower(:username))', { username: filter.username });
    if (filter.updated_after) qb.andWhere('p.updated_at > :after', { after: new Date(filter.updated_after) });
    if (filter.updated_before) qb.andWhere('p.updated_at < :before', { before: new Date(filter.updated_before) });
    const direction = filter.sort === 'asc' ? 'ASC' : 'DESC';
    const column = { id: 'p.id', status: 'p.status', ref: 'p.ref', updated_at: 'p.updated_at', user_id: 'p.user_id' }[filter.order_by ?? 'id'];
    qb.orderBy(column, direction);
    if (column !== 'p.id') qb.addOrderBy('p.id', direction);
    return qb;
  }

  /** The object storage keys of the pipeline's artifacts and logs (removed after the rows). */
  async storageKeys(tx: EntityManager, pipelineId: number): Promise<string[]> {
    const rows = (await tx.query(
      `SELECT a.storage_key FROM ci_job_artifacts a JOIN ci_jobs j ON j.id = a.job_id WHERE j.pipeline_id = $1
       UNION ALL SELECT t.storage_key FROM ci_job_traces t JOIN ci_jobs j ON j.id = t.job_id WHERE j.pipeline_id = $1`,
      [pipelineId],
    )) as { storage_key: string }[];
    return rows.map((row) => row.storage_key);
  }

  /**
   * The pipelines of job ends that no processing saw for `graceSeconds` (`processed = false`),
   * with their event scope.
   */
  async unprocessed(graceSeconds: number, batchSize: number): Promise<{ pipelineId: number; scope: CiEventScope }[]> {
    const rows = (await this.dataSource.query(
      `SELECT DISTINCT j.pipeline_id, j.project_id, CASE WHEN n.kind = 'group' THEN n.id END AS group_id
         FROM ci_jobs j JOIN projects p ON p.id = j.project_id JOIN namespaces n ON n.id = p.namespace_id
        WHERE j.processed = false AND j.finished_at < now() - make_interval(secs => $1)
        LIMIT $2`,
      [graceSeconds, batchSize],
    )) as { pipeline_id: number; project_id: number; group_id: number | null }[];
    return rows.map((row) => ({ pipelineId: row.pipeline_id, scope: { projectId: row.project_id, groupId: row.group_id } }));
  }

  /** Runs `work` in a transaction of its own (the processing of a pipeline outside a request's transaction). */
  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Whether a bridge already started its downstream pipeline. */
  async existsForSourceJob(bridgeId: number): Promise<boolean> {
    return this.dataSource.getRepository(CiPipelineEntity).existsBy({ sourceJobId: bridgeId });
  }

  /** A pipeline by id, in any project. */
  async findAnywhere(pipelineId: number): Promise<CiPipelineEntity | null> {
    return this.dataSource.getRepository(CiPipelineEntity).findOneBy({ id: pipelineId });
  }

  /** Whether the user is an administrator (a bridge's user, for its downstream project's access). */
  async isAdmin(userId: number): Promise<boolean> {
    const rows = (await this.dataSource.query('SELECT is_admin FROM users WHERE id = $1', [userId])) as { is_admin: boolean }[];
    return rows[0]?.is_admin === true;
  }

  /** Stores pipelines read from a project export in one statement, in the import's transaction; their ids, in order. */
  async insertImported(tx: EntityManager, pipelines: QueryDeepPartialEntity<CiPipelineEntity>[]): Promise<number[]> {
    const result = await tx.insert(CiPipelineEntity, pipelines);
    return result.identifiers.map((identifier) => identifier.id as number);
  }

  /** Stores one stage of an imported pipeline. */
  async insertImportedStage(tx: EntityManager, stage: QueryDeepPartialEntity<CiStageEntity>): Promise<void> {
    await tx.insert(CiStageEntity, stage);
  }

  /** Stores jobs of imported pipelines in one statement. */
  async insertImportedJobs(tx: EntityManager, jobs: QueryDeepPartialEntity<CiJobEntity>[]): Promise<void> {
    await tx.insert(CiJobEntity, jobs);
  }
}
