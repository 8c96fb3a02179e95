import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { AdminOnly, Auth, CurrentPrincipal, DomainError, idParam, paginateQuery, Principal, PublicRead } from '@app/api';
import { AppConfig } from '@app/config';
import { CustomAttributeFilters } from '@app/custom-attributes';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ListUsersDto } from './dto/list-users.dto';
import { UserEntity } from './entities';
import { presentUser, UserView } from './users/user.presenter';
import { USER_KEYSET, UsersRepository } from './users/users.repository';
import { SetUserStateUseCase } from './use-cases/set-user-state.use-case';

const READ_USER_SCOPES = ['api', 'read_api', 'read_user'];

/** `true`, `false` or `null` as a JSON body (Nest would send `null` as an empty body). */
function asJson(reply: FastifyReply, value: boolean | null): string {
  reply.type('application/json');
  return JSON.stringify(value);
}

@Controller()
export class UsersController {
  constructor(
    private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly setUserState: SetUserStateUseCase,
    private readonly customAttributes: CustomAttributeFilters,
  ) {}

  @Get('users')
  @PublicRead(READ_USER_SCOPES)
  async list(
    @Query() filter: ListUsersDto,
    @CurrentPrincipal() principal: Principal | null,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown[]> {
    const admin = principal?.user.isAdmin ?? false;
    const viewer = principal ? principal.user : null;
    const qb = this.customAttributes.filter(this.users.listQuery(filter, { admin }), 'user', 'u', filter.custom_attributes, viewer);
    const rows = await paginateQuery(qb, request, reply, { externalUrl: this.config.http.externalUrl, keyset: USER_KEYSET });
    return this.customAttributes.attach(
      'user',
      rows.map((user) => this.present(user, principal)),
      viewer,
      filter.with_custom_attributes,
    );
  }

  @Get('user')
  @Auth({ scopes: READ_USER_SCOPES })
  async current(@CurrentPrincipal() principal: Principal): Promise<unknown> {
    const user = await this.users.findById(principal.user.id);
    if (!user) throw DomainError.unauthorized();
    return presentUser(user, user.isAdmin ? 'admin' : 'self', this.config.http.externalUrl);
  }

  @Get('users/:id')
  @PublicRead(READ_USER_SCOPES)
  async get(
    @Param('id') id: string,
    @CurrentPrincipal() principal: Principal | null,
    @Query('with_custom_attributes') withCustomAttributes?: string,
  ): Promise<unknown> {
    const user = await this.users.findByIdOrUsername(id);
    if (!user || (user.state === 'blocked' && !principal?.user.isAdmin)) throw DomainError.notFound('User');
    const [item] = await this.customAttributes.attach('user', [this.present(user, principal)], principal?.user ?? null, withCustomAttributes === 'true');
    return item;
  }

  @Post('users/:id/block')
  @AdminOnly()
  @HttpCode(201)
  async block(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return asJson(reply, await this.setUserState.execute({ userId: idParam(id, 'User'), state: 'blocked', actorId: principal.user.id }));
  }

  @Post('users/:id/unblock')
  @AdminOnly()
  @HttpCode(201)
  async unblock(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return asJson(reply, await this.setUserState.execute({ userId: idParam(id, 'User'), state: 'active', actorId: principal.user.id }));
  }

  private present(user: UserEntity, principal: Principal | null): Record<string, unknown> {
    let view: UserView = principal ? 'public' : 'basic';
    if (principal?.user.isAdmin) view = 'admin';
    else if (principal?.user.id === user.id) view = 'self';
    return presentUser(user, view, this.config.http.externalUrl);
  }
}
