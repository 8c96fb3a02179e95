import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import type { JobStatus } from '../status/ci-status';
import { CiJobArtifactEntity } from '../entities/ci-job-artifact.entity';
import { CiJobTraceEntity } from '../entities/ci-job-trace.entity';
import { CiJobEntity } from '../entities/ci-job.entity';
import type { CiRunnerEntity } from '../entities/ci-runner.entity';
import type { CiVariableType } from '../entities/ci-pipeline-variable.entity';
import { digestSecret, RUNNER_ONLINE_SECONDS } from '../entities/runner-tokens';
import { hydrate } from '../entities/hydrate';
import { PreparedStatement, queryPrepared } from '@app/database';
import type { CiEventScope } from '../events/ci.events';
import type { RunnerCoverage } from './stuck';

/** The project's group (event scope), full path and name (job payload). */
export interface ProjectContext {
  groupId: number | null;
  fullPath: string;
  name: string;
}

/** A column with the project's context of a job row, read in the statement that reads the job. */
const PROJECT_CONTEXT_SQL = (projectIdColumn: string) =>
  `(SELECT json_build_object('group_id', CASE WHEN n.kind = 'group' THEN n.id END, 'full_path', n.full_path || '/' || p.path, 'name', p.name)
      FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE p.id = ${projectIdColumn}) AS project_context`;

function projectContextOf(row: Record<string, unknown>): ProjectContext {
  const context = (row.project_context ?? {}) as { group_id?: number | null; full_path?: string; name?: string };
  return { groupId: context.group_id ?? null, fullPath: context.full_path ?? '', name: context.name ?? '' };
}

/** SQL: project `p` lets instance runners take its jobs (`shared_runners_enabled`, true unless set false). */
const SHARED_RUNNERS_ENABLED_SQL = (p: string): string => `(${p}.settings->>'shared_runners_enabled') IS DISTINCT FROM 'false'`;
/** SQL: project `p` lets its groups' runners take its jobs (`group_runners_enabled`, true unless set false). */
const GROUP_RUNNERS_ENABLED_SQL = (p: string): string => `(${p}.settings->>'group_runners_enabled') IS DISTINCT FROM 'false'`;

/**
 * SQL: a runner with these tags takes a job with those: every tag of the job among the runner's,
 * and an untagged job only when the runner runs untagged jobs. The assignment and the "stuck"
 * check share it.
 */
const runnerTakesTagsSql = (jobTags: string, runnerTags: string, runUntagged: string): string =>
  `${jobTags} <@ ${runnerTags} AND (${runUntagged} OR cardinality(${jobTags}) > 0)`;

/** SQL: runner `r` may run job `job` as far as protection goes: a `ref_protected` runner takes only jobs of protected refs (GitLab's `access_level`). */
const runnerTakesProtectionSql = (job: string): string => `(r.access_level <> 'ref_protected' OR ${job}.protected)`;

/**
 * SQL: runner `r` may run the jobs of project `p` (namespace `n`), as the assignment decides:
 * project runners their projects, group runners the projects below their group unless the
 * project turned group runners off, instance runners every project that did not turn them off.
 */
const runnerServesProjectSql = `((r.runner_type = 'instance_type' AND ${SHARED_RUNNERS_ENABLED_SQL('p')})
  OR (r.runner_type = 'group_type' AND r.group_id = ANY(n.traversal_ids) AND ${GROUP_RUNNERS_ENABLED_SQL('p')})
  OR (r.runner_type = 'project_type' AND EXISTS (SELECT 1 FROM ci_runner_projects rp WHERE rp.runner_id = r.id AND rp.project_id = p.id)))`;

/** A pipeline variable as stored: its value sealed (or, for rows from before encryption, plain). */
export interface SealedPipelineVariable {
  key: string;
  variable_type: CiVariableType;
  value: string | null;
  encrypted_value: string | null;
}

/** A job of the pipeline that a claimed job may download artifacts from, with its archive. */
export interface DependencySource {
  id: number;
  name: string;
  type: string;
  stage_idx: number;
  filename: string | null;
  size: number | string | null;
}

/** A job given to a runner, with what its payload and events need. */
export interface ClaimedJob {
  job: CiJobEntity;
  project: ProjectContext;
  /** The pipeline's status before this job made it `running`; null when it already was. */
  pipelineStartedFrom: JobStatus | null;
  pipeline: { beforeSha: string; predefined: Record<string, string>; variables: SealedPipelineVariable[] } | null;
  /** The jobs of the job's stage and earlier ones (not retried), by id, each with its archive. */
  dependencySources: DependencySource[];
}

/**
 * The hot statement of the runner protocol: the claim of `JobsRepository.claimNextFor` for a type
 * of runner (its scope differs), `jobColumns(alias)` naming the columns of `ci_jobs`. Its text is
 * snapshotted (`__snapshots__/claim-statement.spec.ts.snap`), so that a change shows in review.
 *
 * The runner's own row is checked in the claim (not paused, and a `ref_protected` runner only
 * for protected jobs), since the gateway reuses a polling runner for a while; both checks are
 * uncorrelated subqueries, which PostgreSQL runs once per claim, not once per job it scans.
 */
export function claimStatement(runnerType: string, jobColumns: (from: string) => string): PreparedStatement {
  let scope = `(SELECT ${SHARED_RUNNERS_ENABLED_SQL('p')} FROM projects p WHERE p.id = j.project_id)`;
  if (runnerType === 'project_type') {
    scope = `j.project_id IN (SELECT rp.project_id FROM ci_runner_projects rp WHERE rp.runner_id = $3)`;
  } else if (runnerType === 'group_type') {
    scope = `j.project_id IN (SELECT p.id FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE $6 = ANY(n.traversal_ids) AND ${GROUP_RUNNERS_ENABLED_SQL('p')})`;
  }
  return {
    name: `ci_claim_v2_${runnerType}`,
    text: `WITH claimed AS (
       UPDATE ci_jobs SET status = 'running', runner_id = $3, token_digest = $4, started_at = $5, last_contact_at = $5, updated_at = now()
        WHERE id = (
          SELECT j.id FROM ci_jobs j
           WHERE j.status = 'pending' AND j.type = 'build' AND ${scope}
             AND EXISTS (SELECT 1 FROM ci_runners r WHERE r.id = $3 AND NOT r.paused)
             AND (j.protected OR NOT EXISTS (SELECT 1 FROM ci_runners r WHERE r.id = $3 AND r.access_level = 'ref_protected'))
             AND ${runnerTakesTagsSql('j.tag_list', '$1::text[]', '$2')}
           ORDER BY j.id LIMIT 1 FOR UPDATE OF j SKIP LOCKED)
       RETURNING ${jobColumns('ci_jobs')}),
     locked AS (SELECT p.id, p.status FROM ci_pipelines p WHERE p.id = (SELECT pipeline_id FROM claimed) FOR UPDATE),
     stage AS (
       UPDATE ci_stages s SET status = 'running' FROM claimed c
        WHERE s.pipeline_id = (SELECT id FROM locked) AND s.name = c.stage AND s.status <> 'running' RETURNING s.id),
     started AS (
       UPDATE ci_pipelines p SET status = 'running', started_at = COALESCE(p.started_at, $5), finished_at = NULL, updated_at = now()
         FROM locked WHERE p.id = locked.id AND locked.status <> 'running' AND p.yaml_errors IS NULL
       RETURNING locked.status AS from_status)
     SELECT ${jobColumns('c')}, ${PROJECT_CONTEXT_SQL('c.project_id')},
            (SELECT from_status FROM started) AS pipeline_started_from,
            (SELECT json_build_object('before_sha', p.before_sha, 'predefined', p.predefined_variables, 'variables',
                      (SELECT json_agg(json_build_object('key', v.key, 'variable_type', v.variable_type, 'value', v.value, 'encrypted_value', v.encrypted_value) ORDER BY v.id)
                         FROM ci_pipeline_variables v WHERE v.pipeline_id = p.id))
               FROM ci_pipelines p WHERE p.id = c.pipeline_id) AS payload_pipeline,
            (SELECT json_agg(json_build_object('id', d.id, 'name', d.name, 'type', d.type, 'stage_idx', d.stage_idx, 'filename', a.filename, 'size', a.size) ORDER BY d.id, a.id)
               FROM ci_jobs d LEFT JOIN ci_job_artifacts a ON a.job_id = d.id AND a.file_type = 'archive'
              WHERE d.pipeline_id = c.pipeline_id AND d.retried = false AND d.id <> c.id AND d.stage_idx <= c.stage_idx) AS dependency_sources
       FROM claimed c`,
  };
}

const SAVE_FINISHED: PreparedStatement = {
  name: 'ci_job_save_finished_v1',
  text: `UPDATE ci_jobs SET status = $2, started_at = $3, finished_at = $4, exit_code = $5, failure_reason = $6, allow_failure = $7, coverage = $8, last_contact_at = $9, processed = $10, updated_at = now()
          WHERE id = $1`,
};

/** How long a count of pending jobs is reused for `queue_size`. */
const PENDING_COUNT_TTL_MS = 1000;

@Injectable()
export class JobsRepository {
  private pendingCount: { at: number; value: number } | null = null;
  /** Statements whose text is built once (from the entity's columns). */
  private readonly statements = new Map<string, PreparedStatement>();

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Gives the oldest pending build this runner may run (its projects, group or the instance;
   * every tag of the job among the runner's; untagged jobs only if the runner takes them) to the
   * runner, with what its payload and events need, in one statement (nothing when the runner was
   * deleted or paused meanwhile: the caller's copy may be a few seconds old):
   * - the row is locked with `SKIP LOCKED` (two runners asking at once never get the same job,
   *   and neither waits) and made `running` with the runner, the digest of its new token and the
   *   start time;
   * - its stage and pipeline become `running` (whatever their other jobs, a running job makes the
   *   composition `running`). The pipeline row is locked first, as its processing does, so that
   *   a concurrent processing never overwrites this with a status computed before the job
   *   started; the stage is updated by the pipeline id the lock returned, so only once it holds;
   * - the pipeline's `before_sha`, predefined variables and variables (sealed), and the jobs of
   *   its stage and earlier ones with their archives (the job's dependencies are among them:
   *   `needs` and `dependencies` name no later stage).
   * Null when there is none.
   */
  async claimNextFor(tx: EntityManager, runner: CiRunnerEntity, tokenDigest: string, now: Date): Promise<ClaimedJob | null> {
    const params: unknown[] = [runner.tagList, runner.runUntagged, runner.id, tokenDigest, now];
    if (runner.runnerType === 'group_type') params.push(runner.groupId);
    const rows = await queryPrepared(tx, this.claimStatement(runner.runnerType), params);
    const row = rows[0];
    if (!row) return null;
    const pipeline = row.payload_pipeline as {
      before_sha: string;
      predefined: Record<string, string> | null;
      variables: SealedPipelineVariable[] | null;
    } | null;
    return {
      job: hydrate(tx, CiJobEntity, row),
      project: projectContextOf(row),
      pipelineStartedFrom: (row.pipeline_started_from as JobStatus | null) ?? null,
      pipeline: pipeline ? { beforeSha: pipeline.before_sha, predefined: pipeline.predefined ?? {}, variables: pipeline.variables ?? [] } : null,
      dependencySources: (row.dependency_sources as DependencySource[] | null) ?? [],
    };
  }

  /** The claim of `claimNextFor` for a type of runner (its scope differs), prepared. */
  private claimStatement(runnerType: string): PreparedStatement {
    return this.statement(`claim:${runnerType}`, () => claimStatement(runnerType, (from) => this.jobColumns(from)));
  }

  private statement(key: string, build: () => PreparedStatement): PreparedStatement {
    let statement = this.statements.get(key);
    if (!statement) this.statements.set(key, (statement = build()));
    return statement;
  }

  /** The columns of `ci_jobs` (named, not `*`: see `PreparedStatement`), of the table or alias `from`. */
  private jobColumns(from: string): string {
    return this.dataSource
      .getMetadata(CiJobEntity)
      .columns.map((column) => `${from}."${column.databaseName}"`)
      .join(', ');
  }

  /**
   * The job of this job token, locked for the rest of the transaction (in any state: the caller
   * decides what the state allows), with its project's context. Null for a wrong id or token.
   */
  async lockByToken(tx: EntityManager, id: number, token: string): Promise<{ job: CiJobEntity; project: ProjectContext } | null> {
    if (!token) return null;
    const statement = this.statement('lock-by-token', () => ({
      name: 'ci_job_lock_by_token_v1',
      text: `SELECT ${this.jobColumns('j')}, ${PROJECT_CONTEXT_SQL('j.project_id')} FROM ci_jobs j WHERE j.id = $1 AND j.token_digest = $2 FOR UPDATE OF j`,
    }));
    const rows = await queryPrepared(tx, statement, [id, digestSecret(token)]);
    return rows[0] ? { job: hydrate(tx, CiJobEntity, rows[0]), project: projectContextOf(rows[0]) } : null;
  }

  /**
   * For each of these (pending) jobs, whether an online runner can take it and whether any active
   * runner may run its project's jobs at all (what "stuck" and its reason need): one query for a
   * page of jobs. A runner is online when it asked for jobs in the last 2 hours.
   */
  async runnerCoverage(jobIds: number[], now = new Date()): Promise<Map<number, RunnerCoverage>> {
    if (jobIds.length === 0) return new Map();
    const rows = (await this.dataSource.query(
      `SELECT j.id,
              EXISTS (SELECT 1 FROM ci_runners r WHERE NOT r.paused AND ${runnerServesProjectSql} AND ${runnerTakesProtectionSql('j')}
                        AND r.contacted_at >= $2 AND ${runnerTakesTagsSql('j.tag_list', 'r.tag_list', 'r.run_untagged')}) AS online,
              EXISTS (SELECT 1 FROM ci_runners r WHERE NOT r.paused AND ${runnerServesProjectSql} AND ${runnerTakesProtectionSql('j')}) AS available
       FROM ci_jobs j JOIN projects p ON p.id = j.project_id JOIN namespaces n ON n.id = p.namespace_id
       WHERE j.id = ANY($1::int[])`,
      [jobIds, new Date(now.getTime() - RUNNER_ONLINE_SECONDS * 1000)],
    )) as { id: number; online: boolean; available: boolean }[];
    return new Map(rows.map((row) => [row.id, { online: row.online, available: row.available }]));
  }

  /**
   * The number of pending builds (the payload's `queue_size`, informational for the runner):
   * counted at most once a second per process, not for every job given out.
   */
  async countPending(): Promise<number> {
    const now = Date.now();
    if (this.pendingCount && now - this.pendingCount.at < PENDING_COUNT_TTL_MS) return this.pendingCount.value;
    this.pendingCount = { at: now, value: this.pendingCount?.value ?? 0 };
    const rows = (await this.dataSource.query(`SELECT count(*)::int AS n FROM ci_jobs WHERE status = 'pending' AND type = 'build'`)) as { n: number }[];
    this.pendingCount = { at: Date.now(), value: rows[0].n };
    return rows[0].n;
  }

  /**
   * Writes what ending a job changes (status, times, exit code, failure, coverage), without
   * reading the row again; `processed` false when its pipeline is processed after the commit.
   */
  async saveFinished(tx: EntityManager, job: CiJobEntity): Promise<void> {
    await queryPrepared(tx, SAVE_FINISHED, [
      job.id,
      job.status,
      job.startedAt,
      job.finishedAt,
      job.exitCode,
      job.failureReason,
      job.allowFailure,
      job.coverage,
      job.lastContactAt,
      job.processed,
    ]);
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
  list(filter: {
    projectId: number;
    pipelineId?: number;
    type: 'build' | 'bridge';
    statuses?: JobStatus[];
    includeRetried: boolean;
  }): SelectQueryBuilder<CiJobEntity> {
    const qb = this.dataSource
      .getRepository(CiJobEntity)
      .createQueryBuilder('j')
      .where('j.project_id = :projectId', { projectId: filter.projectId })
      .andWhere('j.type = :type', { type: filter.type });
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

  /** The event scope of a project: its id and its group (null under a user namespace). */
  async scopeOf(tx: EntityManager, projectId: number): Promise<CiEventScope> {
    const rows = (await tx.query(`SELECT n.id, n.kind FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE p.id = $1`, [projectId])) as {
      id: number;
      kind: string;
    }[];
    return { projectId, groupId: rows[0]?.kind === 'group' ? rows[0].id : null };
  }

  /** A runner's `running` heartbeat (`PUT /jobs/:id`): the job's last contact. */
  async touchContact(tx: EntityManager, jobId: number, at: Date): Promise<void> {
    await tx.query('UPDATE ci_jobs SET last_contact_at = $2, updated_at = now() WHERE id = $1', [jobId, at]);
  }

  /** Inserts a new job (a retry's next attempt) and returns the saved row. */
  async insertJob(tx: EntityManager, fields: Partial<CiJobEntity>): Promise<CiJobEntity> {
    const repository = tx.getRepository(CiJobEntity);
    return repository.save(repository.create(fields));
  }
}
