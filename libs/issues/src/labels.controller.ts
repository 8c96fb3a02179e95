import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CurrentGroup, CurrentProject, DomainError, ErrorCode, GroupAccess, LastModified, paginateOffset, ProjectAccess, ResourceAccess } from '@app/api';
import type { LastModifiedRequest, ProviderLookup } from '@app/api';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, groupOf, projectOf } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateLabelDto, UpdateLabelDto } from './dto/label.dto';
import { LabelEntity } from './entities/label.entity';
import { projectAncestorGroupIds } from './relations/issuable-relations';
import { LabelsRepository } from './repositories/labels.repository';

/** Black or white text, whichever reads better on the label's color (GitLab's `text_color`). */
function textColor(color: string): string {
  const hex =
    color.length === 4
      ? color
          .slice(1)
          .split('')
          .map((c) => c + c)
          .join('')
      : color.slice(1);
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

/** `include_ancestor_groups` of a single label read: true unless `false`, as Grape's Boolean. */
const includeAncestors = (raw: unknown): boolean => raw !== 'false' && raw !== false;

/** The label a DELETE names (of the project or group itself), for `If-Unmodified-Since`; null when there is none (the route answers 404). */
async function labelChangedAt(request: LastModifiedRequest, get: ProviderLookup, owner: 'project' | 'group'): Promise<Date | null> {
  const where =
    owner === 'project' ? { projectId: projectOf(request.projectAccess!).id, groupId: null } : { projectId: null, groupId: groupOf(request.groupAccess!).id };
  return (
    (
      await get(LabelsRepository)
        .find(where, [], request.params.label_id)
        .catch(() => null)
    )?.updatedAt ?? null
  );
}

/**
 * Project and group labels: list (a project's list includes the labels of its groups), read,
 * create (Reporter+, 409 on a name taken in the same project or group), update and delete
 * (Reporter+, GitLab's `admin_label`; only the project's or group's own labels). `:label_id` is
 * the id or the title.
 */
@Controller()
export class LabelsController {
  constructor(
    private readonly labels: LabelsRepository,
    private readonly config: AppConfig,
  ) {}

  @Get('projects/:id/labels')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async listProject(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
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
  async listGroup(
    @CurrentGroup() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
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

  @Get('projects/:id/labels/:label_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async getProject(
    @CurrentProject() access: ResourceAccess,
    @Param('label_id') raw: string,
    @Query('include_ancestor_groups') ancestors: unknown,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const label = await this.labels.find({ projectId: project.id, groupId: null }, includeAncestors(ancestors) ? projectAncestorGroupIds(project) : [], raw);
    return presentLabel(label, project.id);
  }

  @Put('projects/:id/labels/:label_id')
  @ProjectAccess(ACCESS_LEVELS.REPORTER)
  async updateProject(@CurrentProject() access: ResourceAccess, @Param('label_id') raw: string, @Body() dto: UpdateLabelDto): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const label = await this.labels.find({ projectId: project.id, groupId: null }, [], raw);
    return presentLabel(await this.update(label, dto), project.id);
  }

  @Delete('projects/:id/labels/:label_id')
  @LastModified((request, get) => labelChangedAt(request, get, 'project'))
  @ProjectAccess(ACCESS_LEVELS.REPORTER)
  @HttpCode(204)
  async deleteProject(@CurrentProject() access: ResourceAccess, @Param('label_id') raw: string): Promise<void> {
    await this.labels.delete(await this.labels.find({ projectId: projectOf(access).id, groupId: null }, [], raw));
  }

  @Get('groups/:id/labels/:label_id')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async getGroup(
    @CurrentGroup() access: ResourceAccess,
    @Param('label_id') raw: string,
    @Query('include_ancestor_groups') ancestors: unknown,
  ): Promise<Record<string, unknown>> {
    const group = groupOf(access);
    const label = await this.labels.find({ projectId: null, groupId: group.id }, includeAncestors(ancestors) ? group.traversalIds : [], raw);
    return presentLabel(label, null);
  }

  @Put('groups/:id/labels/:label_id')
  @GroupAccess(ACCESS_LEVELS.REPORTER)
  async updateGroup(@CurrentGroup() access: ResourceAccess, @Param('label_id') raw: string, @Body() dto: UpdateLabelDto): Promise<Record<string, unknown>> {
    const label = await this.labels.find({ projectId: null, groupId: groupOf(access).id }, [], raw);
    return presentLabel(await this.update(label, dto), null);
  }

  @Delete('groups/:id/labels/:label_id')
  @LastModified((request, get) => labelChangedAt(request, get, 'group'))
  @GroupAccess(ACCESS_LEVELS.REPORTER)
  @HttpCode(204)
  async deleteGroup(@CurrentGroup() access: ResourceAccess, @Param('label_id') raw: string): Promise<void> {
    await this.labels.delete(await this.labels.find({ projectId: null, groupId: groupOf(access).id }, [], raw));
  }

  /** GitLab's `at_least_one_of :new_name, :color, :description` (400 `error`), then the change. */
  private update(label: LabelEntity, dto: UpdateLabelDto): Promise<LabelEntity> {
    if (dto.new_name === undefined && dto.color === undefined && dto.description === undefined) {
      throw new DomainError(ErrorCode.BAD_REQUEST, 'new_name, color, description are missing, at least one parameter must be provided', { errorKey: true });
    }
    const title = dto.new_name?.trim();
    if (title === '') throw DomainError.invalid({ title: ["can't be blank"] });
    return this.labels.update(label, { title, color: dto.color?.toUpperCase(), description: dto.description });
  }

  private async create(owner: { projectId: number | null; groupId: number | null }, dto: CreateLabelDto): Promise<LabelEntity> {
    const title = dto.name.trim();
    if (title === '') throw DomainError.invalid({ title: ["can't be blank"] });
    const label = Object.assign(new LabelEntity(), { ...owner, title, color: dto.color.toUpperCase(), description: dto.description ?? null });
    return this.labels.insert(label);
  }
}
