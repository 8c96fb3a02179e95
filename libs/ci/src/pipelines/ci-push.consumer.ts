import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@app/api';
import { CONSUMER_GROUPS, DomainEvent, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import { ProjectsRepository } from '@app/namespaces';
import { PUSH_EVENTS, ZERO_SHA } from '@app/repository';
import { CI_EVENTS } from '../ci.events';
import { CreatePipelineUseCase } from '../use-cases/create-pipeline.use-case';
import { TriggerDownstreamUseCase } from '../use-cases/trigger-downstream.use-case';
import { MergeRequestForPipeline, MergeRequestPipelineSources, mergeRequestPipelineRequest, mergeRequestTriggerId, pushedBranch } from './merge-request-pipelines';

/** The pipeline a push event asks for, or null (deletions, events that are not pushes). */
export function pushPipelineRequest(event: DomainEvent): { projectId: number; ref: string; before: string; after: string } | null {
  if (event.type !== PUSH_EVENTS.PUSH && event.type !== PUSH_EVENTS.TAG_PUSH) return null;
  const { ref, before, after } = event.data as { ref?: unknown; before?: unknown; after?: unknown };
  if (typeof ref !== 'string' || typeof after !== 'string' || typeof before !== 'string' || event.project_id === null) return null;
  if (after === ZERO_SHA) return null;
  return { projectId: event.project_id, ref, before, after };
}

/** The bridge whose downstream pipeline is due: a bridge job that became `pending`. */
export function bridgeTriggerRequest(event: DomainEvent): number | null {
  if (event.type !== CI_EVENTS.JOB_STATUS_CHANGED) return null;
  const data = event.data as { type?: unknown; to?: unknown; job_id?: unknown };
  return data.type === 'bridge' && data.to === 'pending' && typeof data.job_id === 'number' ? data.job_id : null;
}

/** The downstream pipeline whose status a `strategy: depend` bridge follows. */
export function downstreamStatusChange(event: DomainEvent): number | null {
  if (event.type !== CI_EVENTS.PIPELINE_STATUS_CHANGED && event.type !== CI_EVENTS.PIPELINE_CREATED) return null;
  const data = event.data as { source?: unknown; pipeline_id?: unknown };
  return (data.source === 'parent_pipeline' || data.source === 'pipeline') && typeof data.pipeline_id === 'number' ? data.pipeline_id : null;
}

/**
 * Creates the pipeline of every pushed branch or tag whose commit has a `.gitlab-ci.yml`
 * (source `push`), reacting to the `push` / `tag_push` domain events, and the merge request
 * pipelines (source `merge_request_event`) of merge requests opened, reopened, or whose source
 * branch was pushed. A consumer rather than a
 * call in the push path: the push answers the git client without waiting for configuration
 * parsing, a failure is retried (then dead-lettered) instead of failing the push, and the
 * delay (outbox relay woken by NOTIFY, then Kafka) is tens of milliseconds. Idempotent: the
 * pipeline records the event id.
 *
 * Also starts the downstream pipeline of a bridge that became `pending` (`job.status_changed`),
 * and moves a `strategy: depend` bridge with its downstream pipeline (`pipeline.status_changed`).
 */
@Injectable()
export class CiPushConsumer extends DomainEventSubscriber {
  private readonly logger = new Logger(CiPushConsumer.name);

  constructor(
    private readonly projects: ProjectsRepository,
    private readonly createPipeline: CreatePipelineUseCase,
    private readonly downstream: TriggerDownstreamUseCase,
    private readonly mergeRequests: MergeRequestPipelineSources,
  ) {
    super();
  }

  protected consumerOptions(): DomainEventConsumerOptions {
    return { groupId: CONSUMER_GROUPS.CI_PIPELINES, handler: (event) => this.handle(event) };
  }

  async handle(event: DomainEvent): Promise<void> {
    const bridgeId = bridgeTriggerRequest(event);
    if (bridgeId !== null) return this.downstream.execute(bridgeId, event.id);
    const downstreamId = downstreamStatusChange(event);
    if (downstreamId !== null) return this.downstream.mirror(downstreamId);
    const mergeRequestId = mergeRequestPipelineRequest(event);
    if (mergeRequestId !== null) {
      const mr = await this.mergeRequests.openById(mergeRequestId);
      if (mr) await this.mergeRequestPipeline(mr, event);
      return;
    }
    const request = pushPipelineRequest(event);
    if (!request) return;
    await this.pushPipeline(request, event);
    const pushed = pushedBranch(event);
    if (pushed) for (const mr of await this.mergeRequests.openWithSourceBranch(pushed.projectId, pushed.branch)) await this.mergeRequestPipeline(mr, event, pushed.sha);
  }

  private async pushPipeline(request: NonNullable<ReturnType<typeof pushPipelineRequest>>, event: DomainEvent): Promise<void> {
    const project = await this.projects.findById(request.projectId);
    if (!project) return;
    const result = await this.createPipeline.execute({
      project,
      ref: request.ref,
      sha: request.after,
      beforeSha: request.before,
      source: 'push',
      actorId: event.actor,
      triggerEventId: event.id,
      saveOnErrors: true,
    });
    if (!result.created) this.logger.debug(`no pipeline for ${request.ref} of project ${request.projectId}: ${result.reason}`);
  }

  /**
   * A merge request pipeline (GitLab's "merge request pipelines"): created when the merge
   * request is opened or reopened, and when its source branch is pushed, at the source head
   * (`sha`: the pushed commit). Created only when the configuration, evaluated with source
   * `merge_request_event`, keeps jobs (`rules` asking for it, `only: merge_requests`); an invalid
   * configuration saves nothing here (the branch pipeline shows its errors).
   */
  private async mergeRequestPipeline(mr: MergeRequestForPipeline, event: DomainEvent, sha?: string): Promise<void> {
    const project = await this.projects.findById(mr.projectId);
    if (!project) return;
    try {
      const result = await this.createPipeline.execute({
        project,
        ref: `refs/heads/${mr.sourceBranch}`,
        sha,
        source: 'merge_request_event',
        actorId: event.actor,
        triggerEventId: mergeRequestTriggerId(event.id, mr.id),
        saveOnErrors: false,
        mergeRequest: mr,
      });
      if (!result.created) this.logger.debug(`no merge request pipeline for !${mr.iid} of project ${mr.projectId}: ${result.reason}`);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      this.logger.debug(`no merge request pipeline for !${mr.iid} of project ${mr.projectId}: ${error.message}`);
    }
  }
}
