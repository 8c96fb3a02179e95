import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, CurrentProject, DomainError, intParam, LastModified, paginateOffset, Principal, ProjectAccess, ResourceAccess, rowChangedAt } from '@app/api';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, projectOf, ProjectWithNamespace } from '@app/namespaces';
import { CreatePipelineDto, ListPipelinesDto } from './dto/pipeline.dto';
import { CiPipelineEntity } from './entities/ci-pipeline.entity';
import { PipelinesRepository } from './pipelines/pipelines.repository';
import { presentPipeline, presentPipelineBasic, presentPipelineVariable, projectFullPathOf } from './presenters/pipeline.presenter';
import { CreatePipelineUseCase } from './use-cases/create-pipeline.use-case';
import { PipelineActionsUseCase } from './use-cases/pipeline-actions.use-case';
import { presentTestReport, presentTestReportSummary, TestReportsService } from './reports/test-reports.service';

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


/** `/projects/:id/pipeline` and `/projects/:id/pipelines/…`. */
@Controller()
export class PipelinesController {
  constructor(
    private readonly config: AppConfig,
    private readonly pipelines: PipelinesRepository,
    private readonly createPipeline: CreatePipelineUseCase,
    private readonly actions: PipelineActionsUseCase,
    private readonly testReports: TestReportsService,
  ) {}

  @Post('projects/:id/pipeline')
  @ProjectAccess(CREATE_PIPELINE_LEVEL)
  async create(@CurrentProject() access: ResourceAccess, @Body() dto: CreatePipelineDto, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const result = await this.createPipeline.execute({
      project,
      ref: dto.ref,
      source: principal.credential === 'session' ? 'web' : 'api',
      actorId: principal.user.id,
      variables: dto.variables,
      saveOnErrors: false,
    });
    if (!result.created) throw DomainError.invalid({ base: [result.reason] });
    const pipeline = await this.pipelines.find(project.id, result.pipeline.id);
    return presentPipeline(pipeline ?? result.pipeline, projectFullPathOf(project), this.config.http.externalUrl);
  }

  @Get('projects/:id/pipelines')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async list(@CurrentProject() access: ResourceAccess, @Query() dto: ListPipelinesDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>[]> {
    const project = readablePipelinesOf(access);
    const rows = await paginateOffset(this.pipelines.list(project.id, dto), req, reply, { externalUrl: this.config.http.externalUrl });
    return rows.map((pipeline) => presentPipelineBasic(pipeline, projectFullPathOf(project), this.config.http.externalUrl));
  }

  @Get('projects/:id/pipelines/:pipeline_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async get(@CurrentProject() access: ResourceAccess, @Param('pipeline_id') rawId: string): Promise<Record<string, unknown>> {
    const project = readablePipelinesOf(access);
    return presentPipeline(await this.findIn(project, rawId), projectFullPathOf(project), this.config.http.externalUrl);
  }

  @Get('projects/:id/pipelines/:pipeline_id/variables')
  @ProjectAccess(CREATE_PIPELINE_LEVEL)
  async variables(@CurrentProject() access: ResourceAccess, @Param('pipeline_id') rawId: string): Promise<Record<string, unknown>[]> {
    const pipeline = await this.findIn(projectOf(access), rawId);
    return (await this.pipelines.variables(pipeline.id)).map(presentPipelineVariable);
  }

  /** The JUnit reports of the pipeline's latest jobs (and of its child pipelines), suite by job name. */
  @Get('projects/:id/pipelines/:pipeline_id/test_report')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async testReport(@CurrentProject() access: ResourceAccess, @Param('pipeline_id') rawId: string): Promise<Record<string, unknown>> {
    const pipeline = await this.findIn(readablePipelinesOf(access), rawId);
    return presentTestReport(await this.testReports.build(pipeline.id));
  }

  @Get('projects/:id/pipelines/:pipeline_id/test_report_summary')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async testReportSummary(@CurrentProject() access: ResourceAccess, @Param('pipeline_id') rawId: string): Promise<Record<string, unknown>> {
    const pipeline = await this.findIn(readablePipelinesOf(access), rawId);
    return presentTestReportSummary(await this.testReports.build(pipeline.id));
  }

  /** Retries the failed and canceled jobs (new attempts); the jobs their failure skipped run again. */
  @Post('projects/:id/pipelines/:pipeline_id/retry')
  @HttpCode(201)
  @ProjectAccess(CREATE_PIPELINE_LEVEL)
  async retry(@CurrentProject() access: ResourceAccess, @Param('pipeline_id') rawId: string, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    await this.actions.retry(await this.findIn(project, rawId), principal.user.id);
    return presentPipeline(await this.findIn(project, rawId), projectFullPathOf(project), this.config.http.externalUrl);
  }

  /** Cancels every job that has not finished. */
  @Post('projects/:id/pipelines/:pipeline_id/cancel')
  @HttpCode(201)
  @ProjectAccess(CREATE_PIPELINE_LEVEL)
  async cancel(@CurrentProject() access: ResourceAccess, @Param('pipeline_id') rawId: string, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    await this.actions.cancel(await this.findIn(project, rawId), principal.user.id);
    return presentPipeline(await this.findIn(project, rawId), projectFullPathOf(project), this.config.http.externalUrl);
  }

  /** Owners only: the pipeline, its jobs, logs and artifacts (child pipelines stay). */
  @Delete('projects/:id/pipelines/:pipeline_id')
  @HttpCode(204)
  @ProjectAccess(ACCESS_LEVELS.OWNER)
  @LastModified((request, get) => rowChangedAt(get, CiPipelineEntity, { id: intParam('pipeline_id', request.params.pipeline_id, 'Pipeline') }))
  async delete(@CurrentProject() access: ResourceAccess, @Param('pipeline_id') rawId: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    const project = projectOf(access);
    await this.actions.delete(await this.findIn(project, rawId), principal.user.id);
  }

  private async findIn(project: ProjectWithNamespace, rawId: string): Promise<CiPipelineEntity> {
    const pipeline = await this.pipelines.find(project.id, intParam('pipeline_id', rawId, 'Pipeline'));
    if (!pipeline) throw DomainError.notFound('Pipeline');
    return pipeline;
  }
}
