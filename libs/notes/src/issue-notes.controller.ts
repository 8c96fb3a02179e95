import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res, UseFilters } from '@nestjs/common';
import {
  CurrentPrincipal,
  CurrentProject,
  intParam,
  LastModified,
  type LastModifiedResolver,
  Principal,
  ProjectAccess,
  ResourceAccess,
  rowChangedAt,
} from '@app/api';
import { ACCESS_LEVELS, projectOf } from '@app/namespaces';
import { RepositoryErrorFilter } from '@app/repository';
import { CreateRateLimit } from '@app/settings';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NoteEntity } from './entities';
import { CreateNoteDto, ListNotesDto, UpdateNoteDto, UpdateNoteRequiredBodyDto } from './dto/note.dto';
import { NoteablesService } from './noteables/noteables.service';
import { NotesEndpoints } from './notes-endpoint.service';

const viewer = (principal: Principal | null) => (principal ? { id: principal.user.id, isAdmin: principal.user.isAdmin } : null);

/**
 * Notes of issues (`/projects/:id/issues/:issue_iid/notes`) and merge requests
 * (`/projects/:id/merge_requests/:merge_request_iid/notes`). Authentication is required, as
 * GitLab's notes API; the noteable must be readable by the caller (404 otherwise).
 */
/** When a note of the route's project last changed (`If-Unmodified-Since` on DELETE). */
export const projectNoteChangedAt: LastModifiedResolver = (request, get) =>
  rowChangedAt(get, NoteEntity, { id: intParam('note_id', request.params.note_id, 'Note'), projectId: projectOf(request.projectAccess!).id });

@Controller()
@UseFilters(RepositoryErrorFilter)
export class IssueNotesController {
  constructor(
    private readonly noteables: NoteablesService,
    private readonly endpoints: NotesEndpoints,
  ) {}

  // --- issues -------------------------------------------------------------

  @Get('projects/:id/issues/:issue_iid/notes')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async listIssue(
    @CurrentProject() access: ResourceAccess,
    @Param('issue_iid') iid: string,
    @Query() dto: ListNotesDto,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.endpoints.listIssue(projectOf(access), intParam('issue_iid', iid, 'Issue'), principal, access.accessLevel, dto, req, reply);
  }

  @Get('projects/:id/issues/:issue_iid/notes/:note_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async getIssue(
    @CurrentProject() access: ResourceAccess,
    @Param('issue_iid') iid: string,
    @Param('note_id') noteId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    const { noteable } = await this.noteables.issue(projectOf(access), intParam('issue_iid', iid, 'Issue'), viewer(principal), access.accessLevel);
    return this.endpoints.get(noteable, noteId, principal, access.accessLevel);
  }

  @Post('projects/:id/issues/:issue_iid/notes')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @CreateRateLimit('notes_create_limit')
  async createIssue(
    @CurrentProject() access: ResourceAccess,
    @Param('issue_iid') iid: string,
    @Body() dto: CreateNoteDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const project = projectOf(access);
    const target = await this.noteables.issue(project, intParam('issue_iid', iid, 'Issue'), viewer(principal), access.accessLevel);
    return this.endpoints.create(target.noteable, principal, access.accessLevel, dto, reply, { target, project });
  }

  @Put('projects/:id/issues/:issue_iid/notes/:note_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async updateIssue(
    @CurrentProject() access: ResourceAccess,
    @Param('issue_iid') iid: string,
    @Param('note_id') noteId: string,
    @Body() dto: UpdateNoteDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    const { noteable } = await this.noteables.issue(projectOf(access), intParam('issue_iid', iid, 'Issue'), viewer(principal), access.accessLevel);
    return this.endpoints.update(noteable, noteId, principal, access.accessLevel, dto.body);
  }

  @Delete('projects/:id/issues/:issue_iid/notes/:note_id')
  @LastModified(projectNoteChangedAt)
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async removeIssue(
    @CurrentProject() access: ResourceAccess,
    @Param('issue_iid') iid: string,
    @Param('note_id') noteId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    const { noteable } = await this.noteables.issue(projectOf(access), intParam('issue_iid', iid, 'Issue'), viewer(principal), access.accessLevel);
    await this.endpoints.remove(noteable, noteId, principal, access.accessLevel);
  }

  // --- merge requests -----------------------------------------------------

  @Get('projects/:id/merge_requests/:merge_request_iid/notes')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async listMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') iid: string,
    @Query() dto: ListNotesDto,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { noteable } = await this.noteables.mergeRequest(
      projectOf(access),
      intParam('merge_request_iid', iid, 'Merge Request'),
      viewer(principal),
      access.accessLevel,
    );
    return this.endpoints.list(noteable, principal, access.accessLevel, dto, req, reply);
  }

  @Get('projects/:id/merge_requests/:merge_request_iid/notes/:note_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async getMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') iid: string,
    @Param('note_id') noteId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    const { noteable } = await this.noteables.mergeRequest(
      projectOf(access),
      intParam('merge_request_iid', iid, 'Merge Request'),
      viewer(principal),
      access.accessLevel,
    );
    return this.endpoints.get(noteable, noteId, principal, access.accessLevel);
  }

  @Post('projects/:id/merge_requests/:merge_request_iid/notes')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @CreateRateLimit('notes_create_limit')
  async createMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') iid: string,
    @Body() dto: CreateNoteDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const project = projectOf(access);
    const target = await this.noteables.mergeRequest(project, intParam('merge_request_iid', iid, 'Merge Request'), viewer(principal), access.accessLevel);
    const diffHeadSha = dto.merge_request_diff_head_sha ?? dto.merge_request_diff_sha;
    return this.endpoints.create(target.noteable, principal, access.accessLevel, dto, reply, { target, project, diffHeadSha });
  }

  @Put('projects/:id/merge_requests/:merge_request_iid/notes/:note_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async updateMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') iid: string,
    @Param('note_id') noteId: string,
    @Body() dto: UpdateNoteRequiredBodyDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    const { noteable } = await this.noteables.mergeRequest(
      projectOf(access),
      intParam('merge_request_iid', iid, 'Merge Request'),
      viewer(principal),
      access.accessLevel,
    );
    return this.endpoints.update(noteable, noteId, principal, access.accessLevel, dto.body);
  }

  @Delete('projects/:id/merge_requests/:merge_request_iid/notes/:note_id')
  @LastModified(projectNoteChangedAt)
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async removeMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') iid: string,
    @Param('note_id') noteId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    const { noteable } = await this.noteables.mergeRequest(
      projectOf(access),
      intParam('merge_request_iid', iid, 'Merge Request'),
      viewer(principal),
      access.accessLevel,
    );
    await this.endpoints.remove(noteable, noteId, principal, access.accessLevel);
  }
}
