import {
  CurrentGroup,
  CurrentPrincipal,
  CurrentProject,
  DomainError,
  ErrorCode,
  GroupAccess,
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
import { ACCESS_LEVELS, groupOf, NamespaceEntity, projectOf, ProjectWithNamespace } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadgeContextService } from './badge-context.service';
import { BadgeView, presentBadge, presentRendered, RenderedBadgeView } from './badge.presenter';
import { BadgeSource, BadgesRepository } from './core/badges.repository';
import { CreateBadgeDto, ListBadgesDto, RenderBadgeDto, UpdateBadgeDto } from './dto/badge.dto';
import { BadgeEntity } from './entities/badge.entity';
import type { BadgeOwner } from './use-cases/badge-commands';
import { CreateBadgeUseCase } from './use-cases/create-badge.use-case';
import { DeleteBadgeUseCase } from './use-cases/delete-badge.use-case';
import { UpdateBadgeUseCase } from './use-cases/update-badge.use-case';

/** Maintainers manage project badges, owners group badges (GitLab's `admin_project` / `admin_group`). */
export const MANAGE_PROJECT_BADGES_LEVEL = ACCESS_LEVELS.MAINTAINER;
export const MANAGE_GROUP_BADGES_LEVEL = ACCESS_LEVELS.OWNER;

/** `:badge_id`: 400 when not an integer, 404 beyond the integer range. */
const badgeIdOf = (raw: string): number => intParam('badge_id', raw, 'Badge');

const badgeNotFound = (): DomainError => new DomainError(ErrorCode.NOT_FOUND, '404 Not found', { subject: 'Badge' });

const projectSource = (project: ProjectWithNamespace): BadgeSource => ({
  kind: 'project',
  projectId: project.id,
  ancestorGroupIds: project.namespace.kind === 'group' ? project.namespace.traversalIds : [],
});
const projectOwner = (project: ProjectWithNamespace): BadgeOwner => ({
  kind: 'project',
  projectId: project.id,
  groupId: project.namespace.kind === 'group' ? project.namespace.id : null,
});
const groupOwner = (group: NamespaceEntity): BadgeOwner => ({ kind: 'group', groupId: group.id });

/**
 * Badges of projects and groups. Anyone who can see the project or group reads its badges (a
 * project's list includes the badges of its group and the group's ancestors, `kind: group`,
 * rendered for the project); maintainers manage project badges, owners group badges. A group
 * badge cannot be changed or removed through a project (403, as GitLab for removal).
 */
@Controller()
export class BadgesController {
  constructor(
    private readonly config: AppConfig,
    private readonly badges: BadgesRepository,
    private readonly contexts: BadgeContextService,
    private readonly createBadge: CreateBadgeUseCase,
    private readonly updateBadge: UpdateBadgeUseCase,
    private readonly deleteBadge: DeleteBadgeUseCase,
  ) {}

  // --- projects -----------------------------------------------------------

  @Get('projects/:id/badges')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async listProject(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: ListBadgesDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BadgeView[]> {
    const project = projectOf(access);
    const rows = await paginateOffset(this.badges.query(projectSource(project), dto.name), req, reply, { externalUrl: this.config.http.externalUrl });
    return this.presentForProject(project, rows);
  }

  @Get('projects/:id/badges/render')
  @ProjectAccess(MANAGE_PROJECT_BADGES_LEVEL)
  async renderProject(@CurrentProject() access: ResourceAccess, @Query() dto: RenderBadgeDto): Promise<RenderedBadgeView> {
    const project = projectOf(access);
    return presentRendered(dto.link_url, dto.image_url, await this.contexts.forProject(project, [dto.link_url, dto.image_url]));
  }

  @Get('projects/:id/badges/:badge_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async getProject(@CurrentProject() access: ResourceAccess, @Param('badge_id') badgeId: string): Promise<BadgeView> {
    const project = projectOf(access);
    const badge = await this.findIn(projectSource(project), badgeId);
    return (await this.presentForProject(project, [badge]))[0];
  }

  @Post('projects/:id/badges')
  @ProjectAccess(MANAGE_PROJECT_BADGES_LEVEL)
  async createProject(@CurrentProject() access: ResourceAccess, @Body() dto: CreateBadgeDto, @CurrentPrincipal() principal: Principal): Promise<BadgeView> {
    const project = projectOf(access);
    const badge = await this.createBadge.execute({ owner: projectOwner(project), attributes: dto, actorId: principal.user.id });
    return (await this.presentForProject(project, [badge]))[0];
  }

  @Put('projects/:id/badges/:badge_id')
  @ProjectAccess(MANAGE_PROJECT_BADGES_LEVEL)
  async updateProject(
    @CurrentProject() access: ResourceAccess,
    @Param('badge_id') badgeId: string,
    @Body() dto: UpdateBadgeDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<BadgeView> {
    const project = projectOf(access);
    const badge = await this.findIn(projectSource(project), badgeId);
    if (badge.kind === 'group') throw DomainError.forbidden('To edit a Group badge please use the Group endpoint');
    const updated = await this.updateBadge.execute({ owner: projectOwner(project), badge, attributes: dto, actorId: principal.user.id });
    return (await this.presentForProject(project, [updated]))[0];
  }

  @Delete('projects/:id/badges/:badge_id')
  @LastModified((request, get) => rowChangedAt(get, BadgeEntity, { id: badgeIdOf(request.params.badge_id) }))
  @ProjectAccess(MANAGE_PROJECT_BADGES_LEVEL)
  @HttpCode(204)
  async removeProject(@CurrentProject() access: ResourceAccess, @Param('badge_id') badgeId: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    const project = projectOf(access);
    const badge = await this.findIn(projectSource(project), badgeId);
    if (badge.kind === 'group') throw new DomainError(ErrorCode.FORBIDDEN, 'To delete a Group badge please use the Group endpoint');
    await this.deleteBadge.execute({ owner: projectOwner(project), badge, actorId: principal.user.id });
  }

  // --- groups -------------------------------------------------------------

  @Get('groups/:id/badges')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async listGroup(
    @CurrentGroup() access: ResourceAccess,
    @Query() dto: ListBadgesDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BadgeView[]> {
    const rows = await paginateOffset(this.badges.query({ kind: 'group', groupId: groupOf(access).id }, dto.name), req, reply, {
      externalUrl: this.config.http.externalUrl,
    });
    return rows.map((badge) => presentBadge(badge, null));
  }

  @Get('groups/:id/badges/render')
  @GroupAccess(MANAGE_GROUP_BADGES_LEVEL)
  renderGroup(@Query() dto: RenderBadgeDto): RenderedBadgeView {
    return presentRendered(dto.link_url, dto.image_url, null);
  }

  @Get('groups/:id/badges/:badge_id')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async getGroup(@CurrentGroup() access: ResourceAccess, @Param('badge_id') badgeId: string): Promise<BadgeView> {
    return presentBadge(await this.findIn({ kind: 'group', groupId: groupOf(access).id }, badgeId), null);
  }

  @Post('groups/:id/badges')
  @GroupAccess(MANAGE_GROUP_BADGES_LEVEL)
  async createGroup(@CurrentGroup() access: ResourceAccess, @Body() dto: CreateBadgeDto, @CurrentPrincipal() principal: Principal): Promise<BadgeView> {
    const group = this.groupOrNotFound(access);
    return presentBadge(await this.createBadge.execute({ owner: groupOwner(group), attributes: dto, actorId: principal.user.id }), null);
  }

  @Put('groups/:id/badges/:badge_id')
  @GroupAccess(MANAGE_GROUP_BADGES_LEVEL)
  async updateGroup(
    @CurrentGroup() access: ResourceAccess,
    @Param('badge_id') badgeId: string,
    @Body() dto: UpdateBadgeDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<BadgeView> {
    const group = this.groupOrNotFound(access);
    const badge = await this.findIn({ kind: 'group', groupId: group.id }, badgeId);
    return presentBadge(await this.updateBadge.execute({ owner: groupOwner(group), badge, attributes: dto, actorId: principal.user.id }), null);
  }

  @Delete('groups/:id/badges/:badge_id')
  @LastModified((request, get) => rowChangedAt(get, BadgeEntity, { id: badgeIdOf(request.params.badge_id) }))
  @GroupAccess(MANAGE_GROUP_BADGES_LEVEL)
  @HttpCode(204)
  async removeGroup(@CurrentGroup() access: ResourceAccess, @Param('badge_id') badgeId: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    const group = this.groupOrNotFound(access);
    const badge = await this.findIn({ kind: 'group', groupId: group.id }, badgeId);
    await this.deleteBadge.execute({ owner: groupOwner(group), badge, actorId: principal.user.id });
  }

  // --- helpers ------------------------------------------------------------

  private async findIn(source: BadgeSource, rawId: string): Promise<BadgeEntity> {
    const badge = await this.badges.find(source, badgeIdOf(rawId));
    if (!badge) throw badgeNotFound();
    return badge;
  }

  /** Badges belong to groups, not to personal namespaces. */
  private groupOrNotFound(access: ResourceAccess): NamespaceEntity {
    const group = groupOf(access);
    if (group.kind !== 'group') throw DomainError.notFound('Group');
    return group;
  }

  private async presentForProject(project: ProjectWithNamespace, badges: BadgeEntity[]): Promise<BadgeView[]> {
    if (badges.length === 0) return [];
    const context = await this.contexts.forProject(
      project,
      badges.flatMap((badge) => [badge.linkUrl, badge.imageUrl]),
    );
    return badges.map((badge) => presentBadge(badge, context));
  }
}
