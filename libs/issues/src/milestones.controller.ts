import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CurrentGroup, CurrentPrincipal, CurrentProject, DomainError, GroupAccess, paginateOffset, Principal, ProjectAccess, ResourceAccess } from '@app/api';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, groupOf, projectOf } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { CreateMilestoneDto, ListMilestonesDto, UpdateMilestoneDto } from './dto/milestone.dto';
import { MilestoneEntity } from './entities/milestone.entity';
import { intParam } from './path-params';
import { presentMilestone } from './presenters/milestone.presenter';
import { CreateMilestoneUseCase } from './use-cases/create-milestone.use-case';
import { DeleteMilestoneUseCase } from './use-cases/delete-milestone.use-case';
import { UpdateMilestoneUseCase } from './use-cases/update-milestone.use-case';

/** Project and group milestones, addressed by `id` (GitLab's milestone API does not use the iid in paths). */
@Controller()
export class MilestonesController {
  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly createMilestone: CreateMilestoneUseCase,
    private readonly updateMilestone: UpdateMilestoneUseCase,
    private readonly deleteMilestone: DeleteMilestoneUseCase,
  ) {}

  @Get('projects/:id/milestones')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async list(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: ListMilestonesDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const project = projectOf(access);
    const qb = this.dataSource.manager.createQueryBuilder(MilestoneEntity, 'm').where('m.project_id = :projectId', { projectId: project.id });
    const rows = await paginateOffset(this.filtered(qb, dto), request, reply, { externalUrl: this.config.http.externalUrl });
    return rows.map((m) => presentMilestone(m, this.config.http.externalUrl, project));
  }

  @Get('groups/:id/milestones')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async listForGroup(
    @CurrentGroup() access: ResourceAccess,
    @Query() dto: ListMilestonesDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const group = groupOf(access);
    const qb = this.dataSource.manager.createQueryBuilder(MilestoneEntity, 'm').where('m.group_id = :groupId', { groupId: group.id });
    const rows = await paginateOffset(this.filtered(qb, dto), request, reply, { externalUrl: this.config.http.externalUrl });
    return rows.map((m) => presentMilestone(m, this.config.http.externalUrl, { groupFullPath: group.fullPath }));
  }

  @Post('groups/:id/milestones')
  @GroupAccess(ACCESS_LEVELS.REPORTER)
  async createForGroup(@CurrentGroup() access: ResourceAccess, @Body() dto: CreateMilestoneDto, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    const group = groupOf(access);
    const milestone = await this.createMilestone.execute({
      actorId: principal.user.id,
      owner: { groupId: group.id },
      title: dto.title,
      description: dto.description,
      dueDate: dto.due_date,
      startDate: dto.start_date,
    });
    return presentMilestone(milestone, this.config.http.externalUrl, { groupFullPath: group.fullPath });
  }

  @Get('projects/:id/milestones/:milestone_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async get(@CurrentProject() access: ResourceAccess, @Param('milestone_id') rawId: string): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const milestone = await this.dataSource.manager.findOneBy(MilestoneEntity, { id: intParam('milestone_id', rawId), projectId: project.id });
    if (!milestone) throw DomainError.notFound('Milestone');
    return presentMilestone(milestone, this.config.http.externalUrl, project);
  }

  @Post('projects/:id/milestones')
  @ProjectAccess(ACCESS_LEVELS.REPORTER)
  async create(@CurrentProject() access: ResourceAccess, @Body() dto: CreateMilestoneDto, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const milestone = await this.createMilestone.execute({
      actorId: principal.user.id,
      owner: { projectId: project.id },
      title: dto.title,
      description: dto.description,
      dueDate: dto.due_date,
      startDate: dto.start_date,
    });
    return presentMilestone(milestone, this.config.http.externalUrl, project);
  }

  @Put('projects/:id/milestones/:milestone_id')
  @ProjectAccess(ACCESS_LEVELS.REPORTER)
  async update(
    @CurrentProject() access: ResourceAccess,
    @Param('milestone_id') rawId: string,
    @Body() dto: UpdateMilestoneDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const milestone = await this.updateMilestone.execute({
      actorId: principal.user.id,
      projectId: project.id,
      milestoneId: intParam('milestone_id', rawId),
      title: dto.title,
      description: dto.description,
      dueDate: dto.due_date,
      startDate: dto.start_date,
      stateEvent: dto.state_event,
    });
    return presentMilestone(milestone, this.config.http.externalUrl, project);
  }

  @Delete('projects/:id/milestones/:milestone_id')
  @ProjectAccess(ACCESS_LEVELS.REPORTER)
  @HttpCode(204)
  async remove(@CurrentProject() access: ResourceAccess, @Param('milestone_id') rawId: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.deleteMilestone.execute({ actorId: principal.user.id, projectId: projectOf(access).id, milestoneId: intParam('milestone_id', rawId) });
  }

  private filtered(qb: SelectQueryBuilder<MilestoneEntity>, dto: ListMilestonesDto): SelectQueryBuilder<MilestoneEntity> {
    if (dto.state) qb.andWhere('m.state = :state', { state: dto.state });
    if (dto.iids?.length) qb.andWhere('m.iid IN (:...iids)', { iids: dto.iids });
    if (dto.title) qb.andWhere('m.title = :title', { title: dto.title });
    if (dto.search) qb.andWhere('(m.title ILIKE :search OR m.description ILIKE :search)', { search: `%${dto.search.replace(/[%_\\]/g, '\\$&')}%` });
    return qb.orderBy('m.due_date', 'ASC', 'NULLS LAST').addOrderBy('m.title', 'ASC').addOrderBy('m.id', 'ASC');
  }
}
