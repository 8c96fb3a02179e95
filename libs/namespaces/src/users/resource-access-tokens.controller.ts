import {
  CurrentGroup,
  CurrentPrincipal,
  CurrentProject,
  dbIntOrNull,
  DomainError,
  GroupAccess,
  LastModified,
  paginateOffset,
  Principal,
  ProjectAccess,
  ResourceAccess,
  rowChangedAt,
} from '@app/api';
import {
  AccessTokenEntity,
  AccessTokensRepository,
  CreateResourceAccessTokenDto,
  ListAccessTokensDto,
  presentAccessToken,
  RevokeAccessTokenUseCase,
} from '@app/identity';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { AppConfig } from '@app/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_LEVELS } from '../entities/member.entity';
import { CreateResourceAccessTokenUseCase } from './create-resource-access-token.use-case';

type Kind = 'project' | 'group';
const idOf = (access: ResourceAccess | undefined): number => (access?.resource as { id: number }).id;

/** Project access tokens (maintainers) and group access tokens (owners). */
@Controller()
export class ResourceAccessTokensController {
  constructor(
    private readonly config: AppConfig,
    private readonly tokens: AccessTokensRepository,
    private readonly createToken: CreateResourceAccessTokenUseCase,
    private readonly revokeToken: RevokeAccessTokenUseCase,
  ) {}

  @Get('projects/:id/access_tokens')
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  listProject(
    @CurrentProject() project: ResourceAccess,
    @Query() filter: ListAccessTokensDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.list('project', idOf(project), filter, req, reply);
  }

  @Post('projects/:id/access_tokens')
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  createProject(@CurrentProject() project: ResourceAccess, @Body() dto: CreateResourceAccessTokenDto, @CurrentPrincipal() principal: Principal) {
    return this.create('project', project, dto, principal);
  }

  @Get('projects/:id/access_tokens/:token_id')
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  async getProject(@CurrentProject() project: ResourceAccess, @Param('token_id') tokenId: string) {
    return presentAccessToken(await this.find('project', idOf(project), tokenId));
  }

  @Delete('projects/:id/access_tokens/:token_id')
  @LastModified((request, get) => rowChangedAt(get, AccessTokenEntity, { id: dbIntOrNull(request.params.token_id) ?? 0 }, 'createdAt'))
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  @HttpCode(204)
  async revokeProject(@CurrentProject() project: ResourceAccess, @Param('token_id') tokenId: string, @CurrentPrincipal() principal: Principal) {
    const token = await this.find('project', idOf(project), tokenId);
    await this.revokeToken.execute({ tokenId: token.id, actorId: principal.user.id });
  }

  @Get('groups/:id/access_tokens')
  @GroupAccess(ACCESS_LEVELS.OWNER)
  listGroup(
    @CurrentGroup() group: ResourceAccess,
    @Query() filter: ListAccessTokensDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.list('group', idOf(group), filter, req, reply);
  }

  @Post('groups/:id/access_tokens')
  @GroupAccess(ACCESS_LEVELS.OWNER)
  createGroup(@CurrentGroup() group: ResourceAccess, @Body() dto: CreateResourceAccessTokenDto, @CurrentPrincipal() principal: Principal) {
    return this.create('group', group, dto, principal);
  }

  @Get('groups/:id/access_tokens/:token_id')
  @GroupAccess(ACCESS_LEVELS.OWNER)
  async getGroup(@CurrentGroup() group: ResourceAccess, @Param('token_id') tokenId: string) {
    return presentAccessToken(await this.find('group', idOf(group), tokenId));
  }

  @Delete('groups/:id/access_tokens/:token_id')
  @LastModified((request, get) => rowChangedAt(get, AccessTokenEntity, { id: dbIntOrNull(request.params.token_id) ?? 0 }, 'createdAt'))
  @GroupAccess(ACCESS_LEVELS.OWNER)
  @HttpCode(204)
  async revokeGroup(@CurrentGroup() group: ResourceAccess, @Param('token_id') tokenId: string, @CurrentPrincipal() principal: Principal) {
    const token = await this.find('group', idOf(group), tokenId);
    await this.revokeToken.execute({ tokenId: token.id, actorId: principal.user.id });
  }

  private async list(kind: Kind, resourceId: number, filter: ListAccessTokensDto, req: FastifyRequest, reply: FastifyReply) {
    const rows = await paginateOffset(this.tokens.listQuery({ resourceType: kind, resourceId }, filter), req, reply, {
      externalUrl: this.config.http.externalUrl,
    });
    return rows.map((t) => presentAccessToken(t));
  }

  private async create(kind: Kind, access: ResourceAccess, dto: CreateResourceAccessTokenDto, principal: Principal) {
    const { token, secret } = await this.createToken.execute({
      resourceType: kind,
      resourceId: idOf(access),
      name: dto.name,
      scopes: dto.scopes,
      accessLevel: dto.access_level ?? ACCESS_LEVELS.MAINTAINER,
      expiresAt: dto.expires_at,
      description: dto.description,
      actorId: principal.user.id,
      actorAccessLevel: principal.user.isAdmin ? ACCESS_LEVELS.OWNER : access.accessLevel,
    });
    return presentAccessToken(token, secret);
  }

  private async find(kind: Kind, resourceId: number, tokenId: string) {
    const id = dbIntOrNull(tokenId);
    const token = id === null ? null : await this.tokens.findById(id);
    if (!token || token.resourceType !== kind || token.resourceId !== resourceId) throw DomainError.notFound('Token');
    return token;
  }
}
