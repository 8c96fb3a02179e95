import {
  CurrentGroup,
  CurrentPrincipal,
  CurrentProject,
  DomainError,
  GroupAccess,
  intParam,
  LastModified,
  paginateOffset,
  Principal,
  ProjectAccess,
  ResourceAccess,
  rowChangedAt,
} from '@app/api';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, groupOf, projectOf } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateMilestoneDto, ListMilestonesDto, UpdateMilestoneDto } from './dto/milestone.dto';
import { MilestoneEntity } from './entities/milestone.entity';
import { MilestonesRepository } from './repositories/milestones.repository';
import { presentMilestone } from './presenters/milestone.presenter';
import { CreateMilestoneUseCase } from './use-cases/create-milestone.use-case';
import { DeleteMilestoneUseCase } from './use-cases/delete-milestone.use-case';
import { UpdateMilestoneUseCase } from './use-cases/update-milestone.use-case';

/** Project and group milestones, addressed by `id` (GitLab's milestone API does not use the iid in paths). */
@Controller()
export class MilestonesController {
  constructor(
    private readonly config: AppConfig,
    private readonly milestones: MilestonesRepository,
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
    const rows = await paginateOffset(this.milestones.listQuery({ projectId: project.id }, dto), request, reply, { externalUrl: this.config.http.externalUrl });
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
    const rows = await paginateOffset(this.milestones.listQuery({ groupId: group.id }, dto), request, reply, { externalUrl: this.config.http.externalUrl });
    return rows.map((m) => presentMilestone(m, this.config.http.externalUrl, { groupFullPath: group.fullPath }));
  }

  @Post('groups/:id/milestones')
  @GroupAccess(ACCESS_LEVELS.REPORTER)
  async createForGroup(
    @CurrentGroup() access: ResourceAccess,
    @Body() dto: CreateMilestoneDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
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
    const milestone = await this.milestones.findInProject(project.id, intParam('milestone_id', rawId, 'Milestone'));
    if (!milestone) throw DomainError.notFound('Milestone');
    return presentMilestone(milestone, this.config.http.externalUrl, project);
  }

  @Post('projects/:id/milestones')
  @ProjectAccess(ACCESS_LEVELS.REPORTER)
  async create(
    @CurrentProject() access: ResourceAccess,
    @Body() dto: CreateMilestoneDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
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
      milestoneId: intParam('milestone_id', rawId, 'Milestone'),
      title: dto.title,
      description: dto.description,
      dueDate: dto.due_date,
      startDate: dto.start_date,
      stateEvent: dto.state_event,
    });
    return presentMilestone(milestone, this.config.http.externalUrl, project);
  }

  @Delete('projects/:id/milestones/:milestone_id')
  @LastModified((request, get) =>
    rowChangedAt(get, MilestoneEntity, {
      id: intParam('milestone_id', request.params.milestone_id, 'Milestone'),
      projectId: projectOf(request.projectAccess!).id,
    }),
  )
  @ProjectAccess(ACCESS_LEVELS.REPORTER)
  @HttpCode(204)
  async remove(@CurrentProject() access: ResourceAccess, @Param('milestone_id') rawId: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.deleteMilestone.execute({
      actorId: principal.user.id,
      projectId: projectOf(access).id,
      milestoneId: intParam('milestone_id', rawId, 'Milestone'),
    });
  }
}
