import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { Auth, CurrentGroup, CurrentPrincipal, GroupAccess, intParam, LastModified, Principal, ResourceAccess, rowChangedAt } from '@app/api';
import { ACCESS_LEVELS, groupOf } from '@app/namespaces';
import { CreateRateLimit } from '@app/settings';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NoteEntity } from './entities';
import { CreateNoteDto, ListNotesDto, UpdateNoteRequiredBodyDto } from './dto/note.dto';
import type { Noteable } from './core/noteable';
import { NoteablesService } from './noteables/noteables.service';
import { NotesEndpoints } from './notes-endpoint.service';
import type { EpicNoteable } from './noteables/noteables.service';

/**
 * Notes of epics (ULTIMATE): `/groups/:id/epics/:epic_id/notes`, the epic addressed by its
 * `id`, not its `iid` (an iid is looked up as an id of this group's epics: 404 or that epic).
 */
@Controller()
@Auth({ tier: 'ultimate' })
export class EpicNotesController {
  constructor(
    private readonly noteables: NoteablesService,
    private readonly endpoints: NotesEndpoints,
  ) {}

  private async epic(access: ResourceAccess, rawId: string, principal: Principal): Promise<Noteable> {
    return (await this.target(access, rawId, principal)).noteable;
  }

  private target(access: ResourceAccess, rawId: string, principal: Principal): Promise<EpicNoteable> {
    return this.noteables.epic(groupOf(access), rawId, { id: principal.user.id, isAdmin: principal.user.isAdmin }, access.accessLevel);
  }

  @Get('groups/:id/epics/:epic_id/notes')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS)
  async list(
    @CurrentGroup() access: ResourceAccess,
    @Param('epic_id') id: string,
    @Query() dto: ListNotesDto,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.endpoints.list(await this.epic(access, id, principal), principal, access.accessLevel, dto, req, reply);
  }

  @Get('groups/:id/epics/:epic_id/notes/:note_id')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS)
  async get(@CurrentGroup() access: ResourceAccess, @Param('epic_id') id: string, @Param('note_id') noteId: string, @CurrentPrincipal() principal: Principal) {
    return this.endpoints.get(await this.epic(access, id, principal), noteId, principal, access.accessLevel);
  }

  @Post('groups/:id/epics/:epic_id/notes')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS)
  @CreateRateLimit('notes_create_limit')
  async create(
    @CurrentGroup() access: ResourceAccess,
    @Param('epic_id') id: string,
    @Body() dto: CreateNoteDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const target = await this.target(access, id, principal);
    return this.endpoints.create(target.noteable, principal, access.accessLevel, dto, reply, { target, project: null });
  }

  @Put('groups/:id/epics/:epic_id/notes/:note_id')
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS)
  async update(
    @CurrentGroup() access: ResourceAccess,
    @Param('epic_id') id: string,
    @Param('note_id') noteId: string,
    @Body() dto: UpdateNoteRequiredBodyDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.endpoints.update(await this.epic(access, id, principal), noteId, principal, access.accessLevel, dto.body);
  }

  @Delete('groups/:id/epics/:epic_id/notes/:note_id')
  @LastModified((request, get) =>
    rowChangedAt(get, NoteEntity, { id: intParam('note_id', request.params.note_id, 'Note'), groupId: groupOf(request.groupAccess!).id }),
  )
  @GroupAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async remove(
    @CurrentGroup() access: ResourceAccess,
    @Param('epic_id') id: string,
    @Param('note_id') noteId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.endpoints.remove(await this.epic(access, id, principal), noteId, principal, access.accessLevel);
  }
}
