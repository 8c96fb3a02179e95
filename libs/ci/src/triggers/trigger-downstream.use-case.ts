import { Injectable, Logger } from '@nestjs/common';
import { OutboxService } from '@app/messaging';
import { ACCESS_LEVELS, AccessService, ProjectsRepository, ProjectWithNamespace } from '@app/namespaces';
import { DataSource } from 'typeorm';
import { jobStatusEvent } from '../events/ci.events';
import type { CiJobEntity } from '../entities/ci-job.entity';
import { JobLifecycleService } from '../jobs/job-lifecycle.service';
import { JobsRepository } from '../jobs/jobs.repository';
import { PipelineProcessor } from '../pipelines/pipeline-processor';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { COMPLETED_STATUSES, JobStatus } from '../status/ci-status';
import { CreatePipelineUseCase, PipelineVariableInput } from '../pipelines/create-pipeline.use-case';

/** GitLab's failure reasons of a bridge whose downstream pipeline could not be created. */
export type BridgeFailure =
  'downstream_pipeline_creation_failed' | 'insufficient_bridge_permissions' | 'downstream_bridge_project_not_found' | 'invalid_bridge_trigger';

/**
 * Starts the pipeline a bridge (`trigger:`) asks for, once the bridge is `pending`: a child
 * pipeline of the same project and commit from the `include:` files (source
 * `parent_pipeline`), or a pipeline of another project at `branch` (else its default branch,
 * source `pipeline`) when the bridge's user may run pipelines there (developer). The bridge
 * then succeeds, or with `strategy: depend` runs until the downstream pipeline finishes and
 * takes its status. Idempotent: a bridge starts one pipeline (`source_job_id`).
 */
@Injectable()
export class TriggerDownstreamUseCase {
  private readonly logger = new Logger(TriggerDownstreamUseCase.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobsRepository,
    private readonly pipelines: PipelinesRepository,
    private readonly projects: ProjectsRepository,
    private readonly access: AccessService,
    private readonly createPipeline: CreatePipelineUseCase,
    private readonly lifecycle: JobLifecycleService,
    private readonly processor: PipelineProcessor,
    private readonly outbox: OutboxService,
  ) {}

  async execute(bridgeId: number, eventId: string): Promise<void> {
    const bridge = await this.jobs.findById(bridgeId);
    if (!bridge || bridge.type !== 'bridge' || bridge.status !== 'pending' || !bridge.options.trigger) return;
    if (await this.pipelines.existsForSourceJob(bridge.id)) return;
    const parent = await this.pipelines.find(bridge.projectId, bridge.pipelineId);
    if (!parent) return;
    const trigger = bridge.options.trigger;
    const variables: PipelineVariableInput[] =
      trigger.forward?.yaml_variables === false ? [] : Object.entries(bridge.yamlVariables).map(([key, value]) => ({ key, value }));
    if (trigger.forward?.pipeline_variables) {
      const known = new Set(variables.map((v) => v.key));
      for (const v of await this.pipelines.variables(parent.id))
        if (!known.has(v.key)) variables.push({ key: v.key, value: v.value, variable_type: v.variableType });
    }

    let target: ProjectWithNamespace | null;
    if (trigger.include) {
      target = await this.projects.findById(bridge.projectId);
    } else {
      target = await this.projects.findByRef(trigger.project ?? '');
      if (!target) return this.fail(bridge, 'downstream_bridge_project_not_found');
      const user = bridge.userId ? await this.pipelines.userSummary(bridge.userId) : null;
      const admin = user ? await this.pipelines.isAdmin(user.id) : false;
      const level = user ? await this.access.projectAccessLevel(target, { id: user.id, isAdmin: admin, external: false }) : 0;
      if (level < ACCESS_LEVELS.DEVELOPER) return this.fail(bridge, 'insufficient_bridge_permissions');
    }
    if (!target) return;

    const child = !!trigger.include;
    let result;
    try {
      result = await this.createPipeline.execute({
        project: target,
        ref: child ? parent.ref : (trigger.branch ?? target.defaultBranch ?? 'main'),
        sha: child ? parent.sha : undefined,
        beforeSha: child ? parent.beforeSha : undefined,
        source: child ? 'parent_pipeline' : 'pipeline',
        actorId: bridge.userId,
        variables,
        triggerEventId: eventId,
        saveOnErrors: true,
        configPaths: trigger.include,
        parentPipelineId: child ? parent.id : null,
        sourceJobId: bridge.id,
      });
    } catch (error) {
      this.logger.warn(`bridge ${bridge.id}: downstream pipeline not created: ${(error as Error).message}`);
      return this.fail(bridge, 'downstream_pipeline_creation_failed');
    }
    if (!result.created) {
      if (result.reason === 'already created for this event') return;
      return this.fail(bridge, 'downstream_pipeline_creation_failed');
    }
    if (result.pipeline.yamlErrors) return this.fail(bridge, 'downstream_pipeline_creation_failed');
    await this.settle(bridge.id, trigger.strategy === 'depend' ? result.pipeline.status : 'success');
  }

  /**
   * A downstream pipeline changed status: a `strategy: depend` bridge follows it (`running` while
   * it runs, then its final status).
   */
  async mirror(pipelineId: number): Promise<void> {
    const downstream = await this.pipelines.findAnywhere(pipelineId);
    if (!downstream?.sourceJobId) return;
    const bridge = await this.jobs.findById(downstream.sourceJobId);
    if (!bridge || bridge.options.trigger?.strategy !== 'depend') return;
    await this.settle(bridge.id, downstream.status);
  }

  /** The bridge in the status its downstream pipeline gives (finished statuses end it). */
  private async settle(bridgeId: number, downstream: JobStatus): Promise<void> {
    const bridge = await this.jobs.findById(bridgeId);
    if (!bridge) return;
    await this.dataSource.transaction(async (tx) => {
      await this.pipelines.lockPipeline(tx, bridge.pipelineId);
      const current = await this.jobs.lock(tx, bridge.id);
      if (!current || COMPLETED_STATUSES.has(current.status)) return;
      if (downstream === 'success' || downstream === 'failed' || downstream === 'canceled' || downstream === 'skipped') {
        const status = downstream === 'skipped' ? 'success' : downstream;
        await this.lifecycle.finish(tx, current, status, { failureReason: status === 'failed' ? 'downstream_pipeline_failed' : null, actorId: null });
        return;
      }
      if (current.status === 'running') return;
      const scope = await this.lifecycle.scopeOf(tx, current.projectId);
      const from = current.status;
      current.status = 'running';
      current.startedAt = new Date();
      await this.jobs.save(tx, current);
      await this.outbox.append(tx, jobStatusEvent(null, current, from, scope));
      await this.processor.process(tx, current.pipelineId, scope, null);
    });
  }

  private async fail(bridge: CiJobEntity, reason: BridgeFailure): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await this.pipelines.lockPipeline(tx, bridge.pipelineId);
      const current = await this.jobs.lock(tx, bridge.id);
      if (!current || current.status !== 'pending') return;
      await this.lifecycle.finish(tx, current, 'failed', { failureReason: reason, actorId: null });
    });
  }
}
