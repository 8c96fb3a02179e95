import { presentUserSummary } from '@app/identity';
import type { CiVariableType } from '../entities/ci-pipeline-variable.entity';
import type { CiPipelineEntity } from '../entities/ci-pipeline.entity';

/** `namespace/path` of a project: the path in the web URLs of its pipelines and jobs. */
export const projectFullPathOf = (project: { path: string; namespace: { fullPath: string } }): string => `${project.namespace.fullPath}/${project.path}`;

/** Timestamps as GitLab writes them (milliseconds, `Z`). */
export const iso = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);

export const pipelineWebUrl = (externalUrl: string, projectFullPath: string, pipelineId: number): string =>
  `${externalUrl}/${projectFullPath}/-/pipelines/${pipelineId}`;

/** The list view of a pipeline (the fields `GET /projects/:id/pipelines` returns). */
export function presentPipelineBasic(pipeline: CiPipelineEntity, projectFullPath: string, externalUrl: string): Record<string, unknown> {
  return {
    id: pipeline.id,
    iid: pipeline.iid,
    project_id: pipeline.projectId,
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: pipeline.status,
    source: pipeline.source,
    created_at: iso(pipeline.createdAt),
    updated_at: iso(pipeline.updatedAt),
    web_url: pipelineWebUrl(externalUrl, projectFullPath, pipeline.id),
  };
}

/** A pipeline with every field (`GET …/pipelines/:pipeline_id`, `POST …/pipeline`). */
export function presentPipeline(pipeline: CiPipelineEntity, projectFullPath: string, externalUrl: string): Record<string, unknown> {
  return {
    ...presentPipelineBasic(pipeline, projectFullPath, externalUrl),
    name: null,
    before_sha: pipeline.beforeSha,
    tag: pipeline.tag,
    yaml_errors: pipeline.yamlErrors,
    user: pipeline.user ? presentUserSummary(pipeline.user, externalUrl) : null,
    started_at: iso(pipeline.startedAt),
    finished_at: iso(pipeline.finishedAt),
    committed_at: iso(pipeline.committedAt),
    duration: pipeline.duration,
    queued_duration: pipeline.queuedDuration,
    coverage: pipeline.coverage,
    detailed_status: detailedStatus(pipeline.status),
  };
}

const STATUS_TEXT: Record<string, [string, string, string]> = {
  created: ['created', 'created', 'status_created'],
  waiting_for_resource: ['waiting', 'waiting for resource', 'status_pending'],
  preparing: ['preparing', 'preparing', 'status_preparing'],
  pending: ['pending', 'pending', 'status_pending'],
  running: ['running', 'running', 'status_running'],
  success: ['passed', 'passed', 'status_success'],
  failed: ['failed', 'failed', 'status_failed'],
  canceled: ['canceled', 'canceled', 'status_canceled'],
  skipped: ['skipped', 'skipped', 'status_skipped'],
  manual: ['blocked', 'waiting for manual action', 'status_manual'],
  scheduled: ['scheduled', 'waiting for delayed job', 'status_scheduled'],
};

/** GitLab's `detailed_status` (text, label, icon, group). */
export function detailedStatus(status: string): Record<string, unknown> {
  const [text, label, icon] = STATUS_TEXT[status] ?? [status, status, `status_${status}`];
  return { icon, text, label, group: status, tooltip: label, has_details: false, details_path: null, favicon: `/assets/ci_favicons/favicon_${icon}.png` };
}

export function presentPipelineVariable(variable: { key: string; value: string; variableType: CiVariableType }): Record<string, unknown> {
  return { key: variable.key, variable_type: variable.variableType, value: variable.value };
}
