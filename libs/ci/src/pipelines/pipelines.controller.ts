import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, CurrentProject, DomainError, paginateOffset, Principal, ProjectAccess, ResourceAccess } from '@app/api';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, projectOf } from '@app/namespaces';
import { CreatePipelineUseCase } from './create-pipeline.use-case';
import { CREATE_PIPELINE_LEVEL, pipelineIn, readablePipelinesOf } from './pipeline-access';
import { CreatePipelineDto, ListPipelinesDto } from './pipeline.dto';
import { presentPipeline, presentPipelineBasic, presentPipelineVariable, projectFullPathOf } from './pipeline.presenter';
import { PipelinesRepository } from './pipelines.repository';

/** `/projects/:id/pipeline` and the reads of `/projects/:id/pipelines/…` (the actions are `PipelineActionsController`, the test reports `TestReportsController`). */
@Controller()
export class PipelinesController {
  constructor(
    private readonly config: AppConfig,
    private readonly pipelines: PipelinesRepository,
    private readonly createPipeline: CreatePipelineUseCase,
  ) {}

  @Post('projects/:id/pipeline')
  @ProjectAccess(CREATE_PIPELINE_LEVEL)
  async create(
    @CurrentProject() access: ResourceAccess,
    @Body() dto: CreatePipelineDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
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
  async list(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: ListPipelinesDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const project = readablePipelinesOf(access);
    const rows = await paginateOffset(this.pipelines.list(project.id, dto), req, reply, { externalUrl: this.config.http.externalUrl });
    return rows.map((pipeline) => presentPipelineBasic(pipeline, projectFullPathOf(project), this.config.http.externalUrl));
  }

  @Get('projects/:id/pipelines/:pipeline_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async get(@CurrentProject() access: ResourceAccess, @Param('pipeline_id') rawId: string): Promise<Record<string, unknown>> {
    const project = readablePipelinesOf(access);
    return presentPipeline(await pipelineIn(this.pipelines, project, rawId), projectFullPathOf(project), this.config.http.externalUrl);
  }

  @Get('projects/:id/pipelines/:pipeline_id/variables')
  @ProjectAccess(CREATE_PIPELINE_LEVEL)
  async variables(@CurrentProject() access: ResourceAccess, @Param('pipeline_id') rawId: string): Promise<Record<string, unknown>[]> {
    const pipeline = await pipelineIn(this.pipelines, projectOf(access), rawId);
    return (await this.pipelines.variables(pipeline.id)).map(presentPipelineVariable);
  }
}
