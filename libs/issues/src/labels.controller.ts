import { Body, Controller, Get, Post, Req, Res } from '@nestjs/common';
import { CurrentGroup, CurrentProject, DomainError, GroupAccess, paginateOffset, ProjectAccess, ResourceAccess } from '@app/api';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, groupOf, projectOf } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateLabelDto } from './dto/label.dto';
import { LabelEntity } from './entities/label.entity';
import { projectAncestorGroupIds } from './issuable-relations';
import { LabelsRepository } from './labels.repository';

/** Black or white text, whichever reads better on the label's color (GitLab's `text_color`). */
function textColor(color: string): string {
  const hex = color.length === 4 ? color.slice(1).split('').map((c) => c + c).join('') : color.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return r * 0.299 + g * 0.587 + b * 0.114 > 186 ? '#333333' : '#FFFFFF';
}

function presentLabel(label: LabelEntity, projectId: number | null): Record<string, unknown> {
  return {
    id: label.id,
    name: label.title,
    color: label.color,
    text_color: textColor(label.color),
    description: label.description,
    description_html: label.description ?? '',
    open_issues_count: 0,
    closed_issues_count: 0,
    open_merge_requests_count: 0,
    subscribed: false,
    priority: null,
    is_project_label: projectId !== null && label.projectId === projectId,
  };
}

/**
 * Project and group labels, as far as quick actions (`/label ~name`) and epics need them: list
 * (a project's list includes the labels of its groups) and create (Reporter+, 409 on a name
 * taken in the same project or group).
 */
@Controller()
export class LabelsController {
  constructor(
    private readonly labels: LabelsRepository,
    private readonly config: AppConfig,
  ) {}

  @Get('projects/:id/labels')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async listProject(@CurrentProject() access: ResourceAccess, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>[]> {
    const project = projectOf(access);
    const qb = this.labels.projectListQuery(project.id, projectAncestorGroupIds(project));
    const rows = await paginateOffset(qb, req, reply, { externalUrl: this.config.http.externalUrl });
    return rows.map((label) => presentLabel(label, project.id));
  }

  @Post('projects/:id/labels')
  @ProjectAccess(ACCESS_LEVELS.REPORTER)
  async createProject(@CurrentProject() access: ResourceAccess, @Body() dto: CreateLabelDto): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    return presentLabel(await this.create({ projectId: project.id, groupId: null }, dto), project.id);
  }

  @Get('groups/:id/labels')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async listGroup(@CurrentGroup() access: ResourceAccess, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>[]> {
    const group = groupOf(access);
    const ancestors = group.traversalIds.length > 0 ? group.traversalIds : [group.id];
    const qb = this.labels.groupListQuery(ancestors);
    const rows = await paginateOffset(qb, req, reply, { externalUrl: this.config.http.externalUrl });
    return rows.map((label) => presentLabel(label, null));
  }

  @Post('groups/:id/labels')
  @GroupAccess(ACCESS_LEVELS.REPORTER)
  async createGroup(@CurrentGroup() access: ResourceAccess, @Body() dto: CreateLabelDto): Promise<Record<string, unknown>> {
    return presentLabel(await this.create({ projectId: null, groupId: groupOf(access).id }, dto), null);
  }

  private async create(owner: { projectId: number | null; groupId: number | null }, dto: CreateLabelDto): Promise<LabelEntity> {
    const title = dto.name.trim();
    if (title === '') throw DomainError.invalid({ title: ["can't be blank"] });
    const label = Object.assign(new LabelEntity(), { ...owner, title, color: dto.color.toUpperCase(), description: dto.description ?? null });
    return this.labels.insert(label);
  }
}
