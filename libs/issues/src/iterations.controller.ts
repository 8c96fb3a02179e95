import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { Auth, CurrentGroup, CurrentPrincipal, GroupAccess, paginateOffset, Principal, ResourceAccess } from '@app/api';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, groupOf } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { CreateIterationDto, ListIterationsDto } from './dto/iteration.dto';
import { IterationEntity } from './entities/iteration.entity';
import { presentIteration } from './presenters/iteration.presenter';
import { CreateIterationUseCase } from './use-cases/create-iteration.use-case';

const TODAY = "CAST(timezone('UTC', now()) AS date)";

/** Group iterations (PREMIUM). Iterations of ancestor groups are listed too, as in GitLab. */
@Controller()
@Auth({ tier: 'premium' })
export class IterationsController {
  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly createIteration: CreateIterationUseCase,
  ) {}

  @Get('groups/:id/iterations')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async list(
    @CurrentGroup() access: ResourceAccess,
    @Query() dto: ListIterationsDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const group = groupOf(access);
    const qb = this.dataSource.manager.createQueryBuilder(IterationEntity, 'it').where('it.group_id IN (:...groupIds)', { groupIds: group.traversalIds });
    switch (dto.state ?? 'all') {
      case 'upcoming':
        qb.andWhere(`it.start_date > ${TODAY}`);
        break;
      case 'current':
        qb.andWhere(`it.start_date <= ${TODAY} AND it.due_date >= ${TODAY}`);
        break;
      case 'opened':
        qb.andWhere(`it.due_date >= ${TODAY}`);
        break;
      case 'closed':
        qb.andWhere(`it.due_date < ${TODAY}`);
        break;
      case 'all':
        break;
    }
    if (dto.search) qb.andWhere('it.title ILIKE :search', { search: `%${dto.search.replace(/[%_\\]/g, '\\$&')}%` });
    qb.orderBy('it.due_date', 'ASC').addOrderBy('it.id', 'ASC');
    const rows = await paginateOffset(qb, request, reply, { externalUrl: this.config.http.externalUrl });
    return rows.map((it) => presentIteration(it, this.config.http.externalUrl));
  }

  @Post('groups/:id/iterations')
  @GroupAccess(ACCESS_LEVELS.DEVELOPER)
  async create(@CurrentGroup() access: ResourceAccess, @Body() dto: CreateIterationDto, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    const iteration = await this.createIteration.execute({
      actorId: principal.user.id,
      groupId: groupOf(access).id,
      title: dto.title,
      description: dto.description,
      startDate: dto.start_date,
      dueDate: dto.due_date,
    });
    return presentIteration(iteration, this.config.http.externalUrl);
  }
}
