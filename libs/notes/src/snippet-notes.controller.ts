import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CurrentPrincipal, CurrentProject, LastModified, Principal, ProjectAccess, ResourceAccess } from '@app/api';
import { ACCESS_LEVELS, accessUserOf, projectOf } from '@app/namespaces';
import { CreateRateLimit } from '@app/settings';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { projectNoteChangedAt } from './issue-notes.controller';
import { CreateNoteDto, ListNotesDto, UpdateNoteRequiredBodyDto } from './dto/note.dto';
import type { Noteable } from './core/noteable';
import { NoteablesService } from './noteables/noteables.service';
import { NotesEndpoints } from './notes-endpoint.service';

/** Notes of project snippets (`/projects/:id/snippets/:snippet_id/notes`): the snippet must be readable by the caller. */
@Controller()
export class SnippetNotesController {
  constructor(
    private readonly noteables: NoteablesService,
    private readonly endpoints: NotesEndpoints,
  ) {}

  private snippet(access: ResourceAccess, rawId: string, principal: Principal): Promise<Noteable> {
    const viewer = accessUserOf(principal);
    return this.noteables.snippet(projectOf(access), rawId, viewer, access.accessLevel);
  }

  @Get('projects/:id/snippets/:snippet_id/notes')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async list(
    @CurrentProject() access: ResourceAccess,
    @Param('snippet_id') id: string,
    @Query() dto: ListNotesDto,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.endpoints.list(await this.snippet(access, id, principal), principal, access.accessLevel, dto, req, reply);
  }

  @Get('projects/:id/snippets/:snippet_id/notes/:note_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async get(
    @CurrentProject() access: ResourceAccess,
    @Param('snippet_id') id: string,
    @Param('note_id') noteId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.endpoints.get(await this.snippet(access, id, principal), noteId, principal, access.accessLevel);
  }

  @Post('projects/:id/snippets/:snippet_id/notes')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @CreateRateLimit('notes_create_limit')
  async create(
    @CurrentProject() access: ResourceAccess,
    @Param('snippet_id') id: string,
    @Body() dto: CreateNoteDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.endpoints.create(await this.snippet(access, id, principal), principal, access.accessLevel, dto, reply);
  }

  @Put('projects/:id/snippets/:snippet_id/notes/:note_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async update(
    @CurrentProject() access: ResourceAccess,
    @Param('snippet_id') id: string,
    @Param('note_id') noteId: string,
    @Body() dto: UpdateNoteRequiredBodyDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.endpoints.update(await this.snippet(access, id, principal), noteId, principal, access.accessLevel, dto.body);
  }

  @Delete('projects/:id/snippets/:snippet_id/notes/:note_id')
  @LastModified(projectNoteChangedAt)
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async remove(
    @CurrentProject() access: ResourceAccess,
    @Param('snippet_id') id: string,
    @Param('note_id') noteId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.endpoints.remove(await this.snippet(access, id, principal), noteId, principal, access.accessLevel);
  }
}
