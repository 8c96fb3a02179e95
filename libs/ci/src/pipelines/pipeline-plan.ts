import type { CiConfig, CiConfigResult, VariableMap } from '../config/ci-config.types';
import { yamlErrorsText } from '../config/ci-config-parser';
import { PipelineSource, SeededJob, seedPipeline } from '../config/pipeline-seed';
import type { CiJobOptions } from '../entities/ci-job-options';
import type { CiJobEntity } from '../entities/ci-job.entity';
import type { CiVariableType } from '../entities/ci-pipeline-variable.entity';
import type { ResolvedRef } from '../git/ci-repository-reader';
import { MergeRequestForPipeline, mergeRequestRef } from './merge-request-pipelines';
import { PredefinedPipelineInput, predefinedPipelineVariables } from './predefined-variables';

/**
 * The decision of pipeline creation, without I/O: `CreatePipelineUseCase` reads what the decision
 * needs (`PipelineInputs`), `planPipeline` decides what is created (`PipelinePlan`), and the use
 * case writes it.
 */

/** Seconds a job may run when neither it nor the project says (GitLab's project default). */
export const DEFAULT_JOB_TIMEOUT = 3600;

export interface PipelineVariableInput {
  key: string;
  value: string;
  variable_type?: CiVariableType;
}

/** What the predefined variables of the pipeline are made of (`pipelineVariables`). */
export interface PipelineContext {
  source: PipelineSource;
  ref: ResolvedRef;
  beforeSha: string;
  /** When the pipeline is created (its `created_at`, `CI_PIPELINE_CREATED_AT`). */
  createdAt: Date;
  /** GitLab's `protected_ref?`: a branch covered by a protected branch rule (a merge request's ref never is). */
  protectedRef: boolean;
  externalUrl: string;
  project: PredefinedPipelineInput['project'];
  commit: PredefinedPipelineInput['commit'];
  /** The commit's date (the pipeline's `committed_at`). */
  committedAt: Date | null;
  user: PredefinedPipelineInput['user'];
  /** A merge request pipeline: its merge request, the merge base with the target branch, whether that branch is protected. */
  mergeRequest: { request: MergeRequestForPipeline; diffBase: string | null; targetProtected: boolean } | null;
}

/** What was read at the commit. */
export interface PipelineCommitInputs {
  /** The parsed configuration (`.gitlab-ci.yml` with its includes, or a child pipeline's files), or its errors. */
  config: CiConfigResult;
  context: PipelineContext;
  /** Paths changed by the push, or since the merge base for a merge request; null when unknown. */
  changedFiles: readonly string[] | null;
  /** The paths of the repository at the commit; read only when a rule uses `exists` (`usesExists`), else empty. */
  files: readonly string[];
}

/** Everything `planPipeline` decides on. */
export interface PipelineInputs {
  /** false (API): nothing is created for an invalid configuration, whose errors are answered. */
  saveOnErrors: boolean;
  actorId: number | null;
  /** The variables given to the pipeline (API, trigger, bridge). */
  variables: PipelineVariableInput[];
  /** null: the ref does not exist (nothing else was read). */
  ref: ResolvedRef | null;
  /** null: the commit has no configuration file, or nothing was read (a missing ref, refused variables). */
  commit: PipelineCommitInputs | null;
}

/** The pipeline row to insert (without its `iid`, id and the creation's own references). */
export interface PlannedPipeline {
  status: 'created' | 'failed';
  source: PipelineSource;
  ref: string;
  sha: string;
  beforeSha: string;
  tag: boolean;
  protected: boolean;
  yamlErrors: string | null;
  failureReason: 'config_error' | null;
  committedAt: Date | null;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A job row to insert (without its pipeline and project). */
export type PlannedJob = Omit<Partial<CiJobEntity>, 'pipelineId' | 'projectId'>;

/**
 * `refused`: nothing is created (`errors` are GitLab's `base` messages); `always` refusals are
 * answered with a 400 even to a caller that saves invalid pipelines (a push), the others only to
 * the API. `create`: the pipeline, with its stages and jobs (none when it failed on its configuration),
 * and the context its predefined variables are made of once it has an id.
 */
export type PipelinePlan =
  | { result: 'refused'; errors: string[]; always: boolean }
  | {
      result: 'create';
      pipeline: PlannedPipeline;
      stages: { name: string; position: number }[];
      jobs: PlannedJob[];
      variables: PipelineVariableInput[];
      context: PipelineContext;
    };

/** Whether a rule of the configuration (a job's or `workflow`'s) uses `exists`: the repository's file list is then read. */
export const usesExists = (config: CiConfig): boolean =>
  config.jobs.some((job) => job.rules?.some((rule) => rule.exists)) || (config.workflowRules?.some((rule) => rule.exists) ?? false);

/** The first error of the variables given to the pipeline (a key GitLab refuses, a key given twice), or null. */
export function variablesError(variables: readonly PipelineVariableInput[]): string | null {
  const seen = new Set<string>();
  for (const variable of variables) {
    if (!/^[a-zA-Z0-9_]{1,255}$/.test(variable.key)) return `Variable key ${JSON.stringify(variable.key)} can contain only letters, digits and '_'.`;
    if (seen.has(variable.key)) return `Duplicate variable name: ${variable.key}`;
    seen.add(variable.key);
  }
  return null;
}

/** `CI_COMMIT_BRANCH` is not given to merge request pipelines (GitLab). */
function withoutBranch(variables: VariableMap): VariableMap {
  const { CI_COMMIT_BRANCH: _branch, ...rest } = variables;
  return rest;
}

/** GitLab's `CI_MERGE_REQUEST_*` variables of a merge request pipeline (a detached one: no merged result). */
function mergeRequestVariables(
  mr: MergeRequestForPipeline,
  projectFullPath: string,
  externalUrl: string,
  diffBase: string | null,
  targetProtected: boolean,
): VariableMap {
  const projectUrl = `${externalUrl.replace(/\/$/, '')}/${projectFullPath}`;
  const variables: VariableMap = {
    CI_MERGE_REQUEST_ID: String(mr.id),
    CI_MERGE_REQUEST_IID: String(mr.iid),
    CI_MERGE_REQUEST_PROJECT_ID: String(mr.projectId),
    CI_MERGE_REQUEST_PROJECT_PATH: projectFullPath,
    CI_MERGE_REQUEST_PROJECT_URL: projectUrl,
    CI_MERGE_REQUEST_REF_PATH: mergeRequestRef(mr.iid),
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: mr.sourceBranch,
    CI_MERGE_REQUEST_SOURCE_PROJECT_ID: String(mr.projectId),
    CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: projectFullPath,
    CI_MERGE_REQUEST_SOURCE_PROJECT_URL: projectUrl,
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: mr.targetBranch,
    CI_MERGE_REQUEST_TARGET_BRANCH_PROTECTED: String(targetProtected),
    CI_MERGE_REQUEST_TITLE: mr.title,
    CI_MERGE_REQUEST_EVENT_TYPE: 'detached',
    CI_MERGE_REQUEST_DRAFT: String(/^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s|draft\s|\[wip\]|wip:|wip\s)/i.test(mr.title)),
  };
  if (mr.description) variables.CI_MERGE_REQUEST_DESCRIPTION = mr.description;
  if (mr.labels.length > 0) variables.CI_MERGE_REQUEST_LABELS = mr.labels.join(',');
  if (mr.assigneeUsernames.length > 0) variables.CI_MERGE_REQUEST_ASSIGNEES = mr.assigneeUsernames.join(',');
  if (mr.milestoneTitle) variables.CI_MERGE_REQUEST_MILESTONE = mr.milestoneTitle;
  if (diffBase) variables.CI_MERGE_REQUEST_DIFF_BASE_SHA = diffBase;
  return variables;
}

/** The predefined variables of the pipeline `id`/`iid` (0/0 while its rules are evaluated, before it exists). */
export function pipelineVariables(context: PipelineContext, id: number, iid: number): VariableMap {
  const { ref, mergeRequest } = context;
  const variables = predefinedPipelineVariables({
    externalUrl: context.externalUrl,
    project: context.project,
    pipeline: {
      id,
      iid,
      source: context.source,
      ref: ref.name,
      tag: ref.tag,
      protected: context.protectedRef,
      sha: ref.sha,
      beforeSha: context.beforeSha,
      createdAt: context.createdAt,
    },
    commit: context.commit,
    user: context.user,
  });
  return mergeRequest
    ? {
        ...withoutBranch(variables),
        ...mergeRequestVariables(mergeRequest.request, context.project.fullPath, context.externalUrl, mergeRequest.diffBase, mergeRequest.targetProtected),
      }
    : variables;
}

function jobOptions(job: SeededJob): CiJobOptions {
  const d = job.definition;
  return {
    script: d.script,
    beforeScript: d.beforeScript,
    afterScript: d.afterScript,
    image: d.image,
    services: d.services,
    artifacts: d.artifacts,
    cache: d.cache,
    retry: d.retry,
    dependencies: d.dependencies,
    needsWithoutArtifacts: (d.needs ?? []).filter((need) => !need.artifacts).map((need) => need.job),
    allowFailureExitCodes: d.allowFailureExitCodes,
    coverageRegex: d.coverage,
    timeoutSeconds: d.timeoutSeconds,
    startIn: job.startIn,
    environment: d.environment,
    interruptible: d.interruptible,
    trigger: d.trigger,
  };
}

/**
 * What a pipeline creation does with what was read: refuses it (a missing ref, refused variables,
 * no configuration file, a configuration the API may not save, workflow rules that filter it out,
 * no job left), or creates it — `failed` with `yaml_errors` (`config_error`) when the configuration
 * is invalid and invalid pipelines are saved, else `created` with the stages that have jobs and the
 * jobs that rules and `only`/`except` keep. Pure: the time is the context's `createdAt`.
 */
export function planPipeline(inputs: PipelineInputs): PipelinePlan {
  const refuse = (errors: string[], always = false): PipelinePlan => ({ result: 'refused', errors, always });
  if (!inputs.ref) return refuse(['Reference not found']);
  const invalid = variablesError(inputs.variables);
  if (invalid) return refuse([invalid], true);
  if (!inputs.commit) return refuse(['Missing CI config file']);
  const { config, context, changedFiles, files } = inputs.commit;

  let yamlErrors: string | null = null;
  let seeded: SeededJob[] = [];
  let stages: string[] = [];
  if (!config.ok) {
    if (!inputs.saveOnErrors) return refuse(config.errors);
    yamlErrors = yamlErrorsText(config.errors);
  } else {
    const seed = seedPipeline(config.config, {
      source: context.source,
      ref: context.ref.name,
      tag: context.ref.tag,
      predefined: pipelineVariables(context, 0, 0),
      pipelineVariables: Object.fromEntries(inputs.variables.map((v) => [v.key, v.value])),
      changedFiles,
      files,
    });
    if (!seed.ok) {
      if (seed.filtered || !inputs.saveOnErrors) return refuse(seed.errors);
      yamlErrors = yamlErrorsText(seed.errors);
    } else {
      seeded = seed.jobs;
      stages = config.config.stages;
    }
  }

  const { ref, mergeRequest, createdAt } = context;
  const pipeline: PlannedPipeline = {
    status: yamlErrors ? 'failed' : 'created',
    source: context.source,
    ref: mergeRequest ? mergeRequestRef(mergeRequest.request.iid) : ref.name,
    sha: ref.sha,
    beforeSha: context.beforeSha,
    tag: mergeRequest ? false : ref.tag,
    protected: context.protectedRef,
    yamlErrors,
    failureReason: yamlErrors ? 'config_error' : null,
    committedAt: context.committedAt,
    createdAt,
    finishedAt: yamlErrors ? createdAt : null,
  };
  const usedStages = stages.map((name, position) => ({ name, position })).filter((stage) => seeded.some((job) => job.definition.stage === stage.name));
  const jobs: PlannedJob[] = seeded.map((job) => ({
    type: job.definition.kind,
    name: job.definition.name,
    stage: job.definition.stage,
    stageIdx: job.stageIdx,
    status: 'created',
    when: job.when,
    allowFailure: job.allowFailure,
    needs: job.needs,
    options: jobOptions(job),
    yamlVariables: job.variables,
    tagList: job.definition.tags,
    ref: pipeline.ref,
    sha: pipeline.sha,
    tag: pipeline.tag,
    protected: pipeline.protected,
    userId: inputs.actorId,
    timeout: job.definition.timeoutSeconds ?? DEFAULT_JOB_TIMEOUT,
  }));
  return { result: 'create', pipeline, stages: usedStages, jobs, variables: inputs.variables, context };
}
