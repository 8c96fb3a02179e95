import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import {
  CurrentPrincipal,
  CurrentProject,
  DomainError,
  ErrorCode,
  intParam,
  LastModified,
  Paginator,
  Principal,
  ProjectAccess,
  ResourceAccess,
  rowChangedAt,
} from '@app/api';
import { ACCESS_LEVELS, accessUserOf, projectOf, ProjectWithNamespace } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateSnippetDto, UpdateSnippetDto } from './dto/snippet.dto';
import { SnippetEntity } from './entities/snippet.entity';
import { SnippetViewer } from './core/snippet-access';
import { SnippetPresenter } from './snippet.presenter';
import { SnippetsService } from './snippets.service';
import { CreateSnippetUseCase, DeleteSnippetUseCase, UpdateSnippetUseCase } from './use-cases/write-snippet.use-cases';

const viewerOf = (principal: Principal | null): SnippetViewer | null => (principal ? accessUserOf(principal) : null);

/**
 * Project snippets (`/projects/:id/snippets`): files stored whole in the database, visibility
 * and the project's snippets feature enforced (404 for what the caller may not read).
 */
@Controller()
export class SnippetsController {
  constructor(
    private readonly snippets: SnippetsService,
    private readonly presenter: SnippetPresenter,
    private readonly paginator: Paginator,
    private readonly createSnippet: CreateSnippetUseCase,
    private readonly updateSnippet: UpdateSnippetUseCase,
    private readonly deleteSnippet: DeleteSnippetUseCase,
  ) {}

  @Get('projects/:id/snippets')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async list(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal | null,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const project = projectOf(access);
    const qb = this.snippets.listQuery(project, viewerOf(principal), access.accessLevel);
    const rows = await this.paginator.offset(qb, req, reply);
    return this.present(rows, project);
  }

  @Get('projects/:id/snippets/:snippet_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async get(@CurrentProject() access: ResourceAccess, @Param('snippet_id') id: string, @CurrentPrincipal() principal: Principal | null) {
    const project = projectOf(access);
    return (await this.present([await this.snippets.readable(project, id, viewerOf(principal), access.accessLevel)], project))[0];
  }

  @Get('projects/:id/snippets/:snippet_id/raw')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async raw(
    @CurrentProject() access: ResourceAccess,
    @Param('snippet_id') id: string,
    @CurrentPrincipal() principal: Principal | null,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const snippet = await this.snippets.readable(projectOf(access), id, viewerOf(principal), access.accessLevel);
    this.sendRaw(reply, snippet.files?.[0]?.content ?? '');
  }

  @Get('projects/:id/snippets/:snippet_id/files/:ref/:file_path/raw')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async fileRaw(
    @CurrentProject() access: ResourceAccess,
    @Param('snippet_id') id: string,
    @Param('file_path') filePath: string,
    @CurrentPrincipal() principal: Principal | null,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const snippet = await this.snippets.readable(projectOf(access), id, viewerOf(principal), access.accessLevel);
    const file = snippet.files?.find((f) => f.path === filePath);
    if (!file) throw new DomainError(ErrorCode.NOT_FOUND, '404 File Not Found', { subject: 'File' });
    this.sendRaw(reply, file.content);
  }

  @Post('projects/:id/snippets')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async create(@CurrentProject() access: ResourceAccess, @Body() dto: CreateSnippetDto, @CurrentPrincipal() principal: Principal) {
    const project = projectOf(access);
    this.snippets.checkFeature(project, viewerOf(principal), access.accessLevel);
    const snippet = await this.createSnippet.execute({ project, actor: viewerOf(principal)!, accessLevel: access.accessLevel, attributes: dto });
    return (await this.present([snippet], project))[0];
  }

  @Put('projects/:id/snippets/:snippet_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async update(
    @CurrentProject() access: ResourceAccess,
    @Param('snippet_id') id: string,
    @Body() dto: UpdateSnippetDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    const project = projectOf(access);
    const snippet = await this.snippets.readable(project, id, viewerOf(principal), access.accessLevel);
    const saved = await this.updateSnippet.execute({ project, snippet, actor: viewerOf(principal)!, accessLevel: access.accessLevel, attributes: dto });
    return (await this.present([saved], project))[0];
  }

  @Delete('projects/:id/snippets/:snippet_id')
  @LastModified((request, get) =>
    rowChangedAt(get, SnippetEntity, { id: intParam('snippet_id', request.params.snippet_id, 'Snippet'), projectId: projectOf(request.projectAccess!).id }),
  )
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async remove(@CurrentProject() access: ResourceAccess, @Param('snippet_id') id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    const project = projectOf(access);
    const snippet = await this.snippets.readable(project, id, viewerOf(principal), access.accessLevel);
    await this.deleteSnippet.execute({ project, snippet, actor: viewerOf(principal)!, accessLevel: access.accessLevel });
  }

  private sendRaw(reply: FastifyReply, content: string): void {
    void reply.status(200).header('Content-Type', 'text/plain; charset=utf-8').header('X-Content-Type-Options', 'nosniff').send(content);
  }

  private async present(rows: SnippetEntity[], project: ProjectWithNamespace): Promise<Record<string, unknown>[]> {
    return this.presenter.present(rows, await this.snippets.filesOf(rows), project);
  }
}
