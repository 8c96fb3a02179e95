import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import {
  CurrentPrincipal,
  CurrentProject,
  DomainError,
  intParam,
  LastModified,
  type LastModifiedResolver,
  paginateOffset,
  Principal,
  ProjectAccess,
  ResourceAccess,
  rowChangedAt,
} from '@app/api';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, projectOf } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AwardEmojiDto } from './dto/note.dto';
import { AwardEmojiEntity } from './entities/award-emoji.entity';
import { NotePresenter } from './presenters/note.presenter';
import type { Noteable } from './core/noteable';
import { NoteablesService } from './noteables/noteables.service';
import { NotesEndpoints } from './notes-endpoint.service';
import { NotesRepository } from './repositories/notes.repository';
import { Awardable, AwardEmojiUseCase } from './use-cases/award-emoji.use-case';
import { RemoveAwardEmojiUseCase } from './use-cases/remove-award-emoji.use-case';

type Kind = 'issues' | 'merge_requests' | 'snippets';

const ID_PARAM: Record<Kind, string> = { issues: 'issue_iid', merge_requests: 'merge_request_iid', snippets: 'snippet_id' };

/** `:award_id`: 400 unless an integer, as Grape. */
const awardIdOf = (raw: string): number => intParam('award_id', raw, 'Award Emoji');

/** When the award a DELETE names last changed (`If-Unmodified-Since`); the route finds it again and answers 404 when it is not the awardable's. */
const awardChangedAt: LastModifiedResolver = (request, get) => rowChangedAt(get, AwardEmojiEntity, { id: awardIdOf(request.params.award_id) });

/**
 * GitLab's award emoji API on issues, merge requests and project snippets, and on their notes:
 * `GET/POST …/award_emoji`, `GET/DELETE …/award_emoji/:award_id`, under
 * `/projects/:id/{issues/:issue_iid,merge_requests/:merge_request_iid,snippets/:snippet_id}` and
 * the same with `/notes/:note_id`. Reading needs what reading the awardable needs (404 `Award
 * Emoji` otherwise; anonymous on public projects); awarding needs a signed-in reader; an award
 * is removed by its user or an administrator (401 otherwise, as GitLab).
 */
@Controller()
export class AwardEmojiController {
  constructor(
    private readonly config: AppConfig,
    private readonly noteables: NoteablesService,
    private readonly endpoints: NotesEndpoints,
    private readonly notes: NotesRepository,
    private readonly presenter: NotePresenter,
    private readonly awardEmoji: AwardEmojiUseCase,
    private readonly removeAwardEmoji: RemoveAwardEmojiUseCase,
  ) {}

  // One handler per route (each DELETE route is declared on its own for `If-Unmodified-Since`).
  @Get('projects/:id/issues/:issue_iid/award_emoji')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async listIssue(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @CurrentPrincipal() principal: Principal | null,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.listOf(await this.awardable(access, req, principal, false), req, reply);
  }

  @Get('projects/:id/issues/:issue_iid/award_emoji/:award_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async getIssue(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Param('award_id') awardId: string,
    @CurrentPrincipal() principal: Principal | null,
  ) {
    return this.presenter.award(await this.find(await this.awardable(access, req, principal, false), awardId));
  }

  @Post('projects/:id/issues/:issue_iid/award_emoji')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async createIssue(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Body() dto: AwardEmojiDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.award(await this.awardable(access, req, principal, false), dto.name, principal);
  }

  @Delete('projects/:id/issues/:issue_iid/award_emoji/:award_id')
  @LastModified(awardChangedAt)
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async removeIssue(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Param('award_id') awardId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.removeFrom(await this.awardable(access, req, principal, false), awardId, principal);
  }

  @Get('projects/:id/issues/:issue_iid/notes/:note_id/award_emoji')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async listIssueNote(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @CurrentPrincipal() principal: Principal | null,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.listOf(await this.awardable(access, req, principal, true), req, reply);
  }

  @Get('projects/:id/issues/:issue_iid/notes/:note_id/award_emoji/:award_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async getIssueNote(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Param('award_id') awardId: string,
    @CurrentPrincipal() principal: Principal | null,
  ) {
    return this.presenter.award(await this.find(await this.awardable(access, req, principal, true), awardId));
  }

  @Post('projects/:id/issues/:issue_iid/notes/:note_id/award_emoji')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async createIssueNote(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Body() dto: AwardEmojiDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.award(await this.awardable(access, req, principal, true), dto.name, principal);
  }

  @Delete('projects/:id/issues/:issue_iid/notes/:note_id/award_emoji/:award_id')
  @LastModified(awardChangedAt)
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async removeIssueNote(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Param('award_id') awardId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.removeFrom(await this.awardable(access, req, principal, true), awardId, principal);
  }

  @Get('projects/:id/merge_requests/:merge_request_iid/award_emoji')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async listMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @CurrentPrincipal() principal: Principal | null,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.listOf(await this.awardable(access, req, principal, false), req, reply);
  }

  @Get('projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async getMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Param('award_id') awardId: string,
    @CurrentPrincipal() principal: Principal | null,
  ) {
    return this.presenter.award(await this.find(await this.awardable(access, req, principal, false), awardId));
  }

  @Post('projects/:id/merge_requests/:merge_request_iid/award_emoji')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async createMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Body() dto: AwardEmojiDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.award(await this.awardable(access, req, principal, false), dto.name, principal);
  }

  @Delete('projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id')
  @LastModified(awardChangedAt)
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async removeMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Param('award_id') awardId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.removeFrom(await this.awardable(access, req, principal, false), awardId, principal);
  }

  @Get('projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async listMergeRequestNote(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @CurrentPrincipal() principal: Principal | null,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.listOf(await this.awardable(access, req, principal, true), req, reply);
  }

  @Get('projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji/:award_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async getMergeRequestNote(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Param('award_id') awardId: string,
    @CurrentPrincipal() principal: Principal | null,
  ) {
    return this.presenter.award(await this.find(await this.awardable(access, req, principal, true), awardId));
  }

  @Post('projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async createMergeRequestNote(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Body() dto: AwardEmojiDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.award(await this.awardable(access, req, principal, true), dto.name, principal);
  }

  @Delete('projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji/:award_id')
  @LastModified(awardChangedAt)
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async removeMergeRequestNote(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Param('award_id') awardId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.removeFrom(await this.awardable(access, req, principal, true), awardId, principal);
  }

  @Get('projects/:id/snippets/:snippet_id/award_emoji')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async listSnippet(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @CurrentPrincipal() principal: Principal | null,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.listOf(await this.awardable(access, req, principal, false), req, reply);
  }

  @Get('projects/:id/snippets/:snippet_id/award_emoji/:award_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async getSnippet(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Param('award_id') awardId: string,
    @CurrentPrincipal() principal: Principal | null,
  ) {
    return this.presenter.award(await this.find(await this.awardable(access, req, principal, false), awardId));
  }

  @Post('projects/:id/snippets/:snippet_id/award_emoji')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async createSnippet(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Body() dto: AwardEmojiDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.award(await this.awardable(access, req, principal, false), dto.name, principal);
  }

  @Delete('projects/:id/snippets/:snippet_id/award_emoji/:award_id')
  @LastModified(awardChangedAt)
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async removeSnippet(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Param('award_id') awardId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.removeFrom(await this.awardable(access, req, principal, false), awardId, principal);
  }

  @Get('projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async listSnippetNote(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @CurrentPrincipal() principal: Principal | null,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.listOf(await this.awardable(access, req, principal, true), req, reply);
  }

  @Get('projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji/:award_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async getSnippetNote(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Param('award_id') awardId: string,
    @CurrentPrincipal() principal: Principal | null,
  ) {
    return this.presenter.award(await this.find(await this.awardable(access, req, principal, true), awardId));
  }

  @Post('projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async createSnippetNote(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Body() dto: AwardEmojiDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.award(await this.awardable(access, req, principal, true), dto.name, principal);
  }

  @Delete('projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji/:award_id')
  @LastModified(awardChangedAt)
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async removeSnippetNote(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Param('award_id') awardId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.removeFrom(await this.awardable(access, req, principal, true), awardId, principal);
  }

  /** The route's awardable, readable by the caller (404 otherwise, as reading the noteable or the note). */
  private async awardable(access: ResourceAccess, req: FastifyRequest, principal: Principal | null, onNote: boolean): Promise<Awardable> {
    const params = req.params as Record<string, string>;
    const kind = (Object.keys(ID_PARAM) as Kind[]).find((k) => params[ID_PARAM[k]] !== undefined)!;
    const project = projectOf(access);
    const viewer = principal ? { id: principal.user.id, isAdmin: principal.user.isAdmin } : null;
    let noteable: Noteable;
    if (kind === 'issues')
      noteable = (await this.noteables.issue(project, intParam('issue_iid', params.issue_iid, 'Issue'), viewer, access.accessLevel)).noteable;
    else if (kind === 'merge_requests')
      noteable = (
        await this.noteables.mergeRequest(project, intParam('merge_request_iid', params.merge_request_iid, 'Merge Request'), viewer, access.accessLevel)
      ).noteable;
    else noteable = await this.noteables.snippet(project, params.snippet_id, viewer && { ...viewer, external: principal!.user.external }, access.accessLevel);
    if (!onNote) return { type: noteable.type, id: noteable.id, system: false };
    const note = await this.endpoints.find(noteable, params.note_id, principal, access.accessLevel);
    return { type: 'Note', id: note.id, system: note.system };
  }

  private async listOf(awardable: Awardable, req: FastifyRequest, reply: FastifyReply): Promise<Record<string, unknown>[]> {
    return this.presenter.awards(await paginateOffset(this.notes.awardsQuery(awardable), req, reply, { externalUrl: this.config.http.externalUrl }));
  }

  private async find(awardable: Awardable, rawId: string): Promise<AwardEmojiEntity> {
    const award = await this.notes.findAward(awardable, awardIdOf(rawId));
    if (!award) throw DomainError.notFound('Award Emoji');
    return award;
  }

  private async award(awardable: Awardable, name: string, principal: Principal): Promise<Record<string, unknown>> {
    return this.presenter.award(await this.awardEmoji.execute({ awardable, name, userId: principal.user.id }));
  }

  private async removeFrom(awardable: Awardable, rawId: string, principal: Principal): Promise<void> {
    await this.removeAwardEmoji.execute({ awardable, awardId: awardIdOf(rawId), actor: { id: principal.user.id, isAdmin: principal.user.isAdmin } });
  }
}
