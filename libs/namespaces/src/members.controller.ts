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
import { Body, Controller, Delete, Get, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { AppConfig } from '@app/config';
import type { UserEntity } from '@app/identity';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SelectQueryBuilder } from 'typeorm';
import { groupOf, projectOf, toAccessUser } from './resolver/principal-access';
import { AddMemberDto, ListMembersDto, UpdateMemberDto } from './dto/member.dto';
import { ACCESS_LEVELS, MemberEntity } from './entities/member.entity';
import { presentMember } from './presenters/member.presenter';
import { MemberListFilter, MemberSource, MembersRepository } from './repositories/members.repository';
import { AddMemberUseCase } from './use-cases/add-member.use-case';
import { MANAGE_MEMBERS_LEVEL } from './use-cases/member-rules';
import { RemoveMemberUseCase } from './use-cases/remove-member.use-case';
import { UpdateMemberUseCase } from './use-cases/update-member.use-case';

const projectSource = (access: ResourceAccess): MemberSource => {
  const project = projectOf(access);
  return { kind: 'project', project, namespace: project.namespace };
};
const groupSource = (access: ResourceAccess): MemberSource => ({ kind: 'group', group: groupOf(access) });

const listFilter = (dto: ListMembersDto): MemberListFilter => ({ query: dto.query, userIds: dto.user_ids, skipUsers: dto.skip_users });

/** `:user_id`: 400 when not an integer, 404 beyond the integer range. */
const userIdOf = (raw: string): number => intParam('user_id', raw, 'Member');

/**
 * Members of projects and groups. Anyone who can see the resource reads its members;
 * maintainers manage project members, owners manage group members; any member may leave.
 */
@Controller()
export class MembersController {
  constructor(
    private readonly config: AppConfig,
    private readonly members: MembersRepository,
    private readonly addMember: AddMemberUseCase,
    private readonly updateMember: UpdateMemberUseCase,
    private readonly removeMember: RemoveMemberUseCase,
  ) {}

  // --- projects -----------------------------------------------------------

  @Get('projects/:id/members')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  listProject(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: ListMembersDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.list(this.members.directQuery(projectSource(access), listFilter(dto)), req, reply);
  }

  @Get('projects/:id/members/all')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  listAllProject(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: ListMembersDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.list(this.members.allQuery(projectSource(access), listFilter(dto)), req, reply);
  }

  @Get('projects/:id/members/all/:user_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async getAnyProject(@CurrentProject() access: ResourceAccess, @Param('user_id') userId: string) {
    return this.one(await this.members.findEffective(projectSource(access), userIdOf(userId)));
  }

  @Get('projects/:id/members/:user_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async getProject(@CurrentProject() access: ResourceAccess, @Param('user_id') userId: string) {
    return this.one(await this.members.findDirect(projectSource(access), userIdOf(userId)));
  }

  @Post('projects/:id/members')
  @ProjectAccess(MANAGE_MEMBERS_LEVEL.project, { allowArchived: true })
  addToProject(@CurrentProject() access: ResourceAccess, @Body() dto: AddMemberDto, @CurrentPrincipal() principal: Principal) {
    return this.add(projectSource(access), access, dto, principal);
  }

  @Put('projects/:id/members/:user_id')
  @ProjectAccess(MANAGE_MEMBERS_LEVEL.project, { allowArchived: true })
  updateInProject(
    @CurrentProject() access: ResourceAccess,
    @Param('user_id') userId: string,
    @Body() dto: UpdateMemberDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.update(projectSource(access), access, userIdOf(userId), dto, principal);
  }

  /** Any member may leave; removing someone else needs Maintainer (checked by the use case). */
  @Delete('projects/:id/members/:user_id')
  @LastModified((request, get) =>
    rowChangedAt(get, MemberEntity, { sourceType: 'project', sourceId: projectOf(request.projectAccess!).id, userId: userIdOf(request.params.user_id) }),
  )
  @ProjectAccess(ACCESS_LEVELS.GUEST, { allowArchived: true })
  async removeFromProject(@CurrentProject() access: ResourceAccess, @Param('user_id') userId: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.removeMember.execute({
      actor: toAccessUser(principal)!,
      actorAccessLevel: access.accessLevel,
      source: projectSource(access),
      userId: userIdOf(userId),
    });
  }

  // --- groups -------------------------------------------------------------

  @Get('groups/:id/members')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  listGroup(@CurrentGroup() access: ResourceAccess, @Query() dto: ListMembersDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.list(this.members.directQuery(groupSource(access), listFilter(dto)), req, reply);
  }

  @Get('groups/:id/members/all')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  listAllGroup(
    @CurrentGroup() access: ResourceAccess,
    @Query() dto: ListMembersDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.list(this.members.allQuery(groupSource(access), listFilter(dto)), req, reply);
  }

  @Get('groups/:id/members/all/:user_id')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async getAnyGroup(@CurrentGroup() access: ResourceAccess, @Param('user_id') userId: string) {
    return this.one(await this.members.findEffective(groupSource(access), userIdOf(userId)));
  }

  @Get('groups/:id/members/:user_id')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async getGroup(@CurrentGroup() access: ResourceAccess, @Param('user_id') userId: string) {
    return this.one(await this.members.findDirect(groupSource(access), userIdOf(userId)));
  }

  @Post('groups/:id/members')
  @GroupAccess(MANAGE_MEMBERS_LEVEL.group)
  addToGroup(@CurrentGroup() access: ResourceAccess, @Body() dto: AddMemberDto, @CurrentPrincipal() principal: Principal) {
    return this.add(groupSource(access), access, dto, principal);
  }

  @Put('groups/:id/members/:user_id')
  @GroupAccess(MANAGE_MEMBERS_LEVEL.group)
  updateInGroup(
    @CurrentGroup() access: ResourceAccess,
    @Param('user_id') userId: string,
    @Body() dto: UpdateMemberDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.update(groupSource(access), access, userIdOf(userId), dto, principal);
  }

  /** Any member may leave; removing someone else needs Owner (checked by the use case). */
  @Delete('groups/:id/members/:user_id')
  @LastModified((request, get) =>
    rowChangedAt(get, MemberEntity, { sourceType: 'namespace', sourceId: groupOf(request.groupAccess!).id, userId: userIdOf(request.params.user_id) }),
  )
  @GroupAccess(ACCESS_LEVELS.MINIMAL)
  async removeFromGroup(@CurrentGroup() access: ResourceAccess, @Param('user_id') userId: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.removeMember.execute({
      actor: toAccessUser(principal)!,
      actorAccessLevel: access.accessLevel,
      source: groupSource(access),
      userId: userIdOf(userId),
    });
  }

  // --- shared -------------------------------------------------------------

  private async list(qb: SelectQueryBuilder<MemberEntity>, req: FastifyRequest, reply: FastifyReply): Promise<Record<string, unknown>[]> {
    const rows = await paginateOffset(qb, req, reply, { externalUrl: this.config.http.externalUrl });
    const users = await this.members.usersByIds(rows.flatMap((m) => [m.userId, m.createdById]));
    return rows.filter((m) => users.has(m.userId)).map((m) => this.present(m, users));
  }

  private async one(member: MemberEntity | null): Promise<Record<string, unknown>> {
    if (!member) throw DomainError.notFound('Member');
    const users = await this.members.usersByIds([member.userId, member.createdById]);
    if (!users.has(member.userId)) throw DomainError.notFound('Member');
    return this.present(member, users);
  }

  private async add(source: MemberSource, access: ResourceAccess, dto: AddMemberDto, principal: Principal): Promise<Record<string, unknown>> {
    if (dto.user_id === undefined && dto.username === undefined) {
      throw new DomainError(ErrorCode.BAD_REQUEST, 'user_id, username are missing, exactly one parameter must be provided', { errorKey: true });
    }
    if (dto.user_id !== undefined && dto.username !== undefined) {
      throw new DomainError(ErrorCode.BAD_REQUEST, 'user_id, username are mutually exclusive', { errorKey: true });
    }
    const { member } = await this.addMember.execute({
      actor: toAccessUser(principal)!,
      actorAccessLevel: access.accessLevel,
      source,
      user: dto.user_id !== undefined ? { id: dto.user_id } : { username: dto.username! },
      accessLevel: dto.access_level,
      expiresAt: dto.expires_at,
    });
    return this.one(member);
  }

  private async update(
    source: MemberSource,
    access: ResourceAccess,
    userId: number,
    dto: UpdateMemberDto,
    principal: Principal,
  ): Promise<Record<string, unknown>> {
    const { member } = await this.updateMember.execute({
      actor: toAccessUser(principal)!,
      actorAccessLevel: access.accessLevel,
      source,
      userId,
      accessLevel: dto.access_level,
      expiresAt: dto.expires_at,
    });
    return this.one(member);
  }

  private present(member: MemberEntity, users: Map<number, UserEntity>): Record<string, unknown> {
    return presentMember(
      member,
      users.get(member.userId)!,
      member.createdById !== null ? (users.get(member.createdById) ?? null) : null,
      this.config.http.externalUrl,
    );
  }
}
