import { Injectable } from '@nestjs/common';
import { UserEntity } from '@app/identity';
import { AwardEmojiEntity, NoteEntity, NotesRepository } from '@app/notes';
import { EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { byId, push } from './export-pages';
import { array, bool, date, iso, Row, str } from './record-fields';
import { IMPORT_BATCH, type RelationImportContext } from './transfer-relation';

export type Noteable = 'Issue' | 'MergeRequest' | 'Snippet';

/**
 * The `notes` (each with `author {name}` and its `award_emoji`) and `award_emoji` nested in
 * issues, merge requests and snippets, both ways. Not a relation file of its own: GitLab nests
 * them in their noteable's record.
 */
@Injectable()
export class NestedNotes {
  constructor(private readonly notes: NotesRepository) {}

  /** Notes (with their award emoji and the author's name, as GitLab writes them) and award emoji of one page of noteables, by noteable id. */
  async export(manager: EntityManager, type: Noteable, ids: number[]): Promise<{ notes: Map<number, unknown[]>; awards: Map<number, unknown[]> }> {
    const notes = new Map<number, unknown[]>();
    const awards = new Map<number, unknown[]>();
    if (ids.length === 0) return { notes, awards };
    const noteRows = await manager.find(NoteEntity, { where: { noteableType: type, noteableId: In(ids) }, order: { createdAt: 'ASC', id: 'ASC' } });
    const authors = await byId(
      manager,
      UserEntity,
      noteRows.map((n) => n.authorId),
    );
    const noteAwards = noteRows.length
      ? await manager.find(AwardEmojiEntity, { where: { awardableType: 'Note', awardableId: In(noteRows.map((n) => n.id)) }, order: { id: 'ASC' } })
      : [];
    const ownAwards = await manager.find(AwardEmojiEntity, { where: { awardableType: type, awardableId: In(ids) }, order: { id: 'ASC' } });
    const awardRecord = (a: AwardEmojiEntity) => ({
      name: a.name,
      user_id: a.userId,
      awardable_type: a.awardableType,
      created_at: iso(a.createdAt),
      updated_at: iso(a.updatedAt),
    });
    for (const a of ownAwards) push(awards, a.awardableId, awardRecord(a));
    for (const n of noteRows) {
      push(notes, n.noteableId, {
        id: n.id,
        note: n.body,
        noteable_type: n.noteableType,
        author_id: n.authorId,
        project_id: n.projectId,
        system: n.system,
        internal: n.internal,
        confidential: n.internal,
        created_at: iso(n.createdAt),
        updated_at: iso(n.updatedAt),
        author: { name: authors.get(n.authorId)?.name ?? null },
        award_emoji: noteAwards.filter((a) => a.awardableId === n.id).map(awardRecord),
        events: [],
      });
    }
    return { notes, awards };
  }

  /**
   * Notes and award emoji of a page of noteables (`ids[i]` is the new id of `records[i]`). A note
   * whose author is not matched is the importer's and starts with GitLab's
   * `*By <name> on <time> (imported from GitLab)*`.
   */
  async import(ctx: RelationImportContext, type: Noteable, records: Row[], ids: number[]): Promise<void> {
    const awards: QueryDeepPartialEntity<AwardEmojiEntity>[] = [];
    const notes: QueryDeepPartialEntity<NoteEntity>[] = [];
    const noteAwards: Row[][] = [];
    records.forEach((record, index) => {
      for (const award of array(record.award_emoji)) awards.push(...this.award(ctx, award, type, ids[index]));
      for (const note of array(record.notes)) {
        const body = str(note.note);
        if (body === null || body === '') continue;
        const authorId = ctx.user(note.author_id);
        const created = date(note.created_at) ?? new Date();
        const authorName = str(((note.author ?? {}) as Row).name) ?? 'Unknown';
        notes.push({
          noteableType: type,
          noteableId: ids[index],
          projectId: ctx.project.id,
          groupId: null,
          authorId: authorId ?? ctx.importer.id,
          body: authorId === null ? `*By ${authorName} on ${created.toISOString()} (imported from GitLab)*\n\n${body}` : body,
          system: bool(note.system),
          internal: bool(note.internal, bool(note.confidential)),
          systemNoteAction: null,
          createdAt: created,
          updatedAt: date(note.updated_at) ?? created,
        });
        noteAwards.push(array(note.award_emoji));
      }
    });
    if (notes.length) {
      for (let i = 0; i < notes.length; i += IMPORT_BATCH) {
        const inserted = await this.notes.insertImported(ctx.tx, notes.slice(i, i + IMPORT_BATCH));
        inserted.forEach((id, j) => {
          for (const award of noteAwards[i + j]) awards.push(...this.award(ctx, award, 'Note', id));
        });
      }
      ctx.count('notes', notes.length);
    }
    if (awards.length) {
      for (let i = 0; i < awards.length; i += IMPORT_BATCH) await this.notes.insertImportedAwards(ctx.tx, awards.slice(i, i + IMPORT_BATCH));
      ctx.count('award_emoji', awards.length);
    }
  }

  private award(ctx: RelationImportContext, record: Row, awardableType: string, awardableId: number): QueryDeepPartialEntity<AwardEmojiEntity>[] {
    const name = str(record.name, 255);
    if (!name) return [];
    const created = date(record.created_at) ?? new Date();
    return [{ name, userId: ctx.author(record.user_id), awardableType, awardableId, createdAt: created, updatedAt: date(record.updated_at) ?? created }];
  }
}
