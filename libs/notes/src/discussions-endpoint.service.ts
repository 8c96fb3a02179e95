import { Injectable } from '@nestjs/common';
import type { Principal } from '@app/api';
import { DomainError, ErrorCode, paginateOffset } from '@app/api';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CreateDiscussionDto, UpdateDiscussionNoteDto } from './dto/note.dto';
import { NoteEntity } from './entities/note.entity';
import { readsAllInternalNotes } from './core/note-rules';
import { isResolvable, NotePresenter } from './presenters/note.presenter';
import type { Noteable } from './core/noteable';
import { NotesEndpoints, viewerOf } from './notes-endpoint.service';
import { NotesRepository } from './repositories/notes.repository';
import { QuickActionsRun } from './quick-actions/quick-actions.service';

/** A `:discussion_id`: GitLab's 40 hex characters; anything else names no discussion (404). */
const DISCUSSION_ID = /^[0-9a-f]{40}$/;

/**
 * GitLab's discussions API on a noteable the route has found and may read: threads of notes
 * (`{id, individual_note, notes}`; an individual note is a discussion of its own), started with
 * `POST …/discussions` and replied to with `POST …/discussions/:discussion_id/notes`; merge
 * request threads are resolvable (`PUT …/discussions/:discussion_id` with `resolved`, or a note's
 * `resolved`). Notes are created, edited and deleted through the notes use cases (same rules,
 * quick actions, rate limit and domain events).
 */
@Injectable()
export class DiscussionsEndpoints {
  constructor(
    private readonly config: AppConfig,
    private readonly notes: NotesRepository,
    private readonly presenter: NotePresenter,
    private readonly endpoints: NotesEndpoints,
  ) {}

  private reader(principal: Principal | null, accessLevel: number) {
    const viewer = viewerOf(principal);
    return { viewer, filter: { readsAllInternal: readsAllInternalNotes(viewer, accessLevel), id: viewer?.id ?? null } };
  }

  async list(
    noteable: Noteable,
    principal: Principal | null,
    accessLevel: number,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const { viewer, filter } = this.reader(principal, accessLevel);
    const firsts = await paginateOffset(this.notes.discussionsQuery(noteable, filter), request, reply, { externalUrl: this.config.http.externalUrl });
    const notes = await this.notes.discussionNotes(
      noteable,
      firsts.map((n) => n.discussionId),
      filter,
    );
    const presented = await this.presenter.notes(notes, noteable, viewer);
    return firsts.map((first) => ({
      id: first.discussionId,
      individual_note: first.type === null,
      notes: presented.filter((_, index) => notes[index].discussionId === first.discussionId),
    }));
  }

  /** The readable notes of one discussion of the noteable, oldest first; 404 `Discussion` when there are none. */
  async thread(noteable: Noteable, discussionId: string, principal: Principal | null, accessLevel: number): Promise<NoteEntity[]> {
    const notes = DISCUSSION_ID.test(discussionId)
      ? await this.notes.discussionNotes(noteable, [discussionId], this.reader(principal, accessLevel).filter)
      : [];
    if (notes.length === 0) throw DomainError.notFound('Discussion');
    return notes;
  }

  async get(noteable: Noteable, discussionId: string, principal: Principal | null, accessLevel: number): Promise<Record<string, unknown>> {
    return this.present(noteable, await this.thread(noteable, discussionId, principal, accessLevel), principal);
  }

  /** `POST …/discussions`: a new thread (GitLab answers with the discussion). */
  async create(
    noteable: Noteable,
    principal: Principal,
    accessLevel: number,
    dto: CreateDiscussionDto,
    reply: FastifyReply,
    quickActions?: Omit<QuickActionsRun, 'actor'>,
  ): Promise<Record<string, unknown>> {
    const created = await this.endpoints.create(noteable, principal, accessLevel, dto, reply, quickActions, { discussionId: null, internal: false });
    // A body of quick actions or one award emoji stores no note: GitLab answers as the notes API does.
    if (typeof created.id !== 'number' || created.awardable_type !== undefined) return created;
    const note = await this.notes.get(created.id);
    return this.present(noteable, [note], principal);
  }

  /** `POST …/discussions/:discussion_id/notes`: a reply (GitLab answers with the note); system notes take none (400). */
  async reply(
    noteable: Noteable,
    discussionId: string,
    principal: Principal,
    accessLevel: number,
    dto: CreateDiscussionDto,
    reply: FastifyReply,
    quickActions?: Omit<QuickActionsRun, 'actor'>,
  ): Promise<Record<string, unknown>> {
    const [first] = await this.thread(noteable, discussionId, principal, accessLevel);
    if (first.system) throw DomainError.badRequest('Discussion can not be replied to.');
    return this.endpoints.create(noteable, principal, accessLevel, { body: dto.body, created_at: dto.created_at }, reply, quickActions, {
      discussionId,
      internal: first.internal,
    });
  }

  /** A note of the discussion (404 `Note` when it is another discussion's). */
  async note(noteable: Noteable, discussionId: string, rawNoteId: string, principal: Principal | null, accessLevel: number): Promise<NoteEntity> {
    const notes = await this.thread(noteable, discussionId, principal, accessLevel);
    const note = notes.find((n) => String(n.id) === rawNoteId) ?? (await this.endpoints.find(noteable, rawNoteId, principal, accessLevel));
    if (note.discussionId !== discussionId) throw DomainError.notFound('Note');
    return note;
  }

  async getNote(
    noteable: Noteable,
    discussionId: string,
    rawNoteId: string,
    principal: Principal | null,
    accessLevel: number,
  ): Promise<Record<string, unknown>> {
    return this.presenter.note(await this.note(noteable, discussionId, rawNoteId, principal, accessLevel), noteable, viewerOf(principal));
  }

  /** `PUT …/discussions/:discussion_id/notes/:note_id`: exactly one of `body` and `resolved` (merge requests). */
  async updateNote(
    noteable: Noteable,
    discussionId: string,
    rawNoteId: string,
    principal: Principal,
    accessLevel: number,
    dto: UpdateDiscussionNoteDto,
  ): Promise<Record<string, unknown>> {
    const note = await this.note(noteable, discussionId, rawNoteId, principal, accessLevel);
    if ((dto.body === undefined) === (dto.resolved === undefined)) {
      throw new DomainError(ErrorCode.BAD_REQUEST, 'body, resolved are missing, exactly one parameter must be provided', { errorKey: true });
    }
    if (dto.resolved === undefined) return this.endpoints.update(noteable, String(note.id), principal, accessLevel, dto.body);
    if (!isResolvable(note, noteable)) throw DomainError.badRequest('Note is not resolvable');
    this.checkResolver(noteable, principal, accessLevel);
    await this.resolve([note], dto.resolved, principal.user.id);
    return this.presenter.note(await this.notes.get(note.id), noteable, viewerOf(principal));
  }

  async deleteNote(noteable: Noteable, discussionId: string, rawNoteId: string, principal: Principal, accessLevel: number): Promise<void> {
    const note = await this.note(noteable, discussionId, rawNoteId, principal, accessLevel);
    await this.endpoints.remove(noteable, String(note.id), principal, accessLevel);
  }

  /** `PUT …/discussions/:discussion_id` (merge requests): `resolved` resolves or unresolves every resolvable note of the thread. */
  async resolveDiscussion(
    noteable: Noteable,
    discussionId: string,
    principal: Principal,
    accessLevel: number,
    resolved: boolean,
  ): Promise<Record<string, unknown>> {
    const notes = await this.thread(noteable, discussionId, principal, accessLevel);
    const resolvable = notes.filter((n) => isResolvable(n, noteable));
    if (resolvable.length === 0) throw DomainError.badRequest('Discussion is not resolvable');
    this.checkResolver(noteable, principal, accessLevel);
    await this.resolve(resolvable, resolved, principal.user.id);
    return this.present(noteable, await this.thread(noteable, discussionId, principal, accessLevel), principal);
  }

  /** GitLab's `resolve_note`: Developer+ or the merge request's author (403 otherwise). */
  private checkResolver(noteable: Noteable, principal: Principal, accessLevel: number): void {
    if (!principal.user.isAdmin && accessLevel < ACCESS_LEVELS.DEVELOPER && noteable.authorId !== principal.user.id) throw DomainError.forbidden();
  }

  /** Resolves the notes not yet resolved (keeping who resolved the others and when), or unresolves them. */
  private async resolve(notes: NoteEntity[], resolved: boolean, userId: number): Promise<void> {
    const ids = notes.map((n) => n.id);
    if (resolved) await this.notes.resolve(ids, userId);
    else await this.notes.unresolve(ids);
  }

  private async present(noteable: Noteable, notes: NoteEntity[], principal: Principal | null): Promise<Record<string, unknown>> {
    return { id: notes[0].discussionId, individual_note: notes[0].type === null, notes: await this.presenter.notes(notes, noteable, viewerOf(principal)) };
  }
}
