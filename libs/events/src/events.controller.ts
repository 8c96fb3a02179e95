import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import {
  applyKeysetPaginationHeaders,
  applyOffsetPaginationHeaders,
  Auth,
  CurrentPrincipal,
  CurrentProject,
  DomainError,
  isKeysetPaginationRequested,
  KeysetOptions,
  parseKeysetPagination,
  parseOffsetPagination,
  Principal,
  ProjectAccess,
  PublicRead,
  ResourceAccess,
} from '@app/api';
import { AppConfig } from '@app/config';
import { UsersRepository } from '@app/identity';
import { ACCESS_LEVELS, projectFeatureReadable, projectOf, toAccessUser } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ListCurrentUserEventsDto, ListEventsDto } from './dto/list-events.dto';
import { EventPresenter } from './event.presenter';
import { EventListQuery, EventsRepository } from './reads/events.repository';

/** Token scopes that may read events. */
const EVENT_SCOPES = ['api', 'read_api', 'read_user'];

/** Contribution events: newest first by default, offset-paginated, only what the caller may see. */
/** Event lists are paged by keyset by id, newest first unless `sort=asc`. */
const EVENT_KEYSET: KeysetOptions = { allowedOrderBy: ['id'], defaultOrderBy: 'id', defaultSort: 'desc' };

@Controller()
export class EventsController {
  constructor(
    private readonly config: AppConfig,
    private readonly events: EventsRepository,
    private readonly users: UsersRepository,
    private readonly presenter: EventPresenter,
  ) {}

  @Get('events')
  @Auth({ scopes: EVENT_SCOPES })
  currentUser(
    @Query() dto: ListCurrentUserEventsDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const user = toAccessUser(principal)!;
    const qb = dto.scope === 'all' ? this.events.ofMemberProjects(user, dto) : this.events.byAuthor(user.id, user, dto);
    return this.page({ qb, order: 'e.id' }, dto, request, reply);
  }

  @Get('users/:id/events')
  @PublicRead(EVENT_SCOPES)
  async ofUser(
    @Param('id') ref: string,
    @Query() dto: ListEventsDto,
    @CurrentPrincipal() principal: Principal | null,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const user = await this.users.findByIdOrUsername(ref);
    if (!user) throw DomainError.notFound('User');
    const viewer = toAccessUser(principal);
    const qb = this.events.byAuthor(user.id, viewer, dto);
    // A private profile's activity is shown to the user and administrators only.
    if (user.privateProfile && viewer?.id !== user.id && !viewer?.isAdmin) qb.andWhere('false');
    return this.page({ qb, order: 'e.id' }, dto, request, reply);
  }

  @Get('projects/:project_id/events')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { param: 'project_id', optional: true })
  async ofProject(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: ListEventsDto,
    @CurrentPrincipal() principal: Principal | null,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const project = projectOf(access);
    const unreadable = {
      mergeRequests: !projectFeatureReadable(project, 'merge_requests', access.accessLevel),
      repository: !projectFeatureReadable(project, 'repository', access.accessLevel),
    };
    const list = await this.events.ofProject(project.id, toAccessUser(principal), access.accessLevel, dto, unreadable);
    return this.page(list, dto, request, reply);
  }

  private async page(list: EventListQuery, dto: ListEventsDto, request: FastifyRequest, reply: FastifyReply): Promise<Record<string, unknown>[]> {
    if (isKeysetPaginationRequested(request.query)) {
      const pagination = parseKeysetPagination(request.query, EVENT_KEYSET);
      const { rows, next } = await this.events.keysetPage(list, pagination);
      applyKeysetPaginationHeaders(request, reply, { pagination, next, externalUrl: this.config.http.externalUrl });
      return this.presenter.present(rows);
    }
    const { rows, info } = await this.events.page(list, parseOffsetPagination(request.query), dto.sort);
    applyOffsetPaginationHeaders(request, reply, { ...info, externalUrl: this.config.http.externalUrl });
    return this.presenter.present(rows);
  }
}
