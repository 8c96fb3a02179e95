import { Injectable } from '@nestjs/common';
import { CiJobEntity, CiPipelineEntity, CiStageEntity, JOB_STATUSES, JobStatus, PipelinesRepository } from '@app/ci';
import { In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { NdjsonWriter } from '../archive/ndjson';
import { eachPage } from './export-pages';
import { array, bool, date, int, InvalidRecord, iso, oneOf, Row, str } from './record-fields';
import { IMPORT_BATCH, type RelationExportContext, type RelationImportContext, type TransferRelation } from './transfer-relation';

/** Pipelines per page: each carries its stages and jobs. */
export const PIPELINE_PAGE = 50;

type ImportedPipeline = QueryDeepPartialEntity<CiPipelineEntity> & { createdAt: Date; ref: string; sha: string; tag: boolean; protected: boolean };

/**
 * `ci_pipelines`, with their `stages`, each with its jobs as `statuses` carrying their `type`
 * (`Ci::Build`, `Ci::Bridge`), `options` `{script, before_script, after_script}` and
 * `yaml_variables`; as GitLab, no trace, token, runner, commands or artifacts. On import a
 * pipeline, stage or job that had not finished is `canceled`: it cannot run here.
 */
@Injectable()
export class CiPipelinesRelation implements TransferRelation {
  readonly name = 'ci_pipelines';

  constructor(private readonly pipelines: PipelinesRepository) {}

  export(ctx: RelationExportContext, writer: NdjsonWriter): Promise<void> {
    const projectId = ctx.project.id;
    return eachPage(
      ctx.manager,
      CiPipelineEntity,
      { projectId },
      async (pipelines) => {
        const ids = pipelines.map((p) => p.id);
        const stages = await ctx.manager.find(CiStageEntity, { where: { pipelineId: In(ids) }, order: { position: 'ASC', id: 'ASC' } });
        const jobs = await ctx.manager.find(CiJobEntity, { where: { pipelineId: In(ids) }, order: { id: 'ASC' } });
        for (const p of pipelines) {
          const own = jobs.filter((j) => j.pipelineId === p.id);
          await writer.write({
            id: p.id,
            iid: p.iid,
            project_id: projectId,
            ref: p.ref,
            sha: p.sha,
            before_sha: p.beforeSha,
            tag: p.tag,
            protected: p.protected,
            yaml_errors: p.yamlErrors,
            status: p.status,
            source: p.source,
            user_id: p.userId,
            failure_reason: p.failureReason,
            started_at: iso(p.startedAt),
            finished_at: iso(p.finishedAt),
            committed_at: iso(p.committedAt),
            duration: p.duration,
            created_at: iso(p.createdAt),
            updated_at: iso(p.updatedAt),
            // GitLab nests the jobs (`statuses`, with their `type`) in their stage.
            stages: stagesOf(
              stages.filter((st) => st.pipelineId === p.id),
              own,
            ).map((st) => ({
              name: st.name,
              position: st.position,
              status: st.status,
              project_id: projectId,
              statuses: own.filter((j) => j.stage === st.name).map((j) => jobRecord(j, projectId)),
            })),
          });
        }
      },
      PIPELINE_PAGE,
    );
  }

  async import(ctx: RelationImportContext, records: Row[]): Promise<void> {
    const rows = records.map((record): ImportedPipeline => {
      const iid = int(record.iid);
      const sha = str(record.sha, 64);
      const ref = str(record.ref, 255);
      if (iid === null || !sha || !ref) throw new InvalidRecord("Validation failed: Iid, sha and ref can't be blank");
      ctx.track('ci_pipelines', iid);
      const created = date(record.created_at) ?? new Date();
      return {
        iid,
        projectId: ctx.project.id,
        status: finishedStatus(record.status),
        source: (str(record.source, 40) ?? 'push') as never,
        ref,
        sha,
        beforeSha: str(record.before_sha, 64) ?? '0000000000000000000000000000000000000000',
        tag: bool(record.tag),
        protected: bool(record.protected),
        yamlErrors: str(record.yaml_errors),
        userId: ctx.user(record.user_id),
        failureReason: str(record.failure_reason, 60),
        startedAt: date(record.started_at),
        finishedAt: date(record.finished_at),
        committedAt: date(record.committed_at),
        duration: int(record.duration),
        createdAt: created,
        updatedAt: date(record.updated_at) ?? created,
      };
    });
    const ids = await this.pipelines.insertImported(ctx.tx, rows);
    ctx.count('ci_pipelines', rows.length);
    for (const [index, record] of records.entries()) {
      await this.importStages(ctx, record, ids[index], rows[index]);
      // Pipeline notes, external pull requests, …: not kept here.
      for (const [key, value] of Object.entries(record))
        if (key !== 'stages' && Array.isArray(value) && value.length > 0) ctx.skip(`ci_pipelines.${key}`, value.length);
    }
  }

  /**
   * The stages of a pipeline and their jobs, as GitLab nests them (`stages[].statuses`, or
   * `builds` / `bridges` / `generic_commit_statuses` in later versions). Builds and bridges are
   * taken; generic commit statuses are skipped and counted. A job that had not finished cannot
   * run here (no runner, no token, no trace): it is imported `canceled`.
   */
  private async importStages(ctx: RelationImportContext, record: Row, pipelineId: number, pipeline: ImportedPipeline): Promise<void> {
    const jobs: QueryDeepPartialEntity<CiJobEntity>[] = [];
    for (const [index, stage] of array(record.stages).entries()) {
      const name = str(stage.name, 255);
      if (!name) throw new InvalidRecord("Validation failed: Stage name can't be blank");
      const position = int(stage.position) ?? index;
      await this.pipelines.insertImportedStage(ctx.tx, { pipelineId, name, position, status: finishedStatus(stage.status) });
      ctx.count('ci_stages');
      const statuses = [...array(stage.statuses), ...array(stage.builds), ...array(stage.bridges)];
      const generic = array(stage.generic_commit_statuses).length + statuses.filter((s) => s.type === 'GenericCommitStatus').length;
      if (generic) ctx.skip('ci_pipelines.stages.generic_commit_statuses', generic);
      for (const status of statuses) {
        if (status.type === 'GenericCommitStatus') continue;
        const jobName = str(status.name, 255);
        if (!jobName) throw new InvalidRecord("Validation failed: Name can't be blank");
        const options = (typeof status.options === 'object' && status.options !== null ? status.options : {}) as Row;
        const lines = (value: unknown): string[] | undefined =>
          Array.isArray(value) && value.every((line) => typeof line === 'string') ? (value as string[]) : undefined;
        const created = date(status.created_at) ?? pipeline.createdAt;
        const variables = Array.isArray(status.yaml_variables) ? array(status.yaml_variables) : [];
        jobs.push({
          projectId: ctx.project.id,
          pipelineId,
          type: status.type === 'Ci::Bridge' ? 'bridge' : 'build',
          name: jobName,
          stage: name,
          stageIdx: int(status.stage_idx) ?? position,
          status: finishedStatus(status.status),
          when: oneOf(status.when, ['on_success', 'on_failure', 'always', 'manual', 'delayed', 'never'], 'on_success'),
          allowFailure: bool(status.allow_failure),
          needs: null,
          options: { script: lines(options.script), beforeScript: lines(options.before_script), afterScript: lines(options.after_script) },
          yamlVariables: Object.fromEntries(variables.filter((v) => typeof v.key === 'string' && typeof v.value === 'string').map((v) => [v.key, v.value])),
          tagList: [],
          ref: str(status.ref, 255) ?? pipeline.ref,
          sha: pipeline.sha,
          tag: bool(status.tag, pipeline.tag),
          protected: bool(status.protected, pipeline.protected),
          retried: bool(status.retried),
          failureReason: str(status.failure_reason, 60),
          coverage:
            typeof status.coverage === 'number' && Number.isFinite(status.coverage) && status.coverage >= 0 && status.coverage <= 100
              ? status.coverage.toFixed(2)
              : null,
          userId: ctx.user(status.user_id),
          createdAt: created,
          updatedAt: date(status.updated_at) ?? created,
          queuedAt: date(status.queued_at),
          startedAt: date(status.started_at),
          finishedAt: date(status.finished_at),
          erasedAt: date(status.erased_at),
          artifactsExpireAt: null,
        } as QueryDeepPartialEntity<CiJobEntity>);
      }
    }
    for (let i = 0; i < jobs.length; i += IMPORT_BATCH) await this.pipelines.insertImportedJobs(ctx.tx, jobs.slice(i, i + IMPORT_BATCH));
    if (jobs.length) ctx.count('ci_jobs', jobs.length);
  }
}

/** A finished status as it was; any other (the job would wait for a runner here) becomes `canceled`. */
function finishedStatus(value: unknown): JobStatus {
  const status = oneOf(value, JOB_STATUSES, 'canceled');
  return ['success', 'failed', 'canceled', 'skipped'].includes(status) ? status : 'canceled';
}

/** The pipeline's stages, with one made up from its jobs for a stage that has no row. */
function stagesOf(stages: CiStageEntity[], jobs: CiJobEntity[]): Array<Pick<CiStageEntity, 'name' | 'position' | 'status'>> {
  const all: Array<Pick<CiStageEntity, 'name' | 'position' | 'status'>> = [...stages];
  for (const job of jobs) if (!all.some((st) => st.name === job.stage)) all.push({ name: job.stage, position: job.stageIdx, status: job.status });
  return all.sort((a, b) => a.position - b.position);
}

/** A job as GitLab exports a commit status (trace, token, runner, commands and artifacts left out, as GitLab does). */
function jobRecord(j: CiJobEntity, projectId: number): Record<string, unknown> {
  return {
    id: j.id,
    type: j.type === 'bridge' ? 'Ci::Bridge' : 'Ci::Build',
    project_id: projectId,
    name: j.name,
    stage: j.stage,
    stage_idx: j.stageIdx,
    status: j.status,
    ref: j.ref,
    tag: j.tag,
    protected: j.protected,
    allow_failure: j.allowFailure,
    retried: j.retried,
    failure_reason: j.failureReason,
    coverage: j.coverage === null ? null : Number(j.coverage),
    user_id: j.userId,
    options: { script: j.options.script ?? [], before_script: j.options.beforeScript ?? [], after_script: j.options.afterScript ?? [] },
    yaml_variables: Object.entries(j.yamlVariables ?? {}).map(([key, value]) => ({ key, value, public: true })),
    when: j.when,
    created_at: iso(j.createdAt),
    updated_at: iso(j.updatedAt),
    queued_at: iso(j.queuedAt),
    started_at: iso(j.startedAt),
    finished_at: iso(j.finishedAt),
    erased_at: iso(j.erasedAt),
    artifacts_expire_at: iso(j.artifactsExpireAt),
  };
}
