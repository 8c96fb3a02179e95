import { Controller, Get, HttpCode, Param, Post, Query, Req, Res, StreamableFile } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, CurrentProject, DomainError, intParam, KeysetListing, paginateQuery, Principal, ProjectAccess, ResourceAccess } from '@app/api';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, projectOf, ProjectWithNamespace } from '@app/namespaces';
import { projectFullPathOf } from '../pipelines/pipeline.presenter';
import { ListJobsDto } from './job.dto';
import type { CiJobEntity } from '../entities/ci-job.entity';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { readablePipelinesOf } from '../pipelines/pipeline-access';
import { JobViews } from './job-views.service';
import { ObjectStorage } from '../storage/object-storage';
import { JobActionsUseCase } from './job-actions.use-case';
import { JobsRepository } from './jobs.repository';

/** Jobs are paged by keyset on their id (highest first), as GitLab's project jobs list. */
export const JOB_KEYSET: KeysetListing<CiJobEntity> = {
  keyset: { allowedOrderBy: ['id'], defaultOrderBy: 'id', defaultSort: 'desc' },
  columns: { idExpression: 'j.id', id: (job) => job.id, orderExpressions: {}, orderValues: {} },
};

/** Developers run, cancel and retry jobs (GitLab's `update_build`); maintainers erase any job, developers their own. */
export const UPDATE_BUILD_LEVEL = ACCESS_LEVELS.DEVELOPER;

/** `/projects/:id/jobs/…` and the job lists of a pipeline (`…/pipelines/:pipeline_id/jobs|bridges`). */
@Controller()
export class JobsController {
  constructor(
    private readonly config: AppConfig,
    private readonly jobs: JobsRepository,
    private readonly pipelines: PipelinesRepository,
    private readonly views: JobViews,
    private readonly actions: JobActionsUseCase,
    private readonly storage: ObjectStorage,
  ) {}

  @Get('projects/:id/jobs')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async list(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: ListJobsDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const project = readablePipelinesOf(access);
    // GitLab's project list keeps retried attempts; the pipeline list hides them unless asked.
    const qb = this.jobs.list({ projectId: project.id, type: 'build', statuses: dto.scope, includeRetried: true });
    const rows = await paginateQuery(qb, req, reply, { externalUrl: this.config.http.externalUrl, keyset: JOB_KEYSET });
    return this.views.present(rows, projectFullPathOf(project));
  }

  @Get('projects/:id/pipelines/:pipeline_id/jobs')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async pipelineJobs(
    @CurrentProject() access: ResourceAccess,
    @Param('pipeline_id') rawId: string,
    @Query() dto: ListJobsDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const project = readablePipelinesOf(access);
    const pipelineId = await this.pipelineIn(project, rawId);
    const qb = this.jobs.list({ projectId: project.id, pipelineId, type: 'build', statuses: dto.scope, includeRetried: dto.include_retried ?? false });
    const rows = await paginateQuery(qb, req, reply, { externalUrl: this.config.http.externalUrl });
    return this.views.present(rows, projectFullPathOf(project));
  }

  @Get('projects/:id/pipelines/:pipeline_id/bridges')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async bridges(
    @CurrentProject() access: ResourceAccess,
    @Param('pipeline_id') rawId: string,
    @Query() dto: ListJobsDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const project = readablePipelinesOf(access);
    const pipelineId = await this.pipelineIn(project, rawId);
    const qb = this.jobs.list({ projectId: project.id, pipelineId, type: 'bridge', statuses: dto.scope, includeRetried: dto.include_retried ?? false });
    const rows = await paginateQuery(qb, req, reply, { externalUrl: this.config.http.externalUrl });
    return this.views.present(rows, projectFullPathOf(project));
  }

  @Get('projects/:id/jobs/:job_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async get(@CurrentProject() access: ResourceAccess, @Param('job_id') rawId: string): Promise<Record<string, unknown>> {
    const project = readablePipelinesOf(access);
    return this.views.presentOne(await this.jobIn(project, rawId), projectFullPathOf(project));
  }

  /** The log as plain text, streamed from object storage; 404 when the job or its log does not exist. */
  @Get('projects/:id/jobs/:job_id/trace')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async trace(@CurrentProject() access: ResourceAccess, @Param('job_id') rawId: string): Promise<StreamableFile> {
    const project = readablePipelinesOf(access);
    const job = await this.jobIn(project, rawId);
    const trace = await this.jobs.trace(job.id);
    // Up to the committed length: a chunk being written is not shown half-way.
    const object = trace && !job.erasedAt ? await this.storage.get(trace.storageKey, { length: Number(trace.size) }) : null;
    if (!object) throw DomainError.notFound('Trace');
    return new StreamableFile(object.stream, { type: 'text/plain; charset=utf-8', length: object.size, disposition: `inline; filename="${job.id}.log"` });
  }

  @Post('projects/:id/jobs/:job_id/cancel')
  @HttpCode(201)
  @ProjectAccess(UPDATE_BUILD_LEVEL)
  async cancel(
    @CurrentProject() access: ResourceAccess,
    @Param('job_id') rawId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const job = await this.actions.cancel(await this.jobIn(project, rawId), principal.user.id);
    return this.views.presentOne(job, projectFullPathOf(project));
  }

  @Post('projects/:id/jobs/:job_id/retry')
  @HttpCode(201)
  @ProjectAccess(UPDATE_BUILD_LEVEL)
  async retry(
    @CurrentProject() access: ResourceAccess,
    @Param('job_id') rawId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const job = await this.actions.retry(await this.jobIn(project, rawId), principal.user.id);
    return this.views.presentOne(job, projectFullPathOf(project));
  }

  @Post('projects/:id/jobs/:job_id/play')
  @HttpCode(200)
  @ProjectAccess(UPDATE_BUILD_LEVEL)
  async play(
    @CurrentProject() access: ResourceAccess,
    @Param('job_id') rawId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const job = await this.actions.play(await this.jobIn(project, rawId), principal.user.id);
    return this.views.presentOne(job, projectFullPathOf(project));
  }

  @Post('projects/:id/jobs/:job_id/erase')
  @HttpCode(201)
  @ProjectAccess(UPDATE_BUILD_LEVEL)
  async erase(
    @CurrentProject() access: ResourceAccess,
    @Param('job_id') rawId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const job = await this.jobIn(project, rawId);
    if (access.accessLevel < ACCESS_LEVELS.MAINTAINER && !principal.user.isAdmin && job.userId !== principal.user.id) throw DomainError.forbidden();
    return this.views.presentOne(await this.actions.erase(job, principal.user.id), projectFullPathOf(project));
  }

  private async jobIn(project: ProjectWithNamespace, rawId: string): Promise<CiJobEntity> {
    const job = await this.jobs.findInProject(project.id, intParam('job_id', rawId, 'Job'));
    if (!job) throw DomainError.notFound('Job');
    return job;
  }

  private async pipelineIn(project: ProjectWithNamespace, rawId: string): Promise<number> {
    const pipeline = await this.pipelines.find(project.id, intParam('pipeline_id', rawId, 'Pipeline'));
    if (!pipeline) throw DomainError.notFound('Pipeline');
    return pipeline.id;
  }
}
