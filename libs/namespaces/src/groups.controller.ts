import {
  Auth,
  CurrentGroup,
  CurrentPrincipal,
  GroupAccess,
  LastModified,
  paginateOffset,
  paginateQuery,
  Principal,
  PublicRead,
  readIfUnmodifiedSince,
  ResourceAccess,
} from '@app/api';
import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query, Req, Res } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { CustomAttributeFilters } from '@app/custom-attributes';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessUser } from './access/access-policy';
import { groupOf, toAccessUser } from './resolver/principal-access';
import { CreateGroupDto, GetGroupDto, groupSettingsOf, ListGroupsDto, UpdateGroupDto } from './dto/group.dto';
import { ListGroupProjectsDto } from './dto/project.dto';
import { ACCESS_LEVELS } from './entities/member.entity';
import { NamespaceEntity } from './entities/namespace.entity';
import { presentGroup, presentGroupDetail } from './presenters/group.presenter';
import { ProjectViewsService } from './presenters/project-views.service';
import { projectListFilter } from './project-list.service';
import { ACCEPTED } from './projects.controller';
import { GROUP_KEYSET, GroupListFilter, GroupsRepository } from './repositories/groups.repository';
import { ProjectsRepository, ProjectWithNamespace } from './repositories/projects.repository';
import { CreateGroupUseCase } from './use-cases/create-group.use-case';
import { DeleteGroupUseCase } from './use-cases/delete-group.use-case';
import { UpdateGroupUseCase } from './use-cases/update-group.use-case';

/** How many projects `GET /groups/:id` embeds (GitLab's limit). */
const GROUP_DETAIL_PROJECTS_LIMIT = 100;

const groupListFilter = (dto: ListGroupsDto): GroupListFilter => ({
  search: dto.search,
  owned: dto.owned,
  minAccessLevel: dto.min_access_level,
  allAvailable: dto.all_available,
  topLevelOnly: dto.top_level_only,
  skipGroups: dto.skip_groups,
  visibility: dto.visibility,
  orderBy: dto.order_by,
  sort: dto.sort,
});

@Controller()
export class GroupsController {
  constructor(
    private readonly config: AppConfig,
    private readonly groups: GroupsRepository,
    private readonly projects: ProjectsRepository,
    private readonly projectViews: ProjectViewsService,
    private readonly createGroup: CreateGroupUseCase,
    private readonly updateGroup: UpdateGroupUseCase,
    private readonly deleteGroup: DeleteGroupUseCase,
    private readonly customAttributes: CustomAttributeFilters,
  ) {}

  @Get('groups')
  @PublicRead()
  async list(
    @Query() dto: ListGroupsDto,
    @CurrentPrincipal() principal: Principal | null,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const viewer = toAccessUser(principal);
    const qb = this.customAttributes.filter(this.groups.listQuery(groupListFilter(dto), viewer), 'group', 'g', dto.custom_attributes, viewer);
    const rows = await paginateQuery(qb, request, reply, { externalUrl: this.config.http.externalUrl, keyset: GROUP_KEYSET });
    return this.customAttributes.attach(
      'group',
      rows.map((group) => presentGroup(group, this.presentOptions())),
      viewer,
      dto.with_custom_attributes,
    );
  }

  @Post('groups')
  @Auth()
  async create(@Body() dto: CreateGroupDto, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    const group = await this.createGroup.execute({
      actor: toAccessUser(principal)!,
      name: dto.name,
      path: dto.path,
      parentId: dto.parent_id,
      description: dto.description,
      visibility: dto.visibility,
      settings: groupSettingsOf(dto),
    });
    return presentGroupDetail(group, this.presentOptions(), { projects: [], sharedProjects: [] });
  }

  @Get('groups/:id')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async get(
    @CurrentGroup() access: ResourceAccess,
    @Query() dto: GetGroupDto,
    @CurrentPrincipal() principal: Principal | null,
  ): Promise<Record<string, unknown>> {
    const group = groupOf(access);
    const projects = dto.with_projects === false ? undefined : await this.groupProjects(group, toAccessUser(principal));
    const detail = presentGroupDetail(group, this.presentOptions(), { projects, sharedProjects: projects ? [] : undefined });
    const [withAttributes] = await this.customAttributes.attach('group', [detail], toAccessUser(principal), dto.with_custom_attributes);
    return withAttributes;
  }

  @Put('groups/:id')
  @GroupAccess(ACCESS_LEVELS.OWNER)
  async update(
    @CurrentGroup() access: ResourceAccess,
    @Body() dto: UpdateGroupDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const actor = toAccessUser(principal)!;
    const group = await this.updateGroup.execute({
      actor,
      groupId: groupOf(access).id,
      name: dto.name,
      path: dto.path,
      description: dto.description,
      visibility: dto.visibility,
      settings: groupSettingsOf(dto),
    });
    return presentGroupDetail(group, this.presentOptions(), { projects: await this.groupProjects(group, actor), sharedProjects: [] });
  }

  @Delete('groups/:id')
  @LastModified.checkedByUseCase()
  @GroupAccess(ACCESS_LEVELS.OWNER)
  @HttpCode(202)
  async remove(@CurrentGroup() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<typeof ACCEPTED> {
    await this.deleteGroup.execute({ actor: toAccessUser(principal)!, groupId: groupOf(access).id, ifUnmodifiedSince: readIfUnmodifiedSince(request) });
    return ACCEPTED;
  }

  @Get('groups/:id/subgroups')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async subgroups(
    @CurrentGroup() access: ResourceAccess,
    @Query() dto: ListGroupsDto,
    @CurrentPrincipal() principal: Principal | null,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const filter = { ...groupListFilter(dto), parentId: groupOf(access).id, topLevelOnly: false };
    const rows = await paginateOffset(this.groups.listQuery(filter, toAccessUser(principal)), request, reply, { externalUrl: this.config.http.externalUrl });
    return rows.map((group) => presentGroup(group, this.presentOptions()));
  }

  @Get('groups/:id/projects')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async projectsOfGroup(
    @CurrentGroup() access: ResourceAccess,
    @Query() dto: ListGroupProjectsDto,
    @CurrentPrincipal() principal: Principal | null,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const group = groupOf(access);
    const viewer = toAccessUser(principal);
    const scope = dto.include_subgroups ? { withinNamespaceId: group.id } : { namespaceIds: [group.id] };
    const filter = { ...projectListFilter(dto, viewer), ...scope };
    if (filter.withProgrammingLanguage !== undefined) await this.projects.checkLanguagesAvailable();
    const qb = this.projects.listQuery(filter, viewer);
    const rows = (await paginateOffset(qb, request, reply, { externalUrl: this.config.http.externalUrl })) as ProjectWithNamespace[];
    const simple = !viewer || dto.simple === true;
    return this.projectViews.present(rows, viewer, { view: simple ? 'simple' : 'full', statistics: dto.statistics });
  }

  /** The group's own projects the viewer can see, as GitLab embeds them in `GET /groups/:id`. */
  private async groupProjects(group: NamespaceEntity, viewer: AccessUser | null): Promise<Record<string, unknown>[]> {
    const rows = (await this.projects
      .listQuery({ namespaceIds: [group.id], orderBy: 'id', sort: 'asc' }, viewer)
      .take(GROUP_DETAIL_PROJECTS_LIMIT)
      .getMany()) as ProjectWithNamespace[];
    return this.projectViews.present(rows, viewer, { view: 'full' });
  }

  private presentOptions() {
    return { externalUrl: this.config.http.externalUrl, tier: this.config.tier };
  }
}
