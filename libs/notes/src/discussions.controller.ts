import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res, UseFilters } from '@nestjs/common';
import { CurrentPrincipal, CurrentProject, intParam, LastModified, Principal, ProjectAccess, ResourceAccess } from '@app/api';
import { ACCESS_LEVELS, projectOf } from '@app/namespaces';
import { RepositoryErrorFilter } from '@app/repository';
import { CreateRateLimit } from '@app/settings';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DiscussionsEndpoints } from './discussions-endpoint.service';
import { CreateDiscussionDto, ResolveDiscussionDto, UpdateDiscussionNoteDto } from './dto/note.dto';
import { projectNoteChangedAt } from './issue-notes.controller';
import type { Noteable } from './core/noteable';
import { NoteablesService } from './noteables/noteables.service';
import type { QuickActionsRun } from './quick-actions/quick-actions.service';

/**
 * Discussions (threads) of issues, merge requests and project snippets, as GitLab's
 * discussions API: `/projects/:id/{issues/:issue_iid | merge_requests/:merge_request_iid |
 * snippets/:snippet_id}/discussions`, authentication required as for notes. Merge request
 * threads are resolved with `PUT …/discussions/:discussion_id`.
 */
@Controller()
@UseFilters(RepositoryErrorFilter)
export class DiscussionsController {
  constructor(
    private readonly noteables: NoteablesService,
    private readonly discussions: DiscussionsEndpoints,
  ) {}

  /** The route's noteable (404 unless readable), and for issues and merge requests what their quick actions run on. */
  private async target(
    kind: 'issue' | 'merge_request' | 'snippet',
    access: ResourceAccess,
    raw: string,
    principal: Principal,
    dto?: CreateDiscussionDto,
  ): Promise<{ noteable: Noteable; quickActions?: Omit<QuickActionsRun, 'actor'> }> {
    const project = projectOf(access);
    const viewer = { id: principal.user.id, isAdmin: principal.user.isAdmin };
    if (kind === 'snippet')
      return { noteable: await this.noteables.snippet(project, raw, { ...viewer, external: principal.user.external }, access.accessLevel) };
    const target =
      kind === 'issue'
        ? await this.noteables.issue(project, intParam('issue_iid', raw, 'Issue'), viewer, access.accessLevel)
        : await this.noteables.mergeRequest(project, intParam('merge_request_iid', raw, 'Merge Request'), viewer, access.accessLevel);
    return { noteable: target.noteable, quickActions: { target, project, diffHeadSha: dto?.merge_request_diff_head_sha } };
  }

  // --- Issue ---

  @Get('projects/:id/issues/:issue_iid/discussions')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async listIssue(
    @CurrentProject() access: ResourceAccess,
    @Param('issue_iid') raw: string,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.discussions.list((await this.target('issue', access, raw, principal)).noteable, principal, access.accessLevel, req, reply);
  }

  @Get('projects/:id/issues/:issue_iid/discussions/:discussion_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async getIssue(
    @CurrentProject() access: ResourceAccess,
    @Param('issue_iid') raw: string,
    @Param('discussion_id') discussionId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.discussions.get((await this.target('issue', access, raw, principal)).noteable, discussionId, principal, access.accessLevel);
  }

  @Post('projects/:id/issues/:issue_iid/discussions')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @CreateRateLimit('notes_create_limit')
  async createIssue(
    @CurrentProject() access: ResourceAccess,
    @Param('issue_iid') raw: string,
    @Body() dto: CreateDiscussionDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { noteable, quickActions } = await this.target('issue', access, raw, principal, dto);
    return this.discussions.create(noteable, principal, access.accessLevel, dto, reply, quickActions);
  }

  @Post('projects/:id/issues/:issue_iid/discussions/:discussion_id/notes')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @CreateRateLimit('notes_create_limit')
  async replyIssue(
    @CurrentProject() access: ResourceAccess,
    @Param('issue_iid') raw: string,
    @Param('discussion_id') discussionId: string,
    @Body() dto: CreateDiscussionDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { noteable, quickActions } = await this.target('issue', access, raw, principal, dto);
    return this.discussions.reply(noteable, discussionId, principal, access.accessLevel, dto, reply, quickActions);
  }

  @Get('projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async getNoteIssue(
    @CurrentProject() access: ResourceAccess,
    @Param('issue_iid') raw: string,
    @Param('discussion_id') discussionId: string,
    @Param('note_id') noteId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.discussions.getNote((await this.target('issue', access, raw, principal)).noteable, discussionId, noteId, principal, access.accessLevel);
  }

  @Put('projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async updateNoteIssue(
    @CurrentProject() access: ResourceAccess,
    @Param('issue_iid') raw: string,
    @Param('discussion_id') discussionId: string,
    @Param('note_id') noteId: string,
    @Body() dto: UpdateDiscussionNoteDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.discussions.updateNote((await this.target('issue', access, raw, principal)).noteable, discussionId, noteId, principal, access.accessLevel, dto);
  }

  @Delete('projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id')
  @LastModified(projectNoteChangedAt)
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async deleteNoteIssue(
    @CurrentProject() access: ResourceAccess,
    @Param('issue_iid') raw: string,
    @Param('discussion_id') discussionId: string,
    @Param('note_id') noteId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.discussions.deleteNote((await this.target('issue', access, raw, principal)).noteable, discussionId, noteId, principal, access.accessLevel);
  }
  // --- MergeRequest ---

  @Get('projects/:id/merge_requests/:merge_request_iid/discussions')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async listMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') raw: string,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.discussions.list((await this.target('merge_request', access, raw, principal)).noteable, principal, access.accessLevel, req, reply);
  }

  @Get('projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async getMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') raw: string,
    @Param('discussion_id') discussionId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.discussions.get((await this.target('merge_request', access, raw, principal)).noteable, discussionId, principal, access.accessLevel);
  }

  @Post('projects/:id/merge_requests/:merge_request_iid/discussions')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @CreateRateLimit('notes_create_limit')
  async createMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') raw: string,
    @Body() dto: CreateDiscussionDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { noteable, quickActions } = await this.target('merge_request', access, raw, principal, dto);
    return this.discussions.create(noteable, principal, access.accessLevel, dto, reply, quickActions);
  }

  @Post('projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @CreateRateLimit('notes_create_limit')
  async replyMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') raw: string,
    @Param('discussion_id') discussionId: string,
    @Body() dto: CreateDiscussionDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { noteable, quickActions } = await this.target('merge_request', access, raw, principal, dto);
    return this.discussions.reply(noteable, discussionId, principal, access.accessLevel, dto, reply, quickActions);
  }

  @Get('projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes/:note_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async getNoteMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') raw: string,
    @Param('discussion_id') discussionId: string,
    @Param('note_id') noteId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.discussions.getNote((await this.target('merge_request', access, raw, principal)).noteable, discussionId, noteId, principal, access.accessLevel);
  }

  @Put('projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes/:note_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async updateNoteMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') raw: string,
    @Param('discussion_id') discussionId: string,
    @Param('note_id') noteId: string,
    @Body() dto: UpdateDiscussionNoteDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.discussions.updateNote(
      (await this.target('merge_request', access, raw, principal)).noteable,
      discussionId,
      noteId,
      principal,
      access.accessLevel,
      dto,
    );
  }

  @Delete('projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes/:note_id')
  @LastModified(projectNoteChangedAt)
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async deleteNoteMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') raw: string,
    @Param('discussion_id') discussionId: string,
    @Param('note_id') noteId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.discussions.deleteNote(
      (await this.target('merge_request', access, raw, principal)).noteable,
      discussionId,
      noteId,
      principal,
      access.accessLevel,
    );
  }
  // --- Snippet ---

  @Get('projects/:id/snippets/:snippet_id/discussions')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async listSnippet(
    @CurrentProject() access: ResourceAccess,
    @Param('snippet_id') raw: string,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.discussions.list((await this.target('snippet', access, raw, principal)).noteable, principal, access.accessLevel, req, reply);
  }

  @Get('projects/:id/snippets/:snippet_id/discussions/:discussion_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async getSnippet(
    @CurrentProject() access: ResourceAccess,
    @Param('snippet_id') raw: string,
    @Param('discussion_id') discussionId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.discussions.get((await this.target('snippet', access, raw, principal)).noteable, discussionId, principal, access.accessLevel);
  }

  @Post('projects/:id/snippets/:snippet_id/discussions')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @CreateRateLimit('notes_create_limit')
  async createSnippet(
    @CurrentProject() access: ResourceAccess,
    @Param('snippet_id') raw: string,
    @Body() dto: CreateDiscussionDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { noteable, quickActions } = await this.target('snippet', access, raw, principal, dto);
    return this.discussions.create(noteable, principal, access.accessLevel, dto, reply, quickActions);
  }

  @Post('projects/:id/snippets/:snippet_id/discussions/:discussion_id/notes')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @CreateRateLimit('notes_create_limit')
  async replySnippet(
    @CurrentProject() access: ResourceAccess,
    @Param('snippet_id') raw: string,
    @Param('discussion_id') discussionId: string,
    @Body() dto: CreateDiscussionDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { noteable, quickActions } = await this.target('snippet', access, raw, principal, dto);
    return this.discussions.reply(noteable, discussionId, principal, access.accessLevel, dto, reply, quickActions);
  }

  @Get('projects/:id/snippets/:snippet_id/discussions/:discussion_id/notes/:note_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async getNoteSnippet(
    @CurrentProject() access: ResourceAccess,
    @Param('snippet_id') raw: string,
    @Param('discussion_id') discussionId: string,
    @Param('note_id') noteId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.discussions.getNote((await this.target('snippet', access, raw, principal)).noteable, discussionId, noteId, principal, access.accessLevel);
  }

  @Put('projects/:id/snippets/:snippet_id/discussions/:discussion_id/notes/:note_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async updateNoteSnippet(
    @CurrentProject() access: ResourceAccess,
    @Param('snippet_id') raw: string,
    @Param('discussion_id') discussionId: string,
    @Param('note_id') noteId: string,
    @Body() dto: UpdateDiscussionNoteDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.discussions.updateNote(
      (await this.target('snippet', access, raw, principal)).noteable,
      discussionId,
      noteId,
      principal,
      access.accessLevel,
      dto,
    );
  }

  @Delete('projects/:id/snippets/:snippet_id/discussions/:discussion_id/notes/:note_id')
  @LastModified(projectNoteChangedAt)
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async deleteNoteSnippet(
    @CurrentProject() access: ResourceAccess,
    @Param('snippet_id') raw: string,
    @Param('discussion_id') discussionId: string,
    @Param('note_id') noteId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.discussions.deleteNote((await this.target('snippet', access, raw, principal)).noteable, discussionId, noteId, principal, access.accessLevel);
  }
  @Put('projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async resolveMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') raw: string,
    @Param('discussion_id') discussionId: string,
    @Body() dto: ResolveDiscussionDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.discussions.resolveDiscussion(
      (await this.target('merge_request', access, raw, principal)).noteable,
      discussionId,
      principal,
      access.accessLevel,
      dto.resolved,
    );
  }
}
