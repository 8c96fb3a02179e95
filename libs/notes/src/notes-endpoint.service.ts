import { Injectable } from '@nestjs/common';
import type { Principal } from '@app/api';
import {
  applyKeysetPaginationHeaders,
  applyOffsetPaginationHeaders,
  dbIntOrNull,
  DomainError,
  intParam,
  isKeysetPaginationRequested,
  KeysetOptions,
  KeysetPagination,
  nextKeysetPosition,
  OffsetPagination,
  parseKeysetPagination,
  parseOffsetPagination,
  TOTAL_COUNT_LIMIT,
} from '@app/api';
import { AppConfig } from '@app/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CreateNoteDto, ListNotesDto } from './dto/note.dto';
import { NoteEntity } from './entities/note.entity';
import { canReadNote, readsAllInternalNotes } from './core/note-rules';
import { NotePresenter, NoteViewer } from './presenters/note.presenter';
import type { Noteable, NoteActor } from './core/noteable';
import type { ProjectWithNamespace } from '@app/namespaces';
import { NoteablesService } from './noteables/noteables.service';
import { ListedNote, NoteListOrder, NoteListViewer, NotePageRequest, NotesRepository } from './repositories/notes.repository';
import { QuickActionsRun } from './quick-actions/quick-actions.service';
import { CreateNoteUseCase } from './use-cases/create-note.use-case';
import { DeleteNoteUseCase } from './use-cases/delete-note.use-case';
import { UpdateNoteUseCase } from './use-cases/update-note.use-case';

/** Keyset pagination of note lists: by `created_at` (default) or `updated_at`, then id; newest first by default. */
export const NOTES_KEYSET: KeysetOptions = { allowedOrderBy: ['created_at', 'updated_at'], defaultOrderBy: 'created_at', defaultSort: 'desc' };
const NOTES_KEYSET_ACCESSORS = {
  id: (note: ListedNote) => note.id,
  orderValues: { created_at: (note: ListedNote) => note.createdAt, updated_at: (note: ListedNote) => note.updatedAt },
};

/**
 * The position of a keyset cursor as the notes query binds it: an id in the integer range and
 * a timestamp (both were written by `encodeKeysetCursor`; an edited cursor is a 400, not an
 * error of the database).
 */
function notesCursorPosition(pagination: KeysetPagination): { id: number; value: string } | null {
  const after = pagination.after;
  if (!after) return null;
  const id = dbIntOrNull(String(after.id));
  const value = after.value;
  if (id === null || typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw DomainError.badRequest('Invalid cursor parameter');
  }
  return { id, value };
}

const readersOf = (viewer: NoteViewer | null, accessLevel: number): NoteListViewer => ({
  readsAllInternal: readsAllInternalNotes(viewer, accessLevel),
  id: viewer?.id ?? null,
});

/** What a note list request asks for: keyset or offset pagination, the order, and the page to read. */
type NotesPageQuery = { order: NoteListOrder; page: NotePageRequest } & (
  { kind: 'keyset'; pagination: KeysetPagination } | { kind: 'offset'; pagination: OffsetPagination }
);

/** Reads the pagination parameters of a note list (400/405 as the shared helpers). */
function notesPageQuery(request: FastifyRequest, dto: ListNotesDto): NotesPageQuery {
  if (isKeysetPaginationRequested(request.query)) {
    const pagination = parseKeysetPagination(request.query, NOTES_KEYSET);
    return {
      kind: 'keyset',
      pagination,
      order: { orderBy: pagination.orderBy as NoteListOrder['orderBy'], sort: pagination.sort },
      page: { kind: 'keyset', limit: pagination.perPage, after: notesCursorPosition(pagination) },
    };
  }
  const pagination = parseOffsetPagination(request.query);
  return {
    kind: 'offset',
    pagination,
    order: { orderBy: dto.order_by ?? 'created_at', sort: dto.sort ?? 'desc' },
    // One row more than the page: whether a next page exists when the total is not counted.
    page: { kind: 'offset', limit: pagination.perPage + 1, offset: pagination.offset, countCap: TOTAL_COUNT_LIMIT },
  };
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
    private readonly config: AppConfig,
    private readonly noteables: NoteablesService,
    private readonly createNote: CreateNoteUseCase,
    private readonly updateNote: UpdateNoteUseCase,
    private readonly deleteNote: DeleteNoteUseCase,
  ) {}

  /**
   * A page of the noteable's notes, in one statement (`NotesRepository.listPage`: the page,
   * its authors and, for offset pages, the total counted up to 10,000), with the pagination
   * headers of the shared helpers: keyset with `pagination=keyset`, offset otherwise.
   */
  async list(
    noteable: Noteable,
    principal: Principal | null,
    accessLevel: number,
    dto: ListNotesDto,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const viewer = viewerOf(principal);
    const query = notesPageQuery(request, dto);
    const page = await this.notes.listPage(noteable, readersOf(viewer, accessLevel), query.order, query.page);
    return this.respond(noteable, viewer, query, page, request, reply);
  }

  /**
   * `GET /projects/:id/issues/:issue_iid/notes`: the issue and the page of its notes in one
   * statement (`NotesRepository.issueListPage`), then the same checks as the other routes (404
   * when the issues feature is closed to the caller, the issue does not exist or is a
   * confidential issue the caller may not read) before anything is shown. Pagination
   * parameters are read after the issue is found, as on the other routes: a bad one on a
   * missing issue is still a 404.
   */
  async listIssue(
    project: ProjectWithNamespace,
    iid: number,
    principal: Principal | null,
    accessLevel: number,
    dto: ListNotesDto,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const viewer = viewerOf(principal);
    if (!this.noteables.issuesReadable(project, viewer, accessLevel)) throw DomainError.notFound('Issue');
    let query: NotesPageQuery;
    try {
      query = notesPageQuery(request, dto);
    } catch (error) {
      await this.noteables.issue(project, iid, viewer, accessLevel);
      throw error;
    }
    const found = await this.notes.issueListPage(project.id, iid, readersOf(viewer, accessLevel), query.order, query.page);
    const noteable = this.noteables.readableIssue(project, found?.issue ?? null, viewer, accessLevel);
    return this.respond(noteable, viewer, query, found!, request, reply);
  }

  private respond(
    noteable: Noteable,
    viewer: NoteViewer | null,
    query: NotesPageQuery,
    page: { notes: ListedNote[]; total: number | null | undefined },
    request: FastifyRequest,
    reply: FastifyReply,
  ): Record<string, unknown>[] {
    const externalUrl = this.config.http.externalUrl;
    if (query.kind === 'keyset') {
      applyKeysetPaginationHeaders(request, reply, {
        pagination: query.pagination,
        next: nextKeysetPosition(page.notes, query.pagination, NOTES_KEYSET_ACCESSORS),
        externalUrl,
      });
      return this.presenter.listed(page.notes, noteable, viewer);
    }
    const { pagination } = query;
    const total = page.total ?? null;
    const notes = page.notes.slice(0, pagination.perPage);
    const hasNextPage = total === null ? page.notes.length > pagination.perPage : pagination.offset + pagination.perPage < total;
    applyOffsetPaginationHeaders(request, reply, { page: pagination.page, perPage: pagination.perPage, total, hasNextPage, externalUrl });
    return this.presenter.listed(notes, noteable, viewer);
  }

  /** The note, if it belongs to the noteable and the viewer may read it; 404 otherwise. */
  async find(noteable: Noteable, rawId: string, principal: Principal | null, accessLevel: number): Promise<NoteEntity> {
    const note = await this.notes.find(noteable, intParam('note_id', rawId, 'Note'));
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
