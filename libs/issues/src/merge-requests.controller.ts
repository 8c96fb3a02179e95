import { CurrentPrincipal, CurrentProject, DomainError, intParam, paginateOffset, Principal, ProjectAccess, ResourceAccess } from '@app/api';
import { Body, Controller, Get, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, projectOf } from '@app/namespaces';
import type { ProjectWithNamespace } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateMergeRequestDto, ListMergeRequestsDto, UpdateMergeRequestDto } from './dto/merge-request.dto';
import { MergeRequestEntity } from './entities/merge-request.entity';
import { IssuesRepository } from './repositories/issues.repository';
import { MergeRequestsRepository } from './repositories/merge-requests.repository';
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
    private readonly mergeRequests: MergeRequestsRepository,
    private readonly issues: IssuesRepository,
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
    const qb = this.mergeRequests.listQuery(project.id, dto);
    const rows = await paginateOffset(qb, request, reply, { externalUrl: this.config.http.externalUrl });
    return this.presenter.mergeRequests(rows, new Map([[project.id, project]]));
  }

  @Get('projects/:id/merge_requests/:merge_request_iid')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async get(@CurrentProject() access: ResourceAccess, @Param('merge_request_iid') rawIid: string): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const mr = await this.issues.findMergeRequestByIid(project.id, intParam('merge_request_iid', rawIid, 'Merge Request'));
    if (!mr) throw DomainError.notFound('Merge Request');
    return this.presentOne(mr, project);
  }

  @Post('projects/:id/merge_requests')
  @ProjectAccess(ACCESS_LEVELS.DEVELOPER)
  async create(
    @CurrentProject() access: ResourceAccess,
    @Body() dto: CreateMergeRequestDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
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
      iid: intParam('merge_request_iid', rawIid, 'Merge Request'),
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
