import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query, Req, Res } from '@nestjs/common';
import { Auth, CurrentPrincipal, CurrentProject, Principal, ProjectAccess, PublicRead, ResourceAccess } from '@app/api/auth';
import { isKeysetPaginationRequested, paginateKeyset, paginateOffset, PROJECT_LIST_MAX_OFFSET } from '@app/api/pagination';
import { AppConfig } from '@app/config';
import { CustomAttributeFilters } from '@app/settings';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readIfUnmodifiedSince } from '@app/api/http';
import { projectOf, toAccessUser } from './access/principal-access';
import { CreateProjectDto, GetProjectDto, ListProjectsDto, projectAttributesOf, UpdateProjectDto } from './dto/project.dto';
import { ACCESS_LEVELS } from './entities/member.entity';
import { ProjectViewsService } from './presenters/project-views.service';
import { ProjectListFilter, ProjectsRepository, ProjectWithNamespace } from './repositories/projects.repository';
import { CreateProjectUseCase } from './use-cases/create-project.use-case';
import { DeleteProjectUseCase } from './use-cases/delete-project.use-case';
import { UpdateProjectUseCase } from './use-cases/update-project.use-case';

export const ACCEPTED = { message: '202 Accepted' } as const;

/** The project list filters shared by `GET /projects` and `GET /groups/:id/projects`. */
export function projectListFilter(dto: ListProjectsDto): ProjectListFilter {
  return {
    search: dto.search,
    searchNamespaces: dto.search_namespaces,
    owned: dto.owned,
    membership: dto.membership,
    minAccessLevel: dto.min_access_level,
    visibility: dto.visibility,
    archived: dto.archived,
    topics: dto.topic,
    withIssuesEnabled: dto.with_issues_enabled,
    withMergeRequestsEnabled: dto.with_merge_requests_enabled,
    idAfter: dto.id_after,
    idBefore: dto.id_before,
    lastActivityAfter: dto.last_activity_after,
    lastActivityBefore: dto.last_activity_before,
    orderBy: dto.order_by,
    sort: dto.sort,
  };
}

@Controller()
export class ProjectsController {
  constructor(
    private readonly config: AppConfig,
    private readonly projects: ProjectsRepository,
    private readonly views: ProjectViewsService,
    private readonly createProject: CreateProjectUseCase,
    private readonly updateProject: UpdateProjectUseCase,
    private readonly deleteProject: DeleteProjectUseCase,
    private readonly customAttributes: CustomAttributeFilters,
  ) {}

  @Get('projects')
  @PublicRead()
  async list(
    @Query() dto: ListProjectsDto,
    @CurrentPrincipal() principal: Principal | null,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const viewer = toAccessUser(principal);
    const qb = this.projects.listQuery(projectListFilter(dto), viewer);
    this.customAttributes.filter(qb, 'project', 'p', dto.custom_attributes, viewer);
    // Stars are not recorded yet: nobody has starred anything.
    if (dto.starred) qb.andWhere('false');
    const externalUrl = this.config.http.externalUrl;
    const rows = (
      isKeysetPaginationRequested(request.query)
        ? await paginateKeyset(qb, request, reply, {
            externalUrl,
            keyset: { allowedOrderBy: ['id'], defaultOrderBy: 'id', defaultSort: 'desc' },
            columns: { idExpression: 'p.id', id: (p) => p.id },
          })
        : await paginateOffset(qb, request, reply, { externalUrl, maxOffset: PROJECT_LIST_MAX_OFFSET, resourceType: 'Project' })
    ) as ProjectWithNamespace[];
    const simple = !viewer || dto.simple === true;
    const items = await this.views.present(rows, viewer, { view: simple ? 'simple' : 'full', withPermissions: true, statistics: dto.statistics });
    return this.customAttributes.attach('project', items, viewer, dto.with_custom_attributes);
  }

  @Get('projects/:id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async get(@CurrentProject() access: ResourceAccess, @Query() dto: GetProjectDto, @CurrentPrincipal() principal: Principal | null): Promise<Record<string, unknown>> {
    const viewer = toAccessUser(principal);
    const item = await this.views.presentOne(projectOf(access), viewer, { view: viewer ? 'full' : 'simple', withPermissions: true, statistics: dto.statistics });
    const [withAttributes] = await this.customAttributes.attach('project', [item], viewer, dto.with_custom_attributes);
    return withAttributes;
  }

  @Post('projects')
  @Auth()
  async create(@Body() dto: CreateProjectDto, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    const actor = toAccessUser(principal)!;
    const { project, runnersToken } = await this.createProject.execute({
      actor,
      name: dto.name,
      path: dto.path,
      namespaceRef: dto.namespace_id,
      description: dto.description,
      visibility: dto.visibility,
      defaultBranch: dto.default_branch,
      topics: dto.topics,
      tagList: dto.tag_list,
      initializeWithReadme: dto.initialize_with_readme,
      attributes: projectAttributesOf(dto),
    });
    return this.views.presentOne(project, actor, { view: 'full', runnersToken });
  }

  @Put('projects/:id')
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  async update(@CurrentProject() access: ResourceAccess, @Body() dto: UpdateProjectDto, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    const actor = toAccessUser(principal)!;
    const project = await this.updateProject.execute({
      actor,
      actorAccessLevel: access.accessLevel,
      projectId: projectOf(access).id,
      name: dto.name,
      path: dto.path,
      description: dto.description,
      visibility: dto.visibility,
      defaultBranch: dto.default_branch,
      topics: dto.topics,
      tagList: dto.tag_list,
      attributes: projectAttributesOf(dto),
    });
    return this.views.presentOne(project, actor, { view: 'full' });
  }

  @Delete('projects/:id')
  @ProjectAccess(ACCESS_LEVELS.OWNER)
  @HttpCode(202)
  async remove(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<typeof ACCEPTED> {
    await this.deleteProject.execute({ actor: toAccessUser(principal)!, projectId: projectOf(access).id, ifUnmodifiedSince: readIfUnmodifiedSince(request) });
    return ACCEPTED;
  }
}
