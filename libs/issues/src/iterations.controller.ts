import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { Auth, CurrentGroup, CurrentPrincipal, GroupAccess, paginateOffset, Principal, ResourceAccess } from '@app/api';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, groupOf } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateIterationDto, ListIterationsDto } from './dto/iteration.dto';
import { IterationsRepository } from './repositories/iterations.repository';
import { presentIteration } from './presenters/iteration.presenter';
import { CreateIterationUseCase } from './use-cases/create-iteration.use-case';

/** Group iterations (PREMIUM). Iterations of ancestor groups are listed too, as in GitLab. */
@Controller()
@Auth({ tier: 'premium' })
export class IterationsController {
  constructor(
    private readonly config: AppConfig,
    private readonly iterations: IterationsRepository,
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
    const qb = this.iterations.listQuery(group.traversalIds, dto);
    const rows = await paginateOffset(qb, request, reply, { externalUrl: this.config.http.externalUrl });
    const paths = await this.iterations.groupPaths(rows.map((it) => it.groupId));
    return rows.map((it) => presentIteration(it, this.config.http.externalUrl, paths));
  }

  @Post('groups/:id/iterations')
  @GroupAccess(ACCESS_LEVELS.DEVELOPER)
  async create(
    @CurrentGroup() access: ResourceAccess,
    @Body() dto: CreateIterationDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const iteration = await this.createIteration.execute({
      actorId: principal.user.id,
      groupId: groupOf(access).id,
      title: dto.title,
      description: dto.description,
      startDate: dto.start_date,
      dueDate: dto.due_date,
    });
    return presentIteration(iteration, this.config.http.externalUrl, await this.iterations.groupPaths([iteration.groupId]));
  }
}
