import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { AppConfig } from '@app/config';
import { OutboxService } from '@app/messaging';
import type { ProjectWithNamespace } from '@app/namespaces';
import { ProtectedBranchesService } from '@app/repository';
import { DataSource } from 'typeorm';
import { CI_CONFIG_PATH, CiConfigTooLargeError, parseCiConfig, YAML_TOO_BIG } from '../config/ci-config-parser';
import type { CiConfigResult } from '../config/ci-config.types';
import type { PipelineSource } from '../config/pipeline-seed';
import { CI_EVENTS, CiEventScope, pipelineEvent } from '../events/ci.events';
import type { CiPipelineEntity } from '../entities/ci-pipeline.entity';
import { CiRepositoryReader, ResolvedRef } from '../git/ci-repository-reader';
import { PipelineProcessor } from './pipeline-processor';
import {
  PipelineContext,
  PipelineInputs,
  PipelinePlan,
  pipelineVariables,
  PipelineVariableInput,
  planPipeline,
  usesExists,
  variablesError,
} from './pipeline-plan';
import { PipelinesRepository } from './pipelines.repository';
import { projectFullPathOf } from './pipeline.presenter';
import { MergeRequestForPipeline, mergeRequestRef } from './merge-request-pipelines';

export { DEFAULT_JOB_TIMEOUT } from './pipeline-plan';
export type { PipelineVariableInput } from './pipeline-plan';

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

/** The configuration of a child pipeline: its `trigger:include` files, included as `include: local` (JSON strings are YAML). */
export const childConfigText = (paths: string[]): string => `include:\n${paths.map((path) => `  - local: ${JSON.stringify(path)}`).join('\n')}\n`;

function scopeOf(project: ProjectWithNamespace): CiEventScope {
  return { projectId: project.id, groupId: project.namespace.kind === 'group' ? project.namespace.id : null };
}

/**
 * Creates a pipeline from the `.gitlab-ci.yml` of the project's repository at the ref's commit
 * (`POST /projects/:id/pipeline`, pushes, downstream pipelines) in three steps: `read` gathers
 * what the decision needs (the configuration, the commit, changed files…), `planPipeline` (pure)
 * validates the configuration and evaluates workflow rules, job rules and only/except, and
 * `write` saves the pipeline, its stages, jobs and variables with the next gap-free `iid` and
 * processes it (first jobs `pending`), in one transaction with its domain events.
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

  async execute(command: CreatePipelineCommand): Promise<CreatePipelineResult> {
    const inputs = await this.read(command);
    const plan = planPipeline(inputs);
    if (plan.result === 'refused') {
      if (plan.always || !command.saveOnErrors) throw DomainError.invalid({ base: plan.errors });
      return { created: false, reason: plan.errors.join(', ') };
    }
    return this.write(command, plan);
  }

  /**
   * Reads what the plan decides on: the ref, the configuration (with its includes) at its commit,
   * the commit, the user, the protected-ref flags, a merge request's merge base, and the changed
   * files and file list when rules need them. Stops as soon as the plan cannot go further (a
   * missing ref, refused variables, no configuration file).
   */
  private async read(command: CreatePipelineCommand): Promise<PipelineInputs> {
    const { project } = command;
    const variables = command.variables ?? [];
    const inputs: PipelineInputs = { saveOnErrors: command.saveOnErrors, actorId: command.actorId, variables, ref: null, commit: null };
    const resolved = await this.reader.resolveRef(project.id, command.ref, command.parentPipelineId !== undefined && command.parentPipelineId !== null);
    if (!resolved) return inputs;
    const ref: ResolvedRef = command.sha ? { ...resolved, sha: command.sha } : resolved;
    inputs.ref = ref;
    if (variablesError(variables)) return inputs;

    let text: string | null;
    let tooBig = false;
    try {
      text = command.configPaths ? childConfigText(command.configPaths) : await this.reader.readFile(project.id, ref.sha, CI_CONFIG_PATH);
    } catch (error) {
      if (!(error instanceof CiConfigTooLargeError)) throw error;
      // Over the size limit: the pipeline fails with GitLab's yaml error (a push), or the call is refused.
      [text, tooBig] = [null, true];
    }
    if (text === null && !tooBig) return inputs;
    const config: CiConfigResult =
      text === null ? { ok: false, errors: [YAML_TOO_BIG] } : await parseCiConfig(text, (path) => this.reader.readFile(project.id, ref.sha, path));

    const commit = await this.reader.commit(project.id, ref.sha);
    const user = command.actorId ? await this.pipelines.userSummary(command.actorId) : null;
    const createdAt = new Date();
    const mergeRequest = command.mergeRequest;
    const targetSha = mergeRequest ? ((await this.reader.resolveRef(project.id, `refs/heads/${mergeRequest.targetBranch}`))?.sha ?? null) : null;
    const diffBase = mergeRequest && targetSha ? await this.reader.mergeBase(project.id, targetSha, ref.sha) : null;
    const protectedRef = !mergeRequest && !ref.tag && (await this.protectedBranches.isProtected(project.id, ref.name));
    const targetProtected = mergeRequest ? await this.protectedBranches.isProtected(project.id, mergeRequest.targetBranch) : false;
    const context: PipelineContext = {
      source: command.source,
      ref,
      beforeSha: command.beforeSha ?? ZERO,
      createdAt,
      protectedRef,
      externalUrl: this.config.http.externalUrl,
      project: {
        id: project.id,
        name: project.name,
        path: project.path,
        fullPath: projectFullPathOf(project),
        namespaceFullPath: project.namespace.fullPath,
        defaultBranch: project.defaultBranch,
        visibility: project.visibility,
      },
      commit: commit
        ? { title: commit.title, message: commit.message, author: `${commit.authorName} <${commit.authorEmail}>`, timestamp: commit.authoredDate }
        : null,
      committedAt: commit ? new Date(commit.committedDate) : null,
      user,
      mergeRequest: mergeRequest ? { request: mergeRequest, diffBase, targetProtected } : null,
    };
    inputs.commit = { config, context, changedFiles: null, files: [] };
    if (!config.ok) return inputs;
    // Merge request pipelines compare with the merge base of the target branch (GitLab's `changes` for them).
    inputs.commit.changedFiles =
      command.source === 'push'
        ? await this.reader.changedFiles(project.id, command.beforeSha ?? null, ref.sha)
        : mergeRequest
          ? await this.reader.changedFiles(project.id, diffBase, ref.sha)
          : null;
    if (usesExists(config.config)) inputs.commit.files = await this.reader.files(project.id, ref.sha);
    return inputs;
  }

  /**
   * Saves the plan: the merge request's ref first, then in one transaction the pipeline with the
   * next `iid`, its variables, its creation event, stages and jobs, and processes it (first jobs
   * `pending`). Nothing is saved when a pipeline already answers the command's event.
   */
  private async write(command: CreatePipelineCommand, plan: Extract<PipelinePlan, { result: 'create' }>): Promise<CreatePipelineResult> {
    const { project } = command;
    const { context } = plan;
    if (command.mergeRequest) await this.reader.keepRef(project.id, mergeRequestRef(command.mergeRequest.iid), context.ref.sha);
    const pipeline = await this.dataSource.transaction(async (tx) => {
      if (command.triggerEventId && (await this.pipelines.existsForEvent(command.triggerEventId, tx))) return null;
      const iid = await this.pipelines.nextIid(tx, project.id);
      const saved = await this.pipelines.insertPipeline(tx, {
        ...plan.pipeline,
        iid,
        projectId: project.id,
        userId: command.actorId,
        triggerEventId: command.triggerEventId ?? null,
        parentPipelineId: command.parentPipelineId ?? null,
        sourceJobId: command.sourceJobId ?? null,
      });
      saved.predefinedVariables = pipelineVariables(context, saved.id, iid);
      await this.pipelines.savePipeline(tx, saved);
      await this.pipelines.insertVariables(
        tx,
        plan.variables.map((v) => ({ pipelineId: saved.id, key: v.key, value: v.value, variableType: v.variable_type ?? 'env_var' })),
      );
      await this.outbox.append(tx, pipelineEvent(CI_EVENTS.PIPELINE_CREATED, command.actorId, saved, scopeOf(project)));
      if (plan.pipeline.status === 'failed') return saved;
      await this.pipelines.insertStages(
        tx,
        plan.stages.map((stage) => ({ pipelineId: saved.id, name: stage.name, position: stage.position, status: 'created' })),
      );
      await this.pipelines.insertJobs(
        tx,
        plan.jobs.map((job) => ({ ...job, projectId: saved.projectId, pipelineId: saved.id })),
      );
      const processed = await this.processor.process(tx, saved.id, scopeOf(project), command.actorId);
      if (!processed) return saved;
      processed.predefinedVariables = saved.predefinedVariables;
      return processed;
    });
    if (!pipeline) return { created: false, reason: 'already created for this event' };
    return { created: true, pipeline };
  }
}
