import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import {
  AdminOnly,
  Auth,
  CurrentPrincipal,
  CurrentProject,
  DomainError,
  idParam,
  intParam,
  LastModified,
  paginateOffset,
  Principal,
  ProjectAccess,
  ResourceAccess,
  rowChangedAt,
} from '@app/api';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, projectOf, ProjectsRepository } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateRunnerDto, ListRunnersDto, UpdateRunnerDto } from './runner.dto';
import { CiRunnerEntity } from '../entities/ci-runner.entity';
import { projectFullPathOf } from '../pipelines/pipeline.presenter';
import { presentRunner, presentRunnerDetails } from '../jobs/runner.presenter';
import { RunnerPermissions } from './runner-permissions';
import { digestSecret, generateRunnerToken, RUNNER_TOKEN_PREFIX } from '../entities/runner-tokens';
import { RunnersRepository } from './runners.repository';

/** Runner management: `POST /user/runners`, `/runners`, `/runners/all`, `/projects/:id/runners`, `/runners/:id`. */
@Controller()
export class RunnersController {
  constructor(
    private readonly config: AppConfig,
    private readonly runners: RunnersRepository,
    private readonly permissions: RunnerPermissions,
    private readonly projects: ProjectsRepository,
  ) {}

  /** Creates a runner; its `glrt-` token is in this answer only (stored as a digest). */
  @Post('user/runners')
  @Auth({ scopes: ['api', 'create_runner'] })
  async create(@Body() dto: CreateRunnerDto, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    const owner = await this.permissions.checkCreate(principal, dto.runner_type, dto.group_id, dto.project_id);
    const token = generateRunnerToken();
    const runner = await this.runners.insert(
      {
        tokenDigest: digestSecret(token),
        tokenPrefix: token.slice(0, RUNNER_TOKEN_PREFIX.length + 4),
        runnerType: dto.runner_type,
        groupId: owner.groupId,
        description: dto.description ?? '',
        maintenanceNote: dto.maintenance_note ?? null,
        paused: dto.paused ?? false,
        locked: dto.locked ?? dto.runner_type === 'project_type',
        runUntagged: dto.run_untagged ?? true,
        tagList: dto.tag_list ?? [],
        accessLevel: dto.access_level ?? 'not_protected',
        maximumTimeout: dto.maximum_timeout ?? null,
        creatorId: principal.user.id,
      },
      owner.projectId,
    );
    return { id: runner.id, token, token_expires_at: null };
  }

  @Get('runners')
  @Auth()
  async listOwned(
    @Query() dto: ListRunnersDto,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const rows = await paginateOffset(this.runners.query({ kind: 'owned', userId: principal.user.id }, this.filterOf(dto)), req, reply, {
      externalUrl: this.config.http.externalUrl,
    });
    return rows.map(presentRunner);
  }

  @Get('runners/all')
  @AdminOnly()
  async listAll(@Query() dto: ListRunnersDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>[]> {
    const rows = await paginateOffset(this.runners.query({ kind: 'all' }, this.filterOf(dto)), req, reply, { externalUrl: this.config.http.externalUrl });
    return rows.map(presentRunner);
  }

  @Get('projects/:id/runners')
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  async listProject(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: ListRunnersDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const project = projectOf(access);
    const groupIds = project.namespace.kind === 'group' ? project.namespace.traversalIds : [];
    const rows = await paginateOffset(this.runners.query({ kind: 'project', projectId: project.id, groupIds }, this.filterOf(dto)), req, reply, {
      externalUrl: this.config.http.externalUrl,
    });
    return rows.map(presentRunner);
  }

  @Get('runners/:id')
  @Auth()
  async get(@Param('id') rawId: string, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    const runner = await this.manageable(rawId, principal);
    return this.details(runner);
  }

  @Put('runners/:id')
  @Auth()
  async update(@Param('id') rawId: string, @Body() dto: UpdateRunnerDto, @CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    const runner = await this.manageable(rawId, principal);
    if (dto.description !== undefined) runner.description = dto.description;
    if (dto.paused !== undefined) runner.paused = dto.paused;
    if (dto.active !== undefined) runner.paused = !dto.active;
    if (dto.locked !== undefined) runner.locked = dto.locked;
    if (dto.run_untagged !== undefined) runner.runUntagged = dto.run_untagged;
    if (dto.tag_list !== undefined) runner.tagList = dto.tag_list;
    if (dto.access_level !== undefined) runner.accessLevel = dto.access_level;
    if (dto.maximum_timeout !== undefined) runner.maximumTimeout = dto.maximum_timeout;
    if (dto.maintenance_note !== undefined) runner.maintenanceNote = dto.maintenance_note;
    return this.details(await this.runners.save(runner));
  }

  @Delete('runners/:id')
  @LastModified((request, get) => rowChangedAt(get, CiRunnerEntity, { id: idParam(request.params.id, 'Runner') }))
  @Auth()
  @HttpCode(204)
  async delete(@Param('id') rawId: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    const runner = await this.manageable(rawId, principal);
    await this.runners.delete(runner.id);
  }

  private filterOf(dto: ListRunnersDto) {
    return { type: dto.type, paused: dto.paused, status: dto.status, tagList: dto.tag_list };
  }

  /** The runner when the principal manages it: 404 when it does not exist, 403 when it is not theirs. */
  private async manageable(rawId: string, principal: Principal): Promise<CiRunnerEntity> {
    const runner = await this.runners.findById(intParam('id', rawId, 'Runner'));
    if (!runner) throw DomainError.notFound('Runner');
    if (!(await this.permissions.canManage(principal, runner))) throw DomainError.forbidden('No access granted');
    return runner;
  }

  private async details(runner: CiRunnerEntity): Promise<Record<string, unknown>> {
    const projects = [];
    for (const id of await this.runners.projectIds(runner.id)) {
      const project = await this.projects.findById(id);
      if (project)
        projects.push({
          id: project.id,
          name: project.name,
          path: project.path,
          fullPath: projectFullPathOf(project),
          nameWithNamespace: `${project.namespace.name} / ${project.name}`,
        });
    }
    return presentRunnerDetails(runner, projects);
  }
}
