import { AdminOnly, Auth, CurrentPrincipal, DomainError, idParam, LastModified, paginateOffset, Principal, rowChangedAt, SCOPES } from '@app/api';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { AppConfig } from '@app/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { presentAccessToken } from './access-tokens/access-token.presenter';
import { AccessTokensRepository } from './access-tokens/access-tokens.repository';
import { CreateAccessTokenDto, ListAccessTokensDto } from './dto/create-access-token.dto';
import { AccessTokenEntity } from './entities';
import { UsersRepository } from './users/users.repository';
import { CreateAccessTokenUseCase } from './use-cases/create-access-token.use-case';
import { RevokeAccessTokenUseCase } from './use-cases/revoke-access-token.use-case';

const ANY_SCOPE = [...SCOPES];

const numeric = (value: string, resource: string): number => idParam(value, resource);

/** Personal access tokens and impersonation tokens. */
@Controller()
export class AccessTokensController {
  constructor(
    private readonly config: AppConfig,
    private readonly tokens: AccessTokensRepository,
    private readonly users: UsersRepository,
    private readonly createToken: CreateAccessTokenUseCase,
    private readonly revokeToken: RevokeAccessTokenUseCase,
  ) {}

  @Post('users/:user_id/personal_access_tokens')
  @AdminOnly()
  createPersonal(@Param('user_id') userId: string, @Body() dto: CreateAccessTokenDto, @CurrentPrincipal() principal: Principal): Promise<unknown> {
    return this.createFor(userId, dto, principal, false);
  }

  @Get('personal_access_tokens')
  @Auth()
  async listPersonal(
    @Query() filter: ListAccessTokensDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown[]> {
    const userId = principal.user.isAdmin ? filter.user_id : principal.user.id;
    const qb = this.tokens.listQuery({ userId, resourceType: 'personal', impersonation: false }, filter);
    const rows = await paginateOffset(qb, request, reply, { externalUrl: this.config.http.externalUrl });
    return rows.map((t) => presentAccessToken(t));
  }

  @Get('personal_access_tokens/self')
  @Auth({ scopes: ANY_SCOPE, noSudo: true })
  async self(@CurrentPrincipal() principal: Principal): Promise<unknown> {
    return presentAccessToken(await this.ownToken(principal));
  }

  @Delete('personal_access_tokens/self')
  @LastModified((request, get) => rowChangedAt(get, AccessTokenEntity, { id: request.principal?.tokenId ?? 0 }, 'createdAt'))
  @Auth({ scopes: ANY_SCOPE, noSudo: true })
  @HttpCode(204)
  async revokeSelf(@CurrentPrincipal() principal: Principal): Promise<void> {
    const token = await this.ownToken(principal);
    await this.revokeToken.execute({ tokenId: token.id, actorId: principal.user.id });
  }

  @Get('personal_access_tokens/:id')
  @Auth()
  async getPersonal(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<unknown> {
    return presentAccessToken(await this.visiblePersonalToken(id, principal));
  }

  @Delete('personal_access_tokens/:id')
  @LastModified((request, get) => rowChangedAt(get, AccessTokenEntity, { id: numeric(request.params.id, 'Personal Access Token') }, 'createdAt'))
  @Auth()
  @HttpCode(204)
  async revokePersonal(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    const token = await this.visiblePersonalToken(id, principal);
    await this.revokeToken.execute({ tokenId: token.id, actorId: principal.user.id });
  }

  @Post('users/:user_id/impersonation_tokens')
  @AdminOnly()
  createImpersonation(@Param('user_id') userId: string, @Body() dto: CreateAccessTokenDto, @CurrentPrincipal() principal: Principal): Promise<unknown> {
    if (!this.config.auth.impersonationEnabled) throw DomainError.forbidden('Impersonation has been disabled');
    return this.createFor(userId, dto, principal, true);
  }

  @Get('users/:user_id/impersonation_tokens')
  @AdminOnly()
  async listImpersonation(
    @Param('user_id') userId: string,
    @Query() filter: ListAccessTokensDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown[]> {
    const user = await this.users.findById(numeric(userId, 'User'));
    if (!user) throw DomainError.notFound('User');
    const qb = this.tokens.listQuery({ userId: user.id, resourceType: 'personal', impersonation: true }, filter);
    const rows = await paginateOffset(qb, request, reply, { externalUrl: this.config.http.externalUrl });
    return rows.map((t) => presentAccessToken(t));
  }

  @Get('users/:user_id/impersonation_tokens/:token_id')
  @AdminOnly()
  async getImpersonation(@Param('user_id') userId: string, @Param('token_id') tokenId: string): Promise<unknown> {
    return presentAccessToken(await this.impersonationToken(userId, tokenId));
  }

  @Delete('users/:user_id/impersonation_tokens/:token_id')
  @LastModified((request, get) => rowChangedAt(get, AccessTokenEntity, { id: numeric(request.params.token_id, 'Impersonation Token') }, 'createdAt'))
  @AdminOnly()
  @HttpCode(204)
  async revokeImpersonation(@Param('user_id') userId: string, @Param('token_id') tokenId: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    const token = await this.impersonationToken(userId, tokenId);
    await this.revokeToken.execute({ tokenId: token.id, actorId: principal.user.id });
  }

  private async createFor(userId: string, dto: CreateAccessTokenDto, principal: Principal, impersonation: boolean): Promise<unknown> {
    const user = await this.users.findById(numeric(userId, 'User'));
    if (!user) throw DomainError.notFound('User');
    const { token, secret } = await this.createToken.execute({
      userId: user.id,
      name: dto.name,
      scopes: dto.scopes,
      expiresAt: dto.expires_at,
      description: dto.description,
      impersonation,
      actorId: principal.user.id,
    });
    return presentAccessToken(token, secret);
  }

  private async ownToken(principal: Principal): Promise<AccessTokenEntity> {
    if (principal.tokenId === null || principal.credential === 'oauth') throw DomainError.notFound('Token');
    const token = await this.tokens.findById(principal.tokenId);
    if (!token) throw DomainError.notFound('Token');
    return token;
  }

  /** A personal token the caller may see: its own, or any for administrators. */
  private async visiblePersonalToken(id: string, principal: Principal): Promise<AccessTokenEntity> {
    const token = await this.tokens.findById(numeric(id, 'Personal Access Token'));
    if (!token || token.resourceType !== 'personal' || token.impersonation || (!principal.user.isAdmin && token.userId !== principal.user.id)) {
      throw DomainError.notFound('Personal Access Token');
    }
    return token;
  }

  private async impersonationToken(userId: string, tokenId: string): Promise<AccessTokenEntity> {
    const token = await this.tokens.findById(numeric(tokenId, 'Impersonation Token'));
    if (!token || !token.impersonation || token.userId !== numeric(userId, 'User')) throw DomainError.notFound('Impersonation Token');
    return token;
  }
}
