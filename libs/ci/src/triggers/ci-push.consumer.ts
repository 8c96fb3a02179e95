import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@app/api';
import { CataloguedEvent, CONSUMER_GROUPS, DomainEvent, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import { ProjectsRepository } from '@app/namespaces';
import { Push, pushOf } from '@app/repository';
import { CreatePipelineUseCase } from '../pipelines/create-pipeline.use-case';
import { TriggerDownstreamUseCase } from './trigger-downstream.use-case';
import { MergeRequestForPipeline, mergeRequestPipelineRequest, mergeRequestTriggerId, pushedBranch } from '../pipelines/merge-request-pipelines';
import { MergeRequestPipelineSources } from '../pipelines/merge-request-pipelines.repository';

/** The pipeline a push asks for, or null (deletions). */
export function pushPipelineRequest(push: Push): { projectId: number; ref: string; before: string; after: string } | null {
  if (push.projectId === null || push.deleted) return null;
  return { projectId: push.projectId, ref: push.ref, before: push.before, after: push.after };
}

/** The bridge whose downstream pipeline is due: a bridge job that became `pending`. */
export function bridgeTriggerRequest(event: CataloguedEvent<'job.status_changed'>): number | null {
  const { type, to, job_id: jobId } = event.data;
  return type === 'bridge' && to === 'pending' ? jobId : null;
}

/** The downstream pipeline whose status a `strategy: depend` bridge follows. */
export function downstreamStatusChange(event: CataloguedEvent<'pipeline.status_changed' | 'pipeline.created'>): number | null {
  const { source, pipeline_id: pipelineId } = event.data;
  return source === 'parent_pipeline' || source === 'pipeline' ? pipelineId : null;
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
    const downstream = (event: CataloguedEvent<'pipeline.status_changed' | 'pipeline.created'>) => this.onDownstreamStatus(event);
    const mergeRequest = (event: CataloguedEvent<'merge_request.opened' | 'merge_request.reopened'>) => this.onMergeRequest(event);
    return {
      groupId: CONSUMER_GROUPS.CI_PIPELINES,
      handlers: {
        push: (event) => this.onPush(event),
        tag_push: (event) => this.onPush(event),
        'job.status_changed': (event) => this.onJobStatus(event),
        'pipeline.status_changed': downstream,
        'pipeline.created': downstream,
        'merge_request.opened': mergeRequest,
        'merge_request.reopened': mergeRequest,
      },
    };
  }

  async onJobStatus(event: CataloguedEvent<'job.status_changed'>): Promise<void> {
    const bridgeId = bridgeTriggerRequest(event);
    if (bridgeId !== null) await this.downstream.execute(bridgeId, event.id);
  }

  async onDownstreamStatus(event: CataloguedEvent<'pipeline.status_changed' | 'pipeline.created'>): Promise<void> {
    const downstreamId = downstreamStatusChange(event);
    if (downstreamId !== null) await this.downstream.mirror(downstreamId);
  }

  async onMergeRequest(event: CataloguedEvent<'merge_request.opened' | 'merge_request.reopened'>): Promise<void> {
    const mr = await this.mergeRequests.openById(mergeRequestPipelineRequest(event));
    if (mr) await this.mergeRequestPipeline(mr, event);
  }

  async onPush(event: CataloguedEvent<'push' | 'tag_push'>): Promise<void> {
    const push = pushOf(event);
    const request = pushPipelineRequest(push);
    if (!request) return;
    await this.pushPipeline(request, event);
    const pushed = pushedBranch(push);
    if (pushed)
      for (const mr of await this.mergeRequests.openWithSourceBranch(pushed.projectId, pushed.branch)) await this.mergeRequestPipeline(mr, event, pushed.sha);
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
