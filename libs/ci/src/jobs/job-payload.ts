import type { VariableMap } from '../config/ci-config.types';
import type { CiJobEntity } from '../entities/ci-job.entity';
import type { CiRunnerEntity } from '../entities/ci-runner.entity';

/** One variable as the runner reads it. */
export interface RunnerVariable {
  key: string;
  value: string;
  public: boolean;
  masked: boolean;
  file?: boolean;
  raw?: boolean;
}

export interface JobDependency {
  id: number;
  name: string;
  artifactsFile: { filename: string; size: number } | null;
}

export interface JobPayloadInput {
  job: CiJobEntity;
  token: string;
  runner: CiRunnerEntity;
  externalUrl: string;
  projectFullPath: string;
  projectName: string;
  pipeline: { id: number; beforeSha: string; predefined: VariableMap };
  pipelineVariables: { key: string; value: string; variableType: string }[];
  dependencies: JobDependency[];
  /** Seconds the job waited in the queue. */
  queuedSeconds: number;
  queueSize: number;
  gitDepth: number;
}

/** The failure reasons a runner may report (`features.failure_reasons`). */
export const RUNNER_FAILURE_REASONS = [
  'unknown_failure',
  'script_failure',
  'api_failure',
  'stuck_or_timeout_failure',
  'runner_system_failure',
  'missing_dependency_failure',
  'runner_unsupported',
  'stale_schedule',
  'job_execution_timeout',
  'archived_failure',
  'unmet_prerequisites',
  'scheduler_failure',
  'data_integrity_failure',
  'forward_deployment_failure',
  'user_blocked',
  'project_deleted',
  'insufficient_bridge_permissions',
  'downstream_bridge_project_not_found',
  'invalid_bridge_trigger',
  'bridge_pipeline_is_child_pipeline',
  'downstream_pipeline_creation_failed',
  'secrets_provider_not_found',
  'reached_max_descendant_pipelines_depth',
  'ip_restriction_failure',
] as const;

/** Report types uploaded as gzip (others as raw files), as GitLab's job request entity says. */
const GZIP_REPORTS = new Set(['junit', 'metrics', 'cobertura', 'coverage_report']);

/** The seconds a runner may run the job: the job's timeout capped by the runner's maximum. */
export function effectiveTimeout(job: Pick<CiJobEntity, 'timeout'>, runner: Pick<CiRunnerEntity, 'maximumTimeout'>): number {
  const own = job.timeout ?? 3600;
  return runner.maximumTimeout ? Math.min(own, runner.maximumTimeout) : own;
}

const variable = (key: string, value: string, options: Partial<RunnerVariable> = {}): RunnerVariable => ({
  key,
  value,
  public: true,
  masked: false,
  ...options,
});

/**
 * The job as `POST /jobs/request` answers it (GitLab's `Entities::Ci::JobRequest::Response`, the
 * `JobResponse` of gitlab-runner): field names are the runner's own.
 */
export function buildJobPayload(input: JobPayloadInput): Record<string, unknown> {
  const { job, token, runner, externalUrl } = input;
  const options = job.options;
  const timeout = effectiveTimeout(job, runner);
  const server = new URL(externalUrl);
  const repoUrl = `${server.protocol}//gitlab-ci-token:${token}@${server.host}${server.pathname.replace(/\/+$/, '')}/${input.projectFullPath}.git`;
  const jobVariables: RunnerVariable[] = [
    ...Object.entries(input.pipeline.predefined).map(([key, value]) => variable(key, value)),
    variable('CI_JOB_ID', String(job.id)),
    variable('CI_JOB_NAME', job.name),
    variable(
      'CI_JOB_NAME_SLUG',
      job.name
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '-')
        .slice(0, 63)
        .replace(/^-+|-+$/g, ''),
    ),
    variable('CI_JOB_STAGE', job.stage),
    variable('CI_JOB_URL', `${externalUrl}/${input.projectFullPath}/-/jobs/${job.id}`),
    variable('CI_JOB_STARTED_AT', (job.startedAt ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z')),
    variable('CI_JOB_TIMEOUT', String(timeout)),
    variable('CI_JOB_TOKEN', token, { public: false, masked: true }),
    variable('CI_BUILD_TOKEN', token, { public: false, masked: true }),
    variable('CI_REPOSITORY_URL', repoUrl, { public: false, masked: false }),
    variable('CI_RUNNER_ID', String(runner.id)),
    variable('CI_RUNNER_DESCRIPTION', runner.description),
    variable('CI_RUNNER_TAGS', JSON.stringify(runner.tagList)),
    variable('CI_NODE_TOTAL', '1'),
    variable('CI_PIPELINE_URL', `${externalUrl}/${input.projectFullPath}/-/pipelines/${job.pipelineId}`),
    variable('GIT_DEPTH', String(input.gitDepth)),
    ...Object.entries(job.yamlVariables).map(([key, value]) => variable(key, value)),
    ...input.pipelineVariables.map((v) => variable(v.key, v.value, { file: v.variableType === 'file' })),
  ];
  const refspecs = job.tag
    ? [`+refs/tags/${job.ref}:refs/tags/${job.ref}`]
    : job.ref.startsWith('refs/merge-requests/')
      ? [`+${job.ref}:refs/remotes/origin/${job.ref.slice('refs/'.length)}`]
      : [`+refs/heads/${job.ref}:refs/remotes/origin/${job.ref}`];
  const steps: Record<string, unknown>[] = [
    { name: 'script', script: [...(options.beforeScript ?? []), ...(options.script ?? [])], timeout, when: 'on_success', allow_failure: false },
  ];
  if (options.afterScript && options.afterScript.length > 0)
    steps.push({ name: 'after_script', script: options.afterScript, timeout, when: 'always', allow_failure: true });
  const artifacts: Record<string, unknown>[] = [];
  const declared = options.artifacts;
  if (declared && (declared.paths.length > 0 || declared.untracked)) {
    artifacts.push({
      name: declared.name ?? null,
      untracked: declared.untracked,
      paths: declared.paths,
      exclude: declared.exclude,
      when: declared.when,
      expire_in: declared.expireIn,
      artifact_type: 'archive',
      artifact_format: 'zip',
    });
  }
  for (const [type, files] of Object.entries(declared?.reports ?? {})) {
    const paths = Array.isArray(files) ? (files as string[]) : [];
    if (paths.length === 0) continue;
    artifacts.push({
      name: type,
      untracked: false,
      paths,
      exclude: [],
      when: 'always',
      expire_in: declared?.expireIn ?? null,
      artifact_type: type,
      artifact_format: GZIP_REPORTS.has(type) ? 'gzip' : 'raw',
    });
  }
  const image = options.image
    ? {
        name: options.image.name,
        alias: null,
        entrypoint: options.image.entrypoint ?? null,
        command: null,
        ports: [],
        pull_policy: options.image.pull_policy ?? null,
      }
    : null;
  return {
    id: job.id,
    token,
    allow_git_fetch: true,
    job_info: {
      id: job.id,
      name: job.name,
      stage: job.stage,
      project_id: job.projectId,
      project_name: input.projectName,
      time_in_queue_seconds: input.queuedSeconds,
      project_jobs_running_on_instance_runners_count: '0',
      queue_size: input.queueSize,
      queue_depth: 0,
    },
    git_info: {
      repo_url: repoUrl,
      repo_object_format: 'sha1',
      ref: job.ref,
      sha: job.sha,
      before_sha: input.pipeline.beforeSha,
      ref_type: job.tag ? 'tag' : 'branch',
      refspecs,
      depth: input.gitDepth,
      protected: job.protected,
    },
    runner_info: { timeout, runner_session_url: null },
    variables: jobVariables,
    steps,
    image,
    services: (options.services ?? []).map((service) => ({
      name: service.name,
      alias: service.alias ?? null,
      entrypoint: service.entrypoint ?? null,
      command: service.command ?? null,
      ports: [],
      variables: Object.entries(service.variables ?? {}).map(([key, value]) => variable(key, value)),
    })),
    artifacts,
    cache: (options.cache ?? []).flatMap((entry) => {
      if (typeof entry !== 'object' || entry === null) return [];
      const cache = entry as Record<string, unknown>;
      return [
        {
          key: typeof cache.key === 'string' ? cache.key : 'default',
          untracked: cache.untracked === true,
          policy: typeof cache.policy === 'string' ? cache.policy : 'pull-push',
          paths: Array.isArray(cache.paths) ? cache.paths : [],
          when: typeof cache.when === 'string' ? cache.when : 'on_success',
          fallback_keys: [],
        },
      ];
    }),
    credentials: [],
    dependencies: input.dependencies.map((dependency) => ({
      id: dependency.id,
      name: dependency.name,
      token,
      ...(dependency.artifactsFile ? { artifacts_file: dependency.artifactsFile } : {}),
    })),
    features: { trace_sections: true, failure_reasons: RUNNER_FAILURE_REASONS },
    hooks: [],
  };
}
