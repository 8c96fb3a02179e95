import { Body, Controller, Get, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CurrentPrincipal, CurrentProject, DomainError, paginateOffset, Principal, ProjectAccess, ResourceAccess } from '@app/api';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, projectOf } from '@app/namespaces';
import type { ProjectWithNamespace } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { CreateMergeRequestDto, ListMergeRequestsDto, UpdateMergeRequestDto } from './dto/merge-request.dto';
import { MergeRequestEntity } from './entities/merge-request.entity';
import { intParam } from './path-params';
import { IssuablesPresenter } from './presenters/issuables-presenter.service';
import { CreateMergeRequestUseCase } from './use-cases/create-merge-request.use-case';
import { UpdateMergeRequestUseCase } from './use-cases/update-merge-request.use-case';

const assigneesOf = (dto: { assignee_ids?: number[]; assignee_id?: number }): number[] | undefined =>
  dto.assignee_ids ?? (dto.assignee_id !== undefined ? [dto.assignee_id] : undefined);

/** Merge requests without git: branches are names until repositories arrive. */
@Controller()
export class MergeRequestsController {
  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly presenter: IssuablesPresenter,
    private readonly createMergeRequest: CreateMergeRequestUseCase,
    private readonly updateMergeRequest: UpdateMergeRequestUseCase,
  ) {}

  @Get('projects/:id/merge_requests')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async list(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: ListMergeRequestsDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const project = projectOf(access);
    const qb = this.dataSource.manager.createQueryBuilder(MergeRequestEntity, 'mr').where('mr.project_id = :projectId', { projectId: project.id });
    if (dto.state && dto.state !== 'all') qb.andWhere('mr.state = :state', { state: dto.state });
    if (dto.iids?.length) qb.andWhere('mr.iid IN (:...iids)', { iids: dto.iids });
    if (dto.source_branch) qb.andWhere('mr.source_branch = :source', { source: dto.source_branch });
    if (dto.target_branch) qb.andWhere('mr.target_branch = :target', { target: dto.target_branch });
    if (dto.milestone === 'None') qb.andWhere('mr.milestone_id IS NULL');
    else if (dto.milestone === 'Any') qb.andWhere('mr.milestone_id IS NOT NULL');
    else if (dto.milestone) qb.andWhere('mr.milestone_id IN (SELECT ms.id FROM milestones ms WHERE ms.title = :milestone)', { milestone: dto.milestone });
    const direction = dto.sort === 'asc' ? 'ASC' : 'DESC';
    qb.orderBy(`mr.${dto.order_by === 'updated_at' ? 'updatedAt' : 'createdAt'}`, direction).addOrderBy('mr.id', direction);
    const rows = await paginateOffset(qb, request, reply, { externalUrl: this.config.http.externalUrl });
    return this.presenter.mergeRequests(rows, new Map([[project.id, project]]));
  }

  @Get('projects/:id/merge_requests/:merge_request_iid')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async get(@CurrentProject() access: ResourceAccess, @Param('merge_request_iid') rawIid: string): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const mr = await this.dataSource.manager.findOneBy(MergeRequestEntity, { projectId: project.id, iid: intParam('merge_request_iid', rawIid) });
    if (!mr) throw DomainError.notFound('Merge Request');
    return this.presentOne(mr, project);
  }

  @Post('projects/:id/merge_requests')
  @ProjectAccess(ACCESS_LEVELS.DEVELOPER)
  async create(@CurrentProject() access: ResourceAccess, @Body() dto: CreateMergeRequestDto, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    if (!project.mergeRequestsEnabled) throw DomainError.forbidden();
    const mr = await this.createMergeRequest.execute({
      actorId: principal.user.id,
      project,
      title: dto.title,
      sourceBranch: dto.source_branch,
      targetBranch: dto.target_branch,
      description: dto.description,
      labels: dto.labels,
      assigneeIds: assigneesOf(dto),
      milestoneId: dto.milestone_id,
    });
    return this.presentOne(mr, project);
  }

  @Put('projects/:id/merge_requests/:merge_request_iid')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async update(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') rawIid: string,
    @Body() dto: UpdateMergeRequestDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const mr = await this.updateMergeRequest.execute({
      actorId: principal.user.id,
      actorLevel: access.accessLevel,
      project,
      iid: intParam('merge_request_iid', rawIid),
      title: dto.title,
      description: dto.description,
      targetBranch: dto.target_branch,
      labels: dto.labels,
      assigneeIds: assigneesOf(dto),
      milestoneId: dto.milestone_id,
      stateEvent: dto.state_event,
    });
    return this.presentOne(mr, project);
  }

  private async presentOne(mr: MergeRequestEntity, project: ProjectWithNamespace): Promise<Record<string, unknown>> {
    const [view] = await this.presenter.mergeRequests([mr], new Map([[project.id, project]]));
    return view;
  }
}
