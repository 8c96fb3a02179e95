import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import { Auth, CurrentGroup, CurrentPrincipal, GroupAccess, intParam, LastModified, Principal, ResourceAccess, rowChangedAt } from '@app/api';
import { ACCESS_LEVELS, groupOf } from '@app/namespaces';
import { CreateRateLimit } from '@app/settings';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DiscussionsEndpoints } from './discussions-endpoint.service';
import { CreateDiscussionDto, UpdateDiscussionNoteDto } from './dto/note.dto';
import { NoteEntity } from './entities/note.entity';
import { NoteablesService } from './noteables/noteables.service';
import type { EpicNoteable } from './noteables/noteables.service';

/** Discussions of epics (ULTIMATE): `/groups/:id/epics/:epic_id/discussions`, the epic addressed by its `id` as its notes. */
@Controller()
@Auth({ tier: 'ultimate' })
export class EpicDiscussionsController {
  constructor(
    private readonly noteables: NoteablesService,
    private readonly discussions: DiscussionsEndpoints,
  ) {}

  private target(access: ResourceAccess, rawId: string, principal: Principal): Promise<EpicNoteable> {
    return this.noteables.epic(groupOf(access), rawId, { id: principal.user.id, isAdmin: principal.user.isAdmin }, access.accessLevel);
  }

  @Get('groups/:id/epics/:epic_id/discussions')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS)
  async list(
    @CurrentGroup() access: ResourceAccess,
    @Param('epic_id') id: string,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.discussions.list((await this.target(access, id, principal)).noteable, principal, access.accessLevel, req, reply);
  }

  @Get('groups/:id/epics/:epic_id/discussions/:discussion_id')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS)
  async get(
    @CurrentGroup() access: ResourceAccess,
    @Param('epic_id') id: string,
    @Param('discussion_id') discussionId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.discussions.get((await this.target(access, id, principal)).noteable, discussionId, principal, access.accessLevel);
  }

  @Post('groups/:id/epics/:epic_id/discussions')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS)
  @CreateRateLimit('notes_create_limit')
  async create(
    @CurrentGroup() access: ResourceAccess,
    @Param('epic_id') id: string,
    @Body() dto: CreateDiscussionDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const target = await this.target(access, id, principal);
    return this.discussions.create(target.noteable, principal, access.accessLevel, dto, reply, { target, project: null });
  }

  @Post('groups/:id/epics/:epic_id/discussions/:discussion_id/notes')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS)
  @CreateRateLimit('notes_create_limit')
  async reply(
    @CurrentGroup() access: ResourceAccess,
    @Param('epic_id') id: string,
    @Param('discussion_id') discussionId: string,
    @Body() dto: CreateDiscussionDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const target = await this.target(access, id, principal);
    return this.discussions.reply(target.noteable, discussionId, principal, access.accessLevel, dto, reply, { target, project: null });
  }

  @Get('groups/:id/epics/:epic_id/discussions/:discussion_id/notes/:note_id')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS)
  async getNote(
    @CurrentGroup() access: ResourceAccess,
    @Param('epic_id') id: string,
    @Param('discussion_id') discussionId: string,
    @Param('note_id') noteId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.discussions.getNote((await this.target(access, id, principal)).noteable, discussionId, noteId, principal, access.accessLevel);
  }

  @Put('groups/:id/epics/:epic_id/discussions/:discussion_id/notes/:note_id')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS)
  async updateNote(
    @CurrentGroup() access: ResourceAccess,
    @Param('epic_id') id: string,
    @Param('discussion_id') discussionId: string,
    @Param('note_id') noteId: string,
    @Body() dto: UpdateDiscussionNoteDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.discussions.updateNote((await this.target(access, id, principal)).noteable, discussionId, noteId, principal, access.accessLevel, dto);
  }

  @Delete('groups/:id/epics/:epic_id/discussions/:discussion_id/notes/:note_id')
  @LastModified((request, get) =>
    rowChangedAt(get, NoteEntity, { id: intParam('note_id', request.params.note_id, 'Note'), groupId: groupOf(request.groupAccess!).id }),
  )
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async deleteNote(
    @CurrentGroup() access: ResourceAccess,
    @Param('epic_id') id: string,
    @Param('discussion_id') discussionId: string,
    @Param('note_id') noteId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.discussions.deleteNote((await this.target(access, id, principal)).noteable, discussionId, noteId, principal, access.accessLevel);
  }
}
