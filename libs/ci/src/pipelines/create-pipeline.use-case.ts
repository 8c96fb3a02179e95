import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { AppConfig } from '@app/config';
import { OutboxService } from '@app/messaging';
import type { ProjectWithNamespace } from '@app/namespaces';
import { ProtectedBranchesService } from '@app/repository';
import { DataSource, EntityManager } from 'typeorm';
import { CI_CONFIG_PATH, CiConfigTooLargeError, parseCiConfig, YAML_TOO_BIG, yamlErrorsText } from '../config/ci-config-parser';
import type { CiConfigResult, VariableMap } from '../config/ci-config.types';
import { PipelineSource, SeededJob, seedPipeline } from '../config/pipeline-seed';
import { CI_EVENTS, CiEventScope, pipelineEvent } from '../events/ci.events';
import type { CiJobEntity } from '../entities/ci-job.entity';
import type { CiJobOptions } from '../entities/ci-job-options';
import type { CiVariableType } from '../entities/ci-pipeline-variable.entity';
import type { CiPipelineEntity } from '../entities/ci-pipeline.entity';
import { CiRepositoryReader, ResolvedRef } from '../git/ci-repository-reader';
import { PipelineProcessor } from './pipeline-processor';
import { PipelinesRepository } from './pipelines.repository';
import { projectFullPathOf } from './pipeline.presenter';
import { predefinedPipelineVariables } from './predefined-variables';
import { MergeRequestForPipeline, mergeRequestRef } from './merge-request-pipelines';

/** Seconds a job may run when neither it nor the project says (GitLab's project default). */
export const DEFAULT_JOB_TIMEOUT = 3600;

export interface PipelineVariableInput {
  key: string;
  value: string;
  variable_type?: CiVariableType;
}

export interface CreatePipelineCommand {
  project: ProjectWithNamespace;
  /** Branch or tag name (`refs/heads/…` / `refs/tags/…` accepted). */
  ref: string;
  source: PipelineSource;
  actorId: number | null;
  variables?: PipelineVariableInput[];
  /** The pushed commit (push pipelines run the commit that was pushed, not the ref's head later). */
  sha?: string;
  beforeSha?: string;
  /** The domain event this pipeline answers; a second pipeline for it is not created. */
  triggerEventId?: string;
  /**
   * true (pushes): an invalid configuration creates a `failed` pipeline with `yaml_errors`.
   * false (API): nothing is saved and the errors are answered (400 `{message: {base: [...]}}`).
   */
  saveOnErrors: boolean;
  /** A child pipeline: its configuration is these local files of the commit instead of `.gitlab-ci.yml`. */
  configPaths?: string[];
  /** The parent of a child pipeline (left out of the pipeline list). */
  parentPipelineId?: number | null;
  /** The bridge job that starts this pipeline. */
  sourceJobId?: number | null;
  /**
   * A merge request pipeline (source `merge_request_event`): `ref` is the source branch, the
   * pipeline's ref `refs/merge-requests/:iid/head`, with the merge request's variables.
   */
  mergeRequest?: MergeRequestForPipeline;
}

export type CreatePipelineResult = { created: true; pipeline: CiPipelineEntity } | { created: false; reason: string };

const ZERO = '0000000000000000000000000000000000000000';

/** `CI_COMMIT_BRANCH` is not given to merge request pipelines (GitLab). */
function withoutBranch(variables: VariableMap): VariableMap {
  const { CI_COMMIT_BRANCH: _branch, ...rest } = variables;
  return rest;
}

/** GitLab's `CI_MERGE_REQUEST_*` variables of a merge request pipeline (a detached one: no merged result). */
function mergeRequestVariables(mr: MergeRequestForPipeline, projectFullPath: string, externalUrl: string, diffBase: string | null, targetProtected: boolean): VariableMap {
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

/** The configuration of a child pipeline: its `trigger:include` files, included as `include: local` (JSON strings are YAML). */
export const childConfigText = (paths: string[]): string => `include:\n${paths.map((path) => `  - local: ${JSON.stringify(path)}`).join('\n')}\n`;

function scopeOf(project: ProjectWithNamespace): CiEventScope {
  return { projectId: project.id, groupId: project.namespace.kind === 'group' ? project.namespace.id : null };
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
 * Creates a pipeline from the `.gitlab-ci.yml` of the project's repository at the ref's commit
 * (`POST /projects/:id/pipeline`, pushes, downstream pipelines): validates the configuration,
 * evaluates workflow rules, job rules and only/except, then saves the pipeline, its stages, jobs
 * and variables with the next gap-free `iid` and processes it (first jobs `pending`), in one
 * transaction with its domain events.
 */
@Injectable()
export class CreatePipelineUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly outbox: OutboxService,
    private readonly reader: CiRepositoryReader,
    private readonly pipelines: PipelinesRepository,
    private readonly processor: PipelineProcessor,
    private readonly protectedBranches: ProtectedBranchesService,
  ) {}

  private refuse(command: CreatePipelineCommand, errors: string[]): CreatePipelineResult {
    if (!command.saveOnErrors) throw DomainError.invalid({ base: errors });
    return { created: false, reason: errors.join(', ') };
  }

  async execute(command: CreatePipelineCommand): Promise<CreatePipelineResult> {
    const { project } = command;
    const resolved = await this.reader.resolveRef(project.id, command.ref, command.parentPipelineId !== undefined && command.parentPipelineId !== null);
    if (!resolved) return this.refuse(command, ['Reference not found']);
    const ref: ResolvedRef = command.sha ? { ...resolved, sha: command.sha } : resolved;
    const variables = this.checkVariables(command.variables ?? []);

    let text: string | null;
    let tooBig = false;
    try {
      text = command.configPaths ? childConfigText(command.configPaths) : await this.reader.readFile(project.id, ref.sha, CI_CONFIG_PATH);
    } catch (error) {
      if (!(error instanceof CiConfigTooLargeError)) throw error;
      // Over the size limit: the pipeline fails with GitLab's yaml error (a push), or the call is refused.
      [text, tooBig] = [null, true];
    }
    if (text === null && !tooBig) return this.refuse(command, ['Missing CI config file']);
    const parsed: CiConfigResult = text === null ? { ok: false, errors: [YAML_TOO_BIG] } : await parseCiConfig(text, (path) => this.reader.readFile(project.id, ref.sha, path));

    const commit = await this.reader.commit(project.id, ref.sha);
    const user = command.actorId ? await this.pipelines.userSummary(command.actorId) : null;
    const beforeSha = command.beforeSha ?? ZERO;
    const createdAt = new Date();
    const mergeRequest = command.mergeRequest;
    const targetSha = mergeRequest ? ((await this.reader.resolveRef(project.id, `refs/heads/${mergeRequest.targetBranch}`))?.sha ?? null) : null;
    const diffBase = mergeRequest && targetSha ? await this.reader.mergeBase(project.id, targetSha, ref.sha) : null;
    const projectFullPath = projectFullPathOf(project);
    // GitLab's `protected_ref?`: a branch covered by a protected branch rule (a merge request's ref never is).
    const protectedRef = !mergeRequest && !ref.tag && (await this.protectedBranches.isProtected(project.id, ref.name));
    const targetProtected = mergeRequest ? await this.protectedBranches.isProtected(project.id, mergeRequest.targetBranch) : false;
    const predefined = (id: number, iid: number): VariableMap => {
      const variables = predefinedPipelineVariables({
        externalUrl: this.config.http.externalUrl,
        project: { id: project.id, name: project.name, path: project.path, fullPath: projectFullPath, namespaceFullPath: project.namespace.fullPath, defaultBranch: project.defaultBranch, visibility: project.visibility },
        pipeline: { id, iid, source: command.source, ref: ref.name, tag: ref.tag, protected: protectedRef, sha: ref.sha, beforeSha, createdAt },
        commit: commit ? { title: commit.title, message: commit.message, author: `${commit.authorName} <${commit.authorEmail}>`, timestamp: commit.authoredDate } : null,
        user,
      });
      return mergeRequest ? { ...withoutBranch(variables), ...mergeRequestVariables(mergeRequest, projectFullPath, this.config.http.externalUrl, diffBase, targetProtected) } : variables;
    };

    let yamlErrors: string | null = null;
    let seeded: SeededJob[] = [];
    let stages: string[] = [];
    if (!parsed.ok) {
      if (!command.saveOnErrors) return this.refuse(command, parsed.errors);
      yamlErrors = yamlErrorsText(parsed.errors);
    } else {
      // Merge request pipelines compare with the merge base of the target branch (GitLab's `changes` for them).
      const changedFiles =
        command.source === 'push' ? await this.reader.changedFiles(project.id, command.beforeSha ?? null, ref.sha) : mergeRequest ? await this.reader.changedFiles(project.id, diffBase, ref.sha) : null;
      const usesExists = parsed.config.jobs.some((job) => job.rules?.some((rule) => rule.exists)) || parsed.config.workflowRules?.some((rule) => rule.exists);
      const seed = seedPipeline(parsed.config, {
        source: command.source,
        ref: ref.name,
        tag: ref.tag,
        predefined: predefined(0, 0),
        pipelineVariables: Object.fromEntries(variables.map((v) => [v.key, v.value])),
        changedFiles,
        files: usesExists ? await this.reader.files(project.id, ref.sha) : [],
      });
      if (!seed.ok) {
        if (seed.filtered || !command.saveOnErrors) return this.refuse(command, seed.errors);
        yamlErrors = yamlErrorsText(seed.errors);
      } else {
        seeded = seed.jobs;
        stages = parsed.config.stages;
      }
    }

    if (mergeRequest) await this.reader.keepRef(project.id, mergeRequestRef(mergeRequest.iid), ref.sha);
    const pipeline = await this.dataSource.transaction(async (tx) => {
      if (command.triggerEventId && (await this.pipelines.existsForEvent(command.triggerEventId, tx))) return null;
      const iid = await this.pipelines.nextIid(tx, project.id);
      const saved = await this.pipelines.insertPipeline(tx, {
        iid,
        projectId: project.id,
        status: yamlErrors ? 'failed' : 'created',
        source: command.source,
        ref: mergeRequest ? mergeRequestRef(mergeRequest.iid) : ref.name,
        sha: ref.sha,
        beforeSha,
        tag: mergeRequest ? false : ref.tag,
        protected: protectedRef,
        yamlErrors,
        failureReason: yamlErrors ? 'config_error' : null,
        userId: command.actorId,
        triggerEventId: command.triggerEventId ?? null,
        parentPipelineId: command.parentPipelineId ?? null,
        sourceJobId: command.sourceJobId ?? null,
        committedAt: commit ? new Date(commit.committedDate) : null,
        createdAt,
        finishedAt: yamlErrors ? createdAt : null,
      });
      saved.predefinedVariables = predefined(saved.id, iid);
      await this.pipelines.savePipeline(tx, saved);
      await this.pipelines.insertVariables(tx, variables.map((v) => ({ pipelineId: saved.id, key: v.key, value: v.value, variableType: v.variable_type ?? 'env_var' })));
      await this.outbox.append(tx, pipelineEvent(CI_EVENTS.PIPELINE_CREATED, command.actorId, saved, scopeOf(project)));
      if (yamlErrors) return saved;
      await this.insertJobs(tx, saved, seeded, stages, command.actorId);
      const processed = await this.processor.process(tx, saved.id, scopeOf(project), command.actorId);
      if (!processed) return saved;
      processed.predefinedVariables = saved.predefinedVariables;
      return processed;
    });
    if (!pipeline) return { created: false, reason: 'already created for this event' };
    return { created: true, pipeline };
  }

  private async insertJobs(tx: EntityManager, pipeline: CiPipelineEntity, seeded: SeededJob[], stages: string[], actorId: number | null): Promise<CiJobEntity[]> {
    const used = stages.map((name, position) => ({ name, position })).filter((stage) => seeded.some((job) => job.definition.stage === stage.name));
    await this.pipelines.insertStages(tx, used.map((stage) => ({ pipelineId: pipeline.id, name: stage.name, position: stage.position, status: 'created' })));
    return this.pipelines.insertJobs(
      tx,
      seeded.map((job) => ({
        projectId: pipeline.projectId,
        pipelineId: pipeline.id,
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
        userId: actorId,
        timeout: job.definition.timeoutSeconds ?? DEFAULT_JOB_TIMEOUT,
      })),
    );
  }

  private checkVariables(variables: PipelineVariableInput[]): PipelineVariableInput[] {
    const seen = new Set<string>();
    for (const variable of variables) {
      if (!/^[a-zA-Z0-9_]{1,255}$/.test(variable.key)) throw DomainError.invalid({ base: [`Variable key ${JSON.stringify(variable.key)} can contain only letters, digits and '_'.`] });
      if (seen.has(variable.key)) throw DomainError.invalid({ base: [`Duplicate variable name: ${variable.key}`] });
      seen.add(variable.key);
    }
    return variables;
  }
}
