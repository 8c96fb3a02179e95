import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { AdminOnly, Auth, CurrentPrincipal, DomainError, paginateOffset, Principal, PublicRead } from '@app/api';
import { AppConfig } from '@app/config';
import { CustomAttributeFilters } from '@app/settings';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateUserDto } from './dto/create-user.dto';
import { ListUsersDto } from './dto/list-users.dto';
import { UserEntity } from './entities';
import { presentUser, UserView } from './user.presenter';
import { UsersRepository } from './users.repository';
import { CreateUserUseCase } from './use-cases/create-user.use-case';
import { DeleteUserUseCase } from './use-cases/delete-user.use-case';
import { SetUserStateUseCase } from './use-cases/set-user-state.use-case';

const READ_USER_SCOPES = ['api', 'read_api', 'read_user'];

@Controller()
export class UsersController {
  constructor(
    private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly createUser: CreateUserUseCase,
    private readonly setUserState: SetUserStateUseCase,
    private readonly deleteUser: DeleteUserUseCase,
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
    const rows = await paginateOffset(qb, request, reply, { externalUrl: this.config.http.externalUrl });
    return this.customAttributes.attach('user', rows.map((user) => this.present(user, principal)), viewer, filter.with_custom_attributes);
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

  @Post('users')
  @AdminOnly()
  async create(@Body() dto: CreateUserDto, @CurrentPrincipal() principal: Principal): Promise<unknown> {
    if (!dto.password && !dto.reset_password && !dto.force_random_password) throw DomainError.missing('password');
    const user = await this.createUser.execute({
      email: dto.email,
      name: dto.name,
      username: dto.username,
      password: dto.password,
      admin: dto.admin,
      external: dto.external,
      privateProfile: dto.private_profile,
      canCreateGroup: dto.can_create_group,
      projectsLimit: dto.projects_limit,
      checkEmailDomain: true,
      profile: {
        bio: dto.bio,
        location: dto.location,
        publicEmail: dto.public_email,
        skype: dto.skype,
        linkedin: dto.linkedin,
        twitter: dto.twitter,
        websiteUrl: dto.website_url,
        organization: dto.organization,
        jobTitle: dto.job_title,
      },
      actorId: principal.user.id,
    });
    return presentUser(user, 'admin', this.config.http.externalUrl);
  }

  @Post('users/:id/block')
  @AdminOnly()
  @HttpCode(201)
  block(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<boolean> {
    return this.setUserState.execute({ userId: this.numericId(id), state: 'blocked', actorId: principal.user.id });
  }

  @Post('users/:id/unblock')
  @AdminOnly()
  @HttpCode(201)
  unblock(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<boolean> {
    return this.setUserState.execute({ userId: this.numericId(id), state: 'active', actorId: principal.user.id });
  }

  @Delete('users/:id')
  @AdminOnly()
  @HttpCode(204)
  async remove(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.deleteUser.execute({ userId: this.numericId(id), actorId: principal.user.id });
  }

  private numericId(id: string): number {
    if (!/^\d+$/.test(id)) throw DomainError.notFound('User');
    return Number(id);
  }

  private present(user: UserEntity, principal: Principal | null): Record<string, unknown> {
    let view: UserView = principal ? 'public' : 'basic';
    if (principal?.user.isAdmin) view = 'admin';
    else if (principal?.user.id === user.id) view = 'self';
    return presentUser(user, view, this.config.http.externalUrl);
  }
}
