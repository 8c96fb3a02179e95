import { Injectable } from '@nestjs/common';
import type { Principal } from '@app/api';
import { DomainError, ErrorCode, KeysetOptions, Paginator } from '@app/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CreateNoteDto, ListNotesDto } from './dto/note.dto';
import { NoteEntity } from './entities/note.entity';
import { canReadNote, readsAllInternalNotes } from './note-rules';
import { NotePresenter, NoteViewer } from './note.presenter';
import type { Noteable, NoteActor } from './noteable';
import { NotesRepository } from './notes.repository';
import { QuickActionsRun } from './quick-actions/quick-actions.service';
import { CreateNoteUseCase } from './use-cases/create-note.use-case';
import { DeleteNoteUseCase } from './use-cases/delete-note.use-case';
import { UpdateNoteUseCase } from './use-cases/update-note.use-case';

/** Keyset pagination of note lists: by `created_at` (default) or `updated_at`, then id; newest first by default. */
export const NOTES_KEYSET: KeysetOptions = { allowedOrderBy: ['created_at', 'updated_at'], defaultOrderBy: 'created_at', defaultSort: 'desc' };
const NOTES_KEYSET_COLUMNS = {
  idExpression: 'n.id',
  orderExpressions: { created_at: 'n.created_at', updated_at: 'n.updated_at' },
  id: (note: NoteEntity) => note.id,
  orderValues: { created_at: (note: NoteEntity) => note.createdAt, updated_at: (note: NoteEntity) => note.updatedAt },
};

/** A `:note_id` path parameter: 400 `note_id is invalid` unless an integer, as Grape. */
export function noteIdOf(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > 2_147_483_647) throw new DomainError(ErrorCode.BAD_REQUEST, 'note_id is invalid', { errorKey: true });
  return Number(raw);
}

export const actorOf = (principal: Principal, accessLevel: number): NoteActor => ({
  id: principal.user.id,
  username: principal.user.username,
  isAdmin: principal.user.isAdmin,
  accessLevel,
});

export const viewerOf = (principal: Principal | null): NoteViewer | null => (principal ? { id: principal.user.id, isAdmin: principal.user.isAdmin } : null);

/**
 * The five note operations on a noteable the route has found and may read; the same for every
 * family (issues, merge requests, snippets, epics), so that each controller route only finds
 * its noteable.
 */
@Injectable()
export class NotesEndpoints {
  constructor(
    private readonly notes: NotesRepository,
    private readonly presenter: NotePresenter,
    private readonly paginator: Paginator,
    private readonly createNote: CreateNoteUseCase,
    private readonly updateNote: UpdateNoteUseCase,
    private readonly deleteNote: DeleteNoteUseCase,
  ) {}

  async list(noteable: Noteable, principal: Principal | null, accessLevel: number, dto: ListNotesDto, request: FastifyRequest, reply: FastifyReply): Promise<Record<string, unknown>[]> {
    const viewer = viewerOf(principal);
    const qb = this.notes.listQuery(
      noteable,
      { readsAllInternal: readsAllInternalNotes(viewer, accessLevel), id: viewer?.id ?? null },
      { orderBy: dto.order_by ?? 'created_at', sort: dto.sort ?? 'desc' },
    );
    const rows = await this.paginator.auto(qb, request, reply, { keyset: NOTES_KEYSET, columns: NOTES_KEYSET_COLUMNS });
    return this.presenter.notes(rows, noteable, viewer);
  }

  /** The note, if it belongs to the noteable and the viewer may read it; 404 otherwise. */
  async find(noteable: Noteable, rawId: string, principal: Principal | null, accessLevel: number): Promise<NoteEntity> {
    const note = await this.notes.find(noteable, noteIdOf(rawId));
    if (!note || !canReadNote(note, viewerOf(principal), accessLevel)) throw DomainError.notFound('Note');
    return note;
  }

  async get(noteable: Noteable, rawId: string, principal: Principal | null, accessLevel: number): Promise<Record<string, unknown>> {
    return this.presenter.note(await this.find(noteable, rawId, principal, accessLevel), noteable, viewerOf(principal));
  }

  async create(
    noteable: Noteable,
    principal: Principal,
    accessLevel: number,
    dto: CreateNoteDto,
    reply: FastifyReply,
    quickActions?: Omit<QuickActionsRun, 'actor'>,
    thread?: { discussionId: string | null; internal: boolean },
  ): Promise<Record<string, unknown>> {
    const result = await this.createNote.execute({
      thread,
      noteable,
      actor: actorOf(principal, accessLevel),
      body: dto.body,
      internal: dto.internal ?? dto.confidential,
      createdAt: dto.created_at,
      quickActions,
    });
    switch (result.kind) {
      case 'award':
        return this.presenter.award(result.award);
      case 'commands':
        void reply.status(202);
        return { commands_changes: result.changes, summary: result.summary };
      case 'note':
        return this.presenter.note(result.note, noteable, viewerOf(principal), { commands_changes: result.changes });
    }
  }

  async update(noteable: Noteable, rawId: string, principal: Principal, accessLevel: number, body: string | undefined): Promise<Record<string, unknown>> {
    const note = await this.find(noteable, rawId, principal, accessLevel);
    const saved = await this.updateNote.execute({ noteable, note, actor: actorOf(principal, accessLevel), body });
    return this.presenter.note(saved, noteable, viewerOf(principal));
  }

  async remove(noteable: Noteable, rawId: string, principal: Principal, accessLevel: number): Promise<void> {
    const note = await this.find(noteable, rawId, principal, accessLevel);
    await this.deleteNote.execute({ noteable, note, actor: actorOf(principal, accessLevel) });
  }
}
