import {
  Auth,
  CurrentPrincipal,
  CurrentProject,
  DomainError,
  intParam,
  LastModified,
  paginateOffset,
  Principal,
  ProjectAccess,
  ResourceAccess,
  rowChangedAt,
} from '@app/api';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, projectOf, ProjectsRepository, ProjectWithNamespace, toAccessUser } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateIssueDto, ListIssuesDto, UpdateIssueDto } from './dto/issue.dto';
import { IssueEntity } from './entities/issue.entity';
import { IssueListFilter, IssuesRepository } from './repositories/issues.repository';
import { IssuablesPresenter } from './presenters/issuables-presenter.service';
import { CreateIssueUseCase } from './use-cases/create-issue.use-case';
import { DeleteIssueUseCase } from './use-cases/delete-issue.use-case';
import { UpdateIssueUseCase } from './use-cases/update-issue.use-case';
import { CreateRateLimit } from '@app/settings';

const listFilter = (dto: ListIssuesDto): IssueListFilter => ({
  state: dto.state,
  labels: dto.labels,
  milestone: dto.milestone,
  issueType: dto.issue_type,
  confidential: dto.confidential,
  iids: dto.iids,
  authorId: dto.author_id,
  assigneeId: dto.assignee_id,
  search: dto.search,
  orderBy: dto.order_by,
  sort: dto.sort,
});

/** `assignee_ids` wins over the older single `assignee_id`. */
const assigneesOf = (dto: { assignee_ids?: number[]; assignee_id?: number }): number[] | undefined =>
  dto.assignee_ids ?? (dto.assignee_id !== undefined ? [dto.assignee_id] : undefined);

@Controller()
export class IssuesController {
  constructor(
    private readonly config: AppConfig,
    private readonly issues: IssuesRepository,
    private readonly projects: ProjectsRepository,
    private readonly presenter: IssuablesPresenter,
    private readonly createIssue: CreateIssueUseCase,
    private readonly updateIssue: UpdateIssueUseCase,
    private readonly deleteIssue: DeleteIssueUseCase,
  ) {}

  @Get('issues')
  @Auth()
  async listForUser(
    @Query() dto: ListIssuesDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const qb = this.issues.userQuery(toAccessUser(principal)!, dto.scope ?? 'created_by_me', listFilter(dto));
    const rows = await paginateOffset(qb, request, reply, { externalUrl: this.config.http.externalUrl });
    return this.present(rows);
  }

  @Get('projects/:id/issues')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async list(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: ListIssuesDto,
    @CurrentPrincipal() principal: Principal | null,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const project = projectOf(access);
    const qb = this.issues.projectQuery(project.id, toAccessUser(principal), access.accessLevel, listFilter(dto));
    const rows = await paginateOffset(qb, request, reply, { externalUrl: this.config.http.externalUrl });
    return this.presenter.issues(rows, new Map([[project.id, project]]));
  }

  @Get('projects/:id/issues/:issue_iid')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async get(
    @CurrentProject() access: ResourceAccess,
    @Param('issue_iid') rawIid: string,
    @CurrentPrincipal() principal: Principal | null,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const issue = await this.issues.findByIid(project.id, intParam('issue_iid', rawIid, 'Issue'));
    if (!issue || !this.issues.canRead(issue, toAccessUser(principal), access.accessLevel)) throw DomainError.notFound('Issue');
    return this.presentOne(issue, project);
  }

  @Post('projects/:id/issues')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @CreateRateLimit('issues_create_limit')
  async create(
    @CurrentProject() access: ResourceAccess,
    @Body() dto: CreateIssueDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    if (!project.issuesEnabled) throw DomainError.forbidden();
    const issue = await this.createIssue.execute({
      actorId: principal.user.id,
      actorLevel: access.accessLevel,
      project,
      title: dto.title,
      description: dto.description,
      confidential: dto.confidential,
      issueType: dto.issue_type,
      labels: dto.labels,
      assigneeIds: assigneesOf(dto),
      milestoneId: dto.milestone_id,
      iterationId: dto.iteration_id,
      weight: dto.weight,
    });
    return this.presentOne(issue, project);
  }

  @Put('projects/:id/issues/:issue_iid')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async update(
    @CurrentProject() access: ResourceAccess,
    @Param('issue_iid') rawIid: string,
    @Body() dto: UpdateIssueDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const issue = await this.updateIssue.execute({
      actorId: principal.user.id,
      actorLevel: access.accessLevel,
      project,
      iid: intParam('issue_iid', rawIid, 'Issue'),
      title: dto.title,
      description: dto.description,
      confidential: dto.confidential,
      issueType: dto.issue_type,
      labels: dto.labels,
      assigneeIds: assigneesOf(dto),
      milestoneId: dto.milestone_id,
      iterationId: dto.iteration_id,
      weight: dto.weight,
      stateEvent: dto.state_event,
    });
    return this.presentOne(issue, project);
  }

  @Delete('projects/:id/issues/:issue_iid')
  @LastModified((request, get) =>
    rowChangedAt(get, IssueEntity, { iid: intParam('issue_iid', request.params.issue_iid, 'Issue'), projectId: projectOf(request.projectAccess!).id }),
  )
  @ProjectAccess(ACCESS_LEVELS.OWNER)
  @HttpCode(204)
  async remove(@CurrentProject() access: ResourceAccess, @Param('issue_iid') rawIid: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.deleteIssue.execute({ actorId: principal.user.id, project: projectOf(access), iid: intParam('issue_iid', rawIid, 'Issue') });
  }

  private async presentOne(issue: IssueEntity, project: ProjectWithNamespace): Promise<Record<string, unknown>> {
    const [view] = await this.presenter.issues([issue], new Map([[project.id, project]]));
    return view;
  }

  private async present(rows: IssueEntity[]): Promise<Record<string, unknown>[]> {
    const projects = new Map<number, ProjectWithNamespace>();
    for (const id of new Set(rows.map((r) => r.projectId))) {
      const project = await this.projects.findById(id);
      if (project) projects.set(id, project);
    }
    return this.presenter.issues(rows, projects);
  }
}
