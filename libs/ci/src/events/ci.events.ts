import type { DomainEventData, DomainEventType, NewDomainEvent } from '@app/messaging';
import type { CiJobEntity } from '../entities/ci-job.entity';
import type { CiPipelineEntity } from '../entities/ci-pipeline.entity';
import type { JobStatus } from '../status/ci-status';

/** Domain event types of pipelines and jobs. Never rename: consumers match on them. */
export const CI_EVENTS = {
  PIPELINE_CREATED: 'pipeline.created',
  PIPELINE_STATUS_CHANGED: 'pipeline.status_changed',
  PIPELINE_DELETED: 'pipeline.deleted',
  JOB_STATUS_CHANGED: 'job.status_changed',
  JOB_ERASED: 'job.erased',
} as const satisfies Record<string, DomainEventType>;

export type CiEventType = (typeof CI_EVENTS)[keyof typeof CI_EVENTS];
type PipelineEventType = Extract<CiEventType, `pipeline.${string}`>;
type PipelineEventData = DomainEventData<PipelineEventType>;

export interface CiEventScope {
  projectId: number;
  groupId: number | null;
}

function pipelineData(pipeline: CiPipelineEntity): PipelineEventData {
  return {
    pipeline_id: pipeline.id,
    iid: pipeline.iid,
    status: pipeline.status,
    source: pipeline.source,
    ref: pipeline.ref,
    sha: pipeline.sha,
    before_sha: pipeline.beforeSha,
    tag: pipeline.tag,
    yaml_errors: pipeline.yamlErrors,
    parent_pipeline_id: pipeline.parentPipelineId,
  };
}

export function pipelineEvent(
  type: PipelineEventType,
  actorId: number | null,
  pipeline: CiPipelineEntity,
  scope: CiEventScope,
  extra: Pick<PipelineEventData, 'from' | 'to'> = {},
): NewDomainEvent<PipelineEventType> {
  return {
    type,
    actor: actorId,
    projectId: scope.projectId,
    groupId: scope.groupId,
    target: { type: 'pipeline', id: pipeline.id, iid: pipeline.iid, title: pipeline.ref },
    data: { ...pipelineData(pipeline), ...extra },
  };
}

export function jobStatusEvent(
  actorId: number | null,
  job: CiJobEntity,
  from: JobStatus,
  scope: CiEventScope,
): NewDomainEvent<typeof CI_EVENTS.JOB_STATUS_CHANGED> {
  return {
    type: CI_EVENTS.JOB_STATUS_CHANGED,
    actor: actorId,
    projectId: scope.projectId,
    groupId: scope.groupId,
    target: { type: 'job', id: job.id, title: job.name },
    data: {
      job_id: job.id,
      pipeline_id: job.pipelineId,
      name: job.name,
      stage: job.stage,
      type: job.type,
      from,
      to: job.status,
      failure_reason: job.failureReason,
      allow_failure: job.allowFailure,
      runner_id: job.runnerId,
      ref: job.ref,
      sha: job.sha,
    },
  };
}
