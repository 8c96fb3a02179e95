import { Type } from '@sinclair/typebox';
import { Data, defineEvents, Id, NullableId, NullableString } from './event-part';

const PipelineData = Data({
  pipeline_id: Id,
  iid: Id,
  status: Type.String(),
  source: Type.String(),
  ref: Type.String(),
  sha: Type.String(),
  before_sha: Type.String(),
  tag: Type.Boolean(),
  yaml_errors: NullableString,
  parent_pipeline_id: NullableId,
  from: Type.Optional(Type.String()),
  to: Type.Optional(Type.String()),
});

const JobData = Data({
  job_id: Id,
  pipeline_id: Id,
  name: Type.String(),
  stage: Type.String(),
  type: Type.String({ description: '`build` or `bridge`' }),
  from: Type.String(),
  to: Type.String(),
  failure_reason: NullableString,
  allow_failure: Type.Boolean(),
  runner_id: NullableId,
  ref: Type.String(),
  sha: Type.String(),
  erased_by_id: Type.Optional(NullableId),
  artifacts_removed: Type.Optional(Type.Integer({ minimum: 0, description: '`job.erased`: artifact files removed' })),
  trace_removed: Type.Optional(Type.Boolean({ description: '`job.erased`: whether a log was removed' })),
});

/** Events of `libs/ci`: pipelines and jobs. */
export const CI_EVENT_PART = defineEvents({
  'pipeline.created': { description: 'A pipeline was created (from a push, the API, or a bridge).', data: PipelineData },
  'pipeline.status_changed': { description: 'A pipeline changed status (`from`, `to`).', data: PipelineData },
  'pipeline.deleted': { description: 'A pipeline was deleted with its jobs, traces and artifacts.', data: PipelineData },
  'job.status_changed': { description: 'A job changed status (`from`, `to`; `failure_reason` when it failed).', data: JobData },
  'job.erased': { description: 'The artifacts and log of a job were erased.', data: JobData },
});
