import { Injectable, Logger } from '@nestjs/common';
import { CONSUMER_GROUPS, DomainEvent, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import { ProjectsRepository } from '@app/namespaces';
import { PUSH_EVENTS, ZERO_SHA } from '@app/repository';
import { CI_EVENTS } from '../ci.events';
import { CreatePipelineUseCase } from '../use-cases/create-pipeline.use-case';
import { TriggerDownstreamUseCase } from '../use-cases/trigger-downstream.use-case';

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
 * (source `push`), reacting to the `push` / `tag_push` domain events. A consumer rather than a
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
    const request = pushPipelineRequest(event);
    if (!request) return;
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
}
