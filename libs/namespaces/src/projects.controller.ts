import {
  Auth,
  CurrentPrincipal,
  CurrentProject,
  LastModified,
  paginateOffset,
  Principal,
  ProjectAccess,
  PublicRead,
  readIfUnmodifiedSince,
  ResourceAccess,
} from '@app/api';
import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query, Req, Res } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { CustomAttributeFilters } from '@app/custom-attributes';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { projectOf, toAccessUser } from './resolver/principal-access';
import { CreateProjectDto, GetProjectDto, ListProjectsDto, projectAttributesOf, StarrersDto, UpdateProjectDto } from './dto/project.dto';
import { ACCESS_LEVELS } from './entities/member.entity';
import { presentStarrer } from './presenters/starrer.presenter';
import { ProjectViewsService } from './presenters/project-views.service';
import { projectListFilter, ProjectListService } from './project-list.service';
import { ProjectStarsRepository } from './repositories/project-stars.repository';
import { ArchiveProjectUseCase } from './use-cases/archive-project.use-case';
import { CreateProjectUseCase } from './use-cases/create-project.use-case';
import { DeleteProjectUseCase } from './use-cases/delete-project.use-case';
import { StarProjectUseCase } from './use-cases/star-project.use-case';
import { UpdateProjectUseCase } from './use-cases/update-project.use-case';

export const ACCEPTED = { message: '202 Accepted' } as const;

@Controller()
export class ProjectsController {
  constructor(
    private readonly config: AppConfig,
    private readonly views: ProjectViewsService,
    private readonly projectList: ProjectListService,
    private readonly stars: ProjectStarsRepository,
    private readonly createProject: CreateProjectUseCase,
    private readonly updateProject: UpdateProjectUseCase,
    private readonly deleteProject: DeleteProjectUseCase,
    private readonly starProject: StarProjectUseCase,
    private readonly archiveProject: ArchiveProjectUseCase,
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
    return this.projectList.list({ filter: projectListFilter(dto, viewer), viewer, dto, keysetOrders: ['id'], keysetDefaultOrder: 'id' }, request, reply);
  }

  @Get('projects/:id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async get(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: GetProjectDto,
    @CurrentPrincipal() principal: Principal | null,
  ): Promise<Record<string, unknown>> {
    const viewer = toAccessUser(principal);
    const project = projectOf(access);
    // GitLab shows the runners token to those who administer the project: maintainers and administrators.
    const runnersToken = viewer && (viewer.isAdmin || access.accessLevel >= ACCESS_LEVELS.MAINTAINER) ? await this.views.runnersToken(project.id) : undefined;
    const item = await this.views.presentOne(project, viewer, {
      view: viewer ? 'full' : 'simple',
      withPermissions: true,
      statistics: dto.statistics,
      runnersToken,
    });
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

  /** Settings stay editable on an archived project (as in GitLab). */
  @Put('projects/:id')
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER, { allowArchived: true })
  async update(
    @CurrentProject() access: ResourceAccess,
    @Body() dto: UpdateProjectDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
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
  @LastModified.checkedByUseCase()
  @ProjectAccess(ACCESS_LEVELS.OWNER, { allowArchived: true })
  @HttpCode(202)
  async remove(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<typeof ACCEPTED> {
    await this.deleteProject.execute({ actor: toAccessUser(principal)!, projectId: projectOf(access).id, ifUnmodifiedSince: readIfUnmodifiedSince(request) });
    return ACCEPTED;
  }

  /** 201 with the project when the star is new; 304 without a body when it was already there. */
  @Post('projects/:id/star')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { allowArchived: true })
  async star(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.starOrUnstar(access, principal, reply, true);
  }

  /** 201 with the project when a star was removed; 304 without a body when there was none. */
  @Post('projects/:id/unstar')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { allowArchived: true })
  async unstar(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.starOrUnstar(access, principal, reply, false);
  }

  @Get('projects/:id/starrers')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async starrers(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: StarrersDto,
    @CurrentPrincipal() principal: Principal | null,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const qb = this.stars.starrersQuery(projectOf(access).id, toAccessUser(principal), dto.search);
    const rows = await paginateOffset(qb, request, reply, { externalUrl: this.config.http.externalUrl });
    return rows.map((star) => presentStarrer(star, this.config.http.externalUrl));
  }

  @Post('projects/:id/archive')
  @ProjectAccess(ACCESS_LEVELS.OWNER, { allowArchived: true })
  async archive(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    return this.setArchived(access, principal, true);
  }

  @Post('projects/:id/unarchive')
  @ProjectAccess(ACCESS_LEVELS.OWNER, { allowArchived: true })
  async unarchive(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    return this.setArchived(access, principal, false);
  }

  private async setArchived(access: ResourceAccess, principal: Principal, archived: boolean): Promise<Record<string, unknown>> {
    const actor = toAccessUser(principal)!;
    const project = await this.archiveProject.execute({ actor, projectId: projectOf(access).id, archived });
    return this.views.presentOne(project, actor, { view: 'full', withPermissions: true });
  }

  private async starOrUnstar(access: ResourceAccess, principal: Principal, reply: FastifyReply, star: boolean): Promise<FastifyReply> {
    const viewer = toAccessUser(principal)!;
    const { changed, project } = await this.starProject.execute({ userId: viewer.id, projectId: projectOf(access).id, star });
    if (!changed) return reply.status(304).send();
    const body = await this.views.presentOne(project, viewer, { view: 'full', withPermissions: true });
    return reply.status(201).send(body);
  }
}
