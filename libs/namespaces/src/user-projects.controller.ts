import { CurrentPrincipal, DomainError, parseIdOrName, Principal, PublicRead } from '@app/api';
import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { UserEntity, UsersRepository } from '@app/identity';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessUser } from './access/access-policy';
import { toAccessUser } from './resolver/principal-access';
import { ListUserProjectsDto } from './dto/project.dto';
import { projectListFilter, ProjectListService } from './project-list.service';
import { GroupsRepository } from './repositories/groups.repository';
import { USER_PROJECT_ORDER_COLUMNS } from './repositories/projects.repository';

/**
 * `GET /users/:user_id/projects` (projects in the user's personal namespace) and
 * `GET /users/:user_id/starred_projects`, with the same filters as `GET /projects` and keyset
 * pagination for every order. A private profile gives others (not administrators) an empty list.
 */
@Controller()
export class UserProjectsController {
  constructor(
    private readonly users: UsersRepository,
    private readonly namespaces: GroupsRepository,
    private readonly projectList: ProjectListService,
  ) {}

  @Get('users/:user_id/projects')
  @PublicRead()
  async projects(
    @Param('user_id') ref: string,
    @Query() dto: ListUserProjectsDto,
    @CurrentPrincipal() principal: Principal | null,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const viewer = toAccessUser(principal);
    const user = await this.findUser(ref, viewer);
    const namespace = await this.namespaces.personalNamespace(user.id);
    const filter = { ...projectListFilter(dto, viewer), namespaceIds: namespace ? [namespace.id] : [] };
    return this.projectList.list({ filter, viewer, dto, ...this.keyset(), empty: this.hidden(user, viewer) }, request, reply);
  }

  @Get('users/:user_id/starred_projects')
  @PublicRead()
  async starred(
    @Param('user_id') ref: string,
    @Query() dto: ListUserProjectsDto,
    @CurrentPrincipal() principal: Principal | null,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const viewer = toAccessUser(principal);
    const user = await this.findUser(ref, viewer);
    const filter = { ...projectListFilter(dto, viewer), starredBy: user.id };
    return this.projectList.list({ filter, viewer, dto, ...this.keyset(), empty: this.hidden(user, viewer) }, request, reply);
  }

  private keyset() {
    return { keysetOrders: USER_PROJECT_ORDER_COLUMNS, keysetDefaultOrder: 'created_at' };
  }

  /** A private profile hides the user's lists from everyone but the user and administrators. */
  private hidden(user: UserEntity, viewer: AccessUser | null): boolean {
    return user.privateProfile && viewer?.id !== user.id && !viewer?.isAdmin;
  }

  /** By id or username (case-insensitive); blocked users exist only for administrators. */
  private async findUser(ref: string, viewer: AccessUser | null): Promise<UserEntity> {
    const user = await this.users.findByIdOrUsername(ref);
    if (!user || (user.state === 'blocked' && !viewer?.isAdmin)) throw DomainError.notFound('User');
    return user;
  }
}
