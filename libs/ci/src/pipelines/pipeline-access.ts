import { DomainError, intParam, type ResourceAccess } from '@app/api';
import { ACCESS_LEVELS, projectOf, ProjectWithNamespace } from '@app/namespaces';
import type { CiPipelineEntity } from '../entities/ci-pipeline.entity';
import type { PipelinesRepository } from './pipelines.repository';

/** Reporters read pipelines; developers run them (GitLab's `read_pipeline` / `create_pipeline`). */
export const READ_PIPELINE_LEVEL = ACCESS_LEVELS.REPORTER;
export const CREATE_PIPELINE_LEVEL = ACCESS_LEVELS.DEVELOPER;

/**
 * The project of a pipelines or jobs route. Who reads them (GitLab's `read_pipeline`: the
 * builds feature, `public_jobs`, the project's visibility) is decided once by the access guard
 * for every `/projects/:id/pipeline(s)` and `/projects/:id/jobs` route (`projectFeatureReadable`).
 */
export function readablePipelinesOf(access: ResourceAccess): ProjectWithNamespace {
  return projectOf(access);
}

/** The pipeline `:pipeline_id` of the project; 404 `Pipeline Not Found` otherwise. */
export async function pipelineIn(pipelines: PipelinesRepository, project: ProjectWithNamespace, rawId: string): Promise<CiPipelineEntity> {
  const pipeline = await pipelines.find(project.id, intParam('pipeline_id', rawId, 'Pipeline'));
  if (!pipeline) throw DomainError.notFound('Pipeline');
  return pipeline;
}
