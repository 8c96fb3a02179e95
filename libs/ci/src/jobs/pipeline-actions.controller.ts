import { Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { CurrentPrincipal, CurrentProject, intParam, LastModified, Principal, ProjectAccess, ResourceAccess, rowChangedAt } from '@app/api';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, projectOf } from '@app/namespaces';
import { CiPipelineEntity } from '../entities/ci-pipeline.entity';
import { CREATE_PIPELINE_LEVEL, pipelineIn } from '../pipelines/pipeline-access';
import { presentPipeline, projectFullPathOf } from '../pipelines/pipeline.presenter';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { PipelineActionsUseCase } from './pipeline-actions.use-case';

/** `POST /projects/:id/pipelines/:pipeline_id/retry|cancel` and `DELETE /projects/:id/pipelines/:pipeline_id`: what acts on a pipeline's jobs. */
@Controller()
export class PipelineActionsController {
  constructor(
    private readonly config: AppConfig,
    private readonly pipelines: PipelinesRepository,
    private readonly actions: PipelineActionsUseCase,
  ) {}

  /** Retries the failed and canceled jobs (new attempts); the jobs their failure skipped run again. */
  @Post('projects/:id/pipelines/:pipeline_id/retry')
  @HttpCode(201)
  @ProjectAccess(CREATE_PIPELINE_LEVEL)
  async retry(
    @CurrentProject() access: ResourceAccess,
    @Param('pipeline_id') rawId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    await this.actions.retry(await pipelineIn(this.pipelines, project, rawId), principal.user.id);
    return presentPipeline(await pipelineIn(this.pipelines, project, rawId), projectFullPathOf(project), this.config.http.externalUrl);
  }

  /** Cancels every job that has not finished. */
  @Post('projects/:id/pipelines/:pipeline_id/cancel')
  @HttpCode(201)
  @ProjectAccess(CREATE_PIPELINE_LEVEL)
  async cancel(
    @CurrentProject() access: ResourceAccess,
    @Param('pipeline_id') rawId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    await this.actions.cancel(await pipelineIn(this.pipelines, project, rawId), principal.user.id);
    return presentPipeline(await pipelineIn(this.pipelines, project, rawId), projectFullPathOf(project), this.config.http.externalUrl);
  }

  /** Owners only: the pipeline, its jobs, logs and artifacts (child pipelines stay). */
  @Delete('projects/:id/pipelines/:pipeline_id')
  @HttpCode(204)
  @ProjectAccess(ACCESS_LEVELS.OWNER)
  @LastModified((request, get) => rowChangedAt(get, CiPipelineEntity, { id: intParam('pipeline_id', request.params.pipeline_id, 'Pipeline') }))
  async delete(@CurrentProject() access: ResourceAccess, @Param('pipeline_id') rawId: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    const project = projectOf(access);
    await this.actions.delete(await pipelineIn(this.pipelines, project, rawId), principal.user.id);
  }
}
