import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { presentUserSummary } from '@app/identity';
import { nameWithNamespace, pathWithNamespace, ProjectsRepository } from '@app/namespaces';
import { JobViewsRepository } from '../jobs/job-views.repository';
import { JobsRepository } from '../jobs/jobs.repository';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { presentPipelineBasic } from '../pipelines/pipeline.presenter';

/**
 * `GET /job/allowed_agents` (PREMIUM): the Kubernetes agents a running job may use, with the job,
 * its pipeline, project (and the project's groups, top-level first) and user. The service has no
 * agents, so the list is empty: GitLab's answer for a project that no agent authorizes. Null when
 * the token is not that of a running job with a user (the caller answers 401).
 *
 * The fields are those of GitLab's first answer (`JobRequest::JobInfo`, `PipelineBasic`,
 * `ProjectIdentity`, `UserBasic`), which later versions narrowed to ids; `project.groups` is the
 * later addition. No `environment`: the service keeps no environments.
 */
@Injectable()
export class ListAllowedAgentsUseCase {
  constructor(
    private readonly config: AppConfig,
    private readonly views: JobViewsRepository,
    private readonly jobs: JobsRepository,
    private readonly pipelines: PipelinesRepository,
    private readonly projects: ProjectsRepository,
  ) {}

  async execute(token: string): Promise<Record<string, unknown> | null> {
    const job = token ? await this.jobs.findByToken(token) : null;
    if (!job || job.status !== 'running' || job.userId === null) return null;
    const [project, pipeline, user] = await Promise.all([
      this.projects.findById(job.projectId),
      this.pipelines.find(job.projectId, job.pipelineId),
      this.views.user(job.userId),
    ]);
    if (!project || !pipeline || !user) return null;
    const externalUrl = this.config.http.externalUrl;
    const fullPath = pathWithNamespace(project, project.namespace);
    const groups = project.namespace.kind === 'group' ? project.namespace.traversalIds.map((id) => ({ id })) : [];
    return {
      allowed_agents: [],
      job: { id: job.id, name: job.name, stage: job.stage, project_id: job.projectId, project_name: project.name },
      pipeline: presentPipelineBasic(pipeline, fullPath, externalUrl),
      project: {
        id: project.id,
        description: project.description,
        name: project.name,
        name_with_namespace: nameWithNamespace(project, project.namespace),
        path: project.path,
        path_with_namespace: fullPath,
        created_at: project.createdAt.toISOString(),
        groups,
      },
      user: presentUserSummary(user, externalUrl),
    };
  }
}
