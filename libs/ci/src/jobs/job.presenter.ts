import { presentUser, UserEntity } from '@app/identity';
import { presentCommit, type GitCommit } from '@app/repository';
import type { CiJobArtifactEntity } from '../entities/ci-job-artifact.entity';
import type { CiJobEntity } from '../entities/ci-job.entity';
import type { CiPipelineEntity } from '../entities/ci-pipeline.entity';
import type { CiRunnerEntity } from '../entities/ci-runner.entity';
import { presentRunner } from './runner.presenter';
import { iso, pipelineWebUrl, presentPipelineBasic } from '../pipelines/pipeline.presenter';

/** What a job view needs besides the job row (loaded in batches by `JobViews`). */
export interface JobContext {
  externalUrl: string;
  projectFullPath: string;
  pipeline: CiPipelineEntity;
  commit: GitCommit | null;
  user: UserEntity | null;
  runner: CiRunnerEntity | null;
  artifacts: CiJobArtifactEntity[];
  /** Bridges: the pipeline they started. */
  downstream?: { pipeline: CiPipelineEntity; projectFullPath: string } | null;
  /** Builds: why the pending build is stuck (no online runner can take it), null when it is not. */
  stuckReason?: string | null;
}

export const jobWebUrl = (externalUrl: string, projectFullPath: string, jobId: number): string => `${externalUrl}/${projectFullPath}/-/jobs/${jobId}`;

/** Seconds with milliseconds, as GitLab's `duration` of a job (float). */
const secondsFloat = (from: Date | null, to: Date | null): number | null => (from && to ? Math.max(0, (to.getTime() - from.getTime()) / 1000) : null);

/** GitLab's `duration`: until now while the job runs. */
export function jobDuration(job: Pick<CiJobEntity, 'startedAt' | 'finishedAt'>, now = new Date()): number | null {
  return job.startedAt ? secondsFloat(job.startedAt, job.finishedAt ?? now) : null;
}

/** GitLab's `queued_duration`: from queued to started (to now while pending). */
export function jobQueuedDuration(job: Pick<CiJobEntity, 'queuedAt' | 'startedAt'>, now = new Date()): number | null {
  return job.queuedAt ? secondsFloat(job.queuedAt, job.startedAt ?? now) : null;
}

/**
 * A job's commit: GitLab's `Entities::Commit`, as branches present it (with `web_url` and the
 * trailers), or its sha alone when the repository no longer has the commit.
 */
function presentJobCommit(commit: GitCommit | null, sha: string, projectWebUrl: string): Record<string, unknown> {
  if (commit) return presentCommit(commit, projectWebUrl);
  return {
    id: sha,
    short_id: sha.slice(0, 8),
    created_at: null,
    parent_ids: [],
    title: null,
    message: null,
    author_name: null,
    author_email: null,
    authored_date: null,
    committer_name: null,
    committer_email: null,
    committed_date: null,
  };
}

/** GitLab's `JobBasic`: what builds and bridges share. */
function presentJobBasic(job: CiJobEntity, context: JobContext): Record<string, unknown> {
  return {
    id: job.id,
    status: job.status,
    stage: job.stage,
    name: job.name,
    ref: job.ref,
    tag: job.tag,
    coverage: job.coverage === null ? null : Number(job.coverage),
    allow_failure: job.allowFailure,
    created_at: iso(job.createdAt),
    started_at: iso(job.startedAt),
    finished_at: iso(job.finishedAt),
    erased_at: iso(job.erasedAt),
    duration: jobDuration(job),
    queued_duration: jobQueuedDuration(job),
    user: context.user ? presentUser(context.user, 'public', context.externalUrl) : null,
    commit: presentJobCommit(context.commit, job.sha, `${context.externalUrl}/${context.projectFullPath}`),
    pipeline: presentPipelineBasic(context.pipeline, context.projectFullPath, context.externalUrl),
    ...(job.status === 'failed' ? { failure_reason: job.failureReason ?? 'unknown_failure' } : {}),
    web_url: jobWebUrl(context.externalUrl, context.projectFullPath, job.id),
    project: { ci_job_token_scope_enabled: false },
  };
}

/**
 * GitLab's `Entities::Ci::Job` (a build): the basic fields, artifacts, runner, tags; plus the
 * service's `stuck` (GitLab's `Ci::Build#stuck?`, a GraphQL field there) and `stuck_reason` (the
 * text of GitLab's job page, null when not stuck).
 */
export function presentJob(job: CiJobEntity, context: JobContext): Record<string, unknown> {
  const visible = job.erasedAt ? [] : context.artifacts;
  const archive = visible.find((artifact) => artifact.fileType === 'archive');
  return {
    ...presentJobBasic(job, context),
    ...(archive ? { artifacts_file: { filename: archive.filename, size: Number(archive.size) } } : {}),
    artifacts: visible.map((artifact) => ({
      file_type: artifact.fileType,
      size: Number(artifact.size),
      filename: artifact.filename,
      file_format: artifact.fileFormat,
    })),
    runner: context.runner ? presentRunner(context.runner) : null,
    runner_manager: null,
    artifacts_expire_at: iso(job.artifactsExpireAt),
    archived: false,
    tag_list: job.tagList,
    stuck: Boolean(context.stuckReason),
    stuck_reason: context.stuckReason ?? null,
  };
}

/** GitLab's `Entities::Ci::Bridge`: the basic fields and the pipeline it started (or null). */
export function presentBridge(job: CiJobEntity, context: JobContext): Record<string, unknown> {
  const downstream = context.downstream;
  return {
    ...presentJobBasic(job, context),
    downstream_pipeline: downstream
      ? {
          id: downstream.pipeline.id,
          iid: downstream.pipeline.iid,
          project_id: downstream.pipeline.projectId,
          sha: downstream.pipeline.sha,
          ref: downstream.pipeline.ref,
          status: downstream.pipeline.status,
          source: downstream.pipeline.source,
          created_at: iso(downstream.pipeline.createdAt),
          updated_at: iso(downstream.pipeline.updatedAt),
          web_url: pipelineWebUrl(context.externalUrl, downstream.projectFullPath, downstream.pipeline.id),
        }
      : null,
  };
}
