import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import {
  Auth,
  CurrentGroup,
  CurrentPrincipal,
  DomainError,
  GroupAccess,
  intParam,
  LastModified,
  paginateOffset,
  Principal,
  ResourceAccess,
  rowChangedAt,
} from '@app/api';
import { AppConfig } from '@app/config';
import { presentUserSummary } from '@app/identity';
import { ACCESS_LEVELS, groupOf } from '@app/namespaces';
import type { NamespaceEntity } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateEpicDto, ListEpicsDto, UpdateEpicDto } from './dto/epic.dto';
import { EpicEntity } from './entities/epic.entity';
import { EpicsRepository } from './repositories/epics.repository';
import { CreateEpicUseCase, DeleteEpicUseCase, UpdateEpicUseCase } from './use-cases/epic.use-cases';

/**
 * Group epics (ULTIMATE here, as the epic notes of the spec), addressed by their per-group
 * `iid`. Confidential epics are read by Reporter+ only; Reporter+ create and edit, Owners
 * delete. Groups only: a personal namespace has no epics (404).
 */
@Controller()
@Auth({ tier: 'ultimate' })
export class EpicsController {
  constructor(
    private readonly config: AppConfig,
    private readonly epics: EpicsRepository,
    private readonly createEpic: CreateEpicUseCase,
    private readonly updateEpic: UpdateEpicUseCase,
    private readonly deleteEpic: DeleteEpicUseCase,
  ) {}

  @Get('groups/:id/epics')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async list(
    @CurrentGroup() access: ResourceAccess,
    @Query() dto: ListEpicsDto,
    @CurrentPrincipal() principal: Principal | null,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const group = this.group(access);
    const qb = this.epics.listQuery(group.id, this.readsConfidential(access, principal), dto);
    const rows = await paginateOffset(qb, req, reply, { externalUrl: this.config.http.externalUrl });
    return this.present(rows, group);
  }

  @Get('groups/:id/epics/:epic_iid')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async get(@CurrentGroup() access: ResourceAccess, @Param('epic_iid') rawIid: string, @CurrentPrincipal() principal: Principal | null) {
    const group = this.group(access);
    const epic = await this.epics.findByIid(group.id, intParam('epic_iid', rawIid, 'Epic'));
    if (!epic || (epic.confidential && !this.readsConfidential(access, principal))) throw DomainError.notFound('Epic');
    return (await this.present([epic], group))[0];
  }

  @Post('groups/:id/epics')
  @GroupAccess(ACCESS_LEVELS.REPORTER)
  async create(@CurrentGroup() access: ResourceAccess, @Body() dto: CreateEpicDto, @CurrentPrincipal() principal: Principal) {
    const group = this.group(access);
    const epic = await this.createEpic.execute({ groupId: group.id, actorId: principal.user.id, attributes: dto });
    return (await this.present([epic], group))[0];
  }

  @Put('groups/:id/epics/:epic_iid')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS)
  async update(
    @CurrentGroup() access: ResourceAccess,
    @Param('epic_iid') rawIid: string,
    @Body() dto: UpdateEpicDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    const group = this.group(access);
    const epic = await this.updateEpic.execute({
      groupId: group.id,
      iid: intParam('epic_iid', rawIid, 'Epic'),
      actorId: principal.user.id,
      actorLevel: access.accessLevel,
      attributes: dto,
    });
    return (await this.present([epic], group))[0];
  }

  @Delete('groups/:id/epics/:epic_iid')
  @LastModified((request, get) =>
    rowChangedAt(get, EpicEntity, { groupId: groupOf(request.groupAccess!).id, iid: intParam('epic_iid', request.params.epic_iid, 'Epic') }),
  )
  @GroupAccess(ACCESS_LEVELS.OWNER)
  @HttpCode(204)
  async remove(@CurrentGroup() access: ResourceAccess, @Param('epic_iid') rawIid: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.deleteEpic.execute({ groupId: this.group(access).id, iid: intParam('epic_iid', rawIid, 'Epic'), actorId: principal.user.id });
  }

  private group(access: ResourceAccess): NamespaceEntity {
    const group = groupOf(access);
    if (group.kind !== 'group') throw DomainError.notFound('Group');
    return group;
  }

  private readsConfidential(access: ResourceAccess, principal: Principal | null): boolean {
    return Boolean(principal?.user.isAdmin) || access.accessLevel >= ACCESS_LEVELS.REPORTER;
  }

  private async present(epics: EpicEntity[], group: NamespaceEntity): Promise<Record<string, unknown>[]> {
    const externalUrl = this.config.http.externalUrl;
    const authors = await this.epics.authorsOf(epics);
    return epics.map((epic) => {
      const author = authors.find((u) => u.id === epic.authorId);
      const webUrl = `${externalUrl}/groups/${group.fullPath}/-/epics/${epic.iid}`;
      return {
        id: epic.id,
        iid: epic.iid,
        group_id: epic.groupId,
        parent_id: null,
        title: epic.title,
        description: epic.description,
        state: epic.state,
        confidential: epic.confidential,
        web_url: webUrl,
        reference: `&${epic.iid}`,
        references: { short: `&${epic.iid}`, relative: `&${epic.iid}`, full: `${group.fullPath}&${epic.iid}` },
        author: author ? presentUserSummary(author, externalUrl) : null,
        start_date: epic.startDate,
        start_date_is_fixed: epic.startDate !== null,
        start_date_fixed: epic.startDate,
        start_date_from_milestones: null,
        due_date: epic.dueDate,
        end_date: epic.dueDate,
        due_date_is_fixed: epic.dueDate !== null,
        due_date_fixed: epic.dueDate,
        due_date_from_milestones: null,
        labels: epic.labels,
        upvotes: 0,
        downvotes: 0,
        created_at: epic.createdAt.toISOString(),
        updated_at: epic.updatedAt.toISOString(),
        closed_at: epic.closedAt?.toISOString() ?? null,
        _links: {
          self: `${externalUrl}/api/v4/groups/${group.id}/epics/${epic.iid}`,
          epic_issues: `${externalUrl}/api/v4/groups/${group.id}/epics/${epic.iid}/issues`,
          group: `${externalUrl}/api/v4/groups/${group.id}`,
          parent: null,
        },
      };
    });
  }
}
