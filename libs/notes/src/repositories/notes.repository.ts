import { Injectable } from '@nestjs/common';
import type { Pool, QueryConfig } from 'pg';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { AwardEmojiEntity } from '../entities/award-emoji.entity';
import { NoteEntity } from '../entities/note.entity';
import type { Noteable } from '../core/noteable';

/** A note of a list page as `listPage` reads it: the columns the note shows, its author's and its resolver's. */
export interface ListedNote {
  id: number;
  type: 'DiscussionNote' | null;
  body: string;
  authorId: number;
  system: boolean;
  internal: boolean;
  resolvedAt: Date | null;
  resolvedById: number | null;
  createdAt: Date;
  updatedAt: Date;
  author: ListedUser | null;
  resolvedBy: ListedUser | null;
}

/** The user columns a note's `author` (and `resolved_by`) shows. */
export interface ListedUser {
  id: number;
  username: string;
  name: string;
  state: string;
  email: string;
  createdAt: Date;
}

/** Which page of a note list: rows after a keyset position, or an offset page counted up to `countCap`. */
export type NotePageRequest =
  | { kind: 'keyset'; limit: number; after: { value: string | number | null | undefined; id: string | number } | null }
  | { kind: 'offset'; limit: number; offset: number; countCap: number };

interface ListedRow {
  i_id?: number;
  i_iid?: number;
  i_title?: string;
  i_author_id?: number;
  i_confidential?: boolean;
  i_assignee_ids?: number[] | null;
  id: number | null;
  type: 'DiscussionNote' | null;
  body: string;
  author_id: number;
  system: boolean;
  internal: boolean;
  resolved_at: Date | null;
  resolved_by_id: number | null;
  created_at: Date;
  updated_at: Date;
  a_id: number | null;
  a_username: string;
  a_name: string;
  a_state: string;
  a_email: string;
  a_created_at: Date;
  r_id: number | null;
  r_username: string;
  r_name: string;
  r_state: string;
  r_email: string;
  r_created_at: Date;
  total?: number | null;
}

export type NoteListViewer = { readsAllInternal: boolean; id: number | null };
export type NoteListOrder = { orderBy: 'created_at' | 'updated_at'; sort: 'asc' | 'desc' };

/** The issue columns the read check and the notes of an issue need. */
export interface ListedIssue {
  id: number;
  iid: number;
  title: string;
  authorId: number;
  confidential: boolean;
  assigneeIds: number[];
}

const listedNoteOf = (row: ListedRow): ListedNote => ({
  id: row.id!,
  type: row.type,
  body: row.body,
  authorId: row.author_id,
  system: row.system,
  internal: row.internal,
  resolvedAt: row.resolved_at,
  resolvedById: row.resolved_by_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  author: userOf(row, 'a'),
  resolvedBy: row.resolved_by_id === null ? null : userOf(row, 'r'),
});

const userOf = (row: ListedRow, prefix: 'a' | 'r'): ListedUser | null =>
  row[`${prefix}_id`] === null
    ? null
    : {
        id: row[`${prefix}_id`]!,
        username: row[`${prefix}_username`],
        name: row[`${prefix}_name`],
        state: row[`${prefix}_state`],
        email: row[`${prefix}_email`],
        createdAt: row[`${prefix}_created_at`],
      };

@Injectable()
export class NotesRepository {
  /** Names of the prepared statements of `listPage`, by text (a handful: one per order, direction, filter and page kind). */
  private readonly statementNames = new Map<string, string>();

  constructor(private readonly dataSource: DataSource) {}

  /**
   * One page of a noteable's notes the viewer may read (as `listQuery` selects them), with
   * their authors and resolvers, in ONE statement: the page is picked from the
   * `(noteable_type, noteable_id, created_at|updated_at, id)` index first and only its rows
   * are joined to `users` (a deep offset never joins the rows it skips); an offset page also
   * counts the list up to `countCap` + 1 rows in the same statement (`total`, null above the
   * cap), so that no page costs a second round trip. Named prepared statements: each pooled
   * connection parses and plans each variant once.
   */
  async listPage(
    noteable: Noteable,
    viewer: NoteListViewer,
    order: NoteListOrder,
    page: NotePageRequest,
  ): Promise<{ notes: ListedNote[]; total: number | null | undefined }> {
    const values: unknown[] = [noteable.type, noteable.id];
    const { text, count } = this.pageStatement(values, viewer, order, page, '$2');
    const rows = await this.run(count ? text.replace(' FROM (SELECT n.id,', `, ${count('$2')} AS total FROM (SELECT n.id,`) : text, values);
    return { notes: rows.map(listedNoteOf), total: await this.totalOf(rows[0]?.total, page, noteable.type, noteable.id, viewer) };
  }

  /**
   * The issue `iid` of a project and a page of its notes, in ONE statement (the issue's
   * columns that the read check and the notes need, then `listPage`'s page): null when the
   * project has no such issue. The caller checks that the viewer may read the issue before
   * showing anything.
   */
  async issueListPage(
    projectId: number,
    iid: number,
    viewer: NoteListViewer,
    order: NoteListOrder,
    page: NotePageRequest,
  ): Promise<{ issue: ListedIssue; notes: ListedNote[]; total: number | null | undefined } | null> {
    const values: unknown[] = ['Issue', projectId, iid];
    const { text: pageText, count } = this.pageStatement(values, viewer, order, page, 'i.id');
    // The count runs once, in the issue's row (in the lateral page it would run once per note).
    const text =
      `WITH i AS MATERIALIZED (SELECT s.id, s.iid, s.title, s.author_id, s.confidential, s.assignee_ids${count ? `, ${count('s.id')} AS total` : ''} FROM issues s WHERE s.project_id = $2 AND s.iid = $3) ` +
      `SELECT i.id AS i_id, i.iid AS i_iid, i.title AS i_title, i.author_id AS i_author_id, i.confidential AS i_confidential, i.assignee_ids AS i_assignee_ids${count ? ', i.total' : ''}, page.* ` +
      `FROM i LEFT JOIN LATERAL (${pageText}) page ON true`;
    const rows = await this.run(text, values);
    if (rows.length === 0) return null;
    const first = rows[0];
    const issue: ListedIssue = {
      id: first.i_id!,
      iid: first.i_iid!,
      title: first.i_title!,
      authorId: first.i_author_id!,
      confidential: first.i_confidential!,
      assigneeIds: first.i_assignee_ids ?? [],
    };
    // An empty page is one row of the issue with null note columns.
    const notes = rows.filter((row) => row.id !== null).map(listedNoteOf);
    return { issue, notes, total: await this.totalOf(first.total, page, 'Issue', issue.id, viewer) };
  }

  /**
   * The page statement of `listPage` over the noteable `noteableId` (a parameter or a column
   * of an outer query), its parameters appended to `values` ($1 is the noteable type); for an
   * offset page also `count`, the capped count of the list as an expression over a noteable id.
   */
  private pageStatement(
    values: unknown[],
    viewer: NoteListViewer,
    order: NoteListOrder,
    page: NotePageRequest,
    noteableId: string,
  ): { text: string; count: ((noteableIdExpression: string) => string) | null } {
    const visible = this.visibility(values, viewer);
    const filterOf = (id: string) => `n.noteable_type = $1 AND n.noteable_id = ${id}${visible}`;
    const column = order.orderBy === 'updated_at' ? 'updated_at' : 'created_at';
    const direction = order.sort === 'asc' ? 'ASC' : 'DESC';
    let where = filterOf(noteableId);
    if (page.kind === 'keyset' && page.after) {
      values.push(page.after.value, page.after.id);
      where += ` AND (n.${column}, n.id) ${order.sort === 'asc' ? '>' : '<'} ($${values.length - 1}::timestamptz, $${values.length}::int)`;
    }
    values.push(page.limit);
    let window = `LIMIT $${values.length}`;
    let count: ((id: string) => string) | null = null;
    if (page.kind === 'offset') {
      values.push(page.offset);
      window += ` OFFSET $${values.length}`;
      values.push(page.countCap + 1);
      const cap = `$${values.length}`;
      count = (id) => `(SELECT count(*)::int FROM (SELECT 1 FROM notes n WHERE ${filterOf(id)} LIMIT ${cap}) capped)`;
    }
    const text =
      `SELECT n.*, a.id AS a_id, a.username AS a_username, a.name AS a_name, a.state AS a_state, a.email AS a_email, a.created_at AS a_created_at, ` +
      `r.id AS r_id, r.username AS r_username, r.name AS r_name, r.state AS r_state, r.email AS r_email, r.created_at AS r_created_at ` +
      `FROM (SELECT n.id, n.type, n.body, n.author_id, n.system, n.internal, n.resolved_at, n.resolved_by_id, n.created_at, n.updated_at FROM notes n ` +
      `WHERE ${where} ORDER BY n.${column} ${direction}, n.id ${direction} ${window}) n ` +
      `LEFT JOIN users a ON a.id = n.author_id LEFT JOIN users r ON r.id = n.resolved_by_id ` +
      `ORDER BY n.${column} ${direction}, n.id ${direction}`;
    return { text, count };
  }

  /** The condition on internal notes for this viewer, its parameter appended to `values`. */
  private visibility(values: unknown[], viewer: NoteListViewer): string {
    if (viewer.readsAllInternal) return '';
    if (viewer.id === null) return ' AND n.internal = false';
    values.push(viewer.id);
    return ` AND (n.internal = false OR n.author_id = $${values.length})`;
  }

  private async run(text: string, values: unknown[]): Promise<ListedRow[]> {
    let name = this.statementNames.get(text);
    if (!name) {
      name = `notes_list_${this.statementNames.size + 1}`;
      this.statementNames.set(text, name);
    }
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    return (await pool.query<ListedRow>({ name, text, values } as QueryConfig)).rows;
  }

  /** The total of an offset page: as its statement counted it, or counted apart for an empty page past the end; undefined for keyset pages. */
  private async totalOf(
    counted: number | null | undefined,
    page: NotePageRequest,
    type: string,
    id: number,
    viewer: NoteListViewer,
  ): Promise<number | null | undefined> {
    if (page.kind === 'keyset') return undefined;
    if (counted !== undefined && counted !== null) return counted > page.countCap ? null : counted;
    if (page.offset === 0) return 0;
    const values: unknown[] = [type, id];
    const filter = `n.noteable_type = $1 AND n.noteable_id = $2${this.visibility(values, viewer)}`;
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    const { rows } = await pool.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM (SELECT 1 FROM notes n WHERE ${filter} LIMIT ${page.countCap + 1}) capped`,
      values,
    );
    return rows[0].total > page.countCap ? null : rows[0].total;
  }

  /**
   * The notes of a noteable the viewer may read: internal notes only with `readsAllInternal`
   * or when `viewerId` wrote them. Ordered by the caller (offset) or the keyset helper.
   */
  listQuery(
    noteable: Noteable,
    viewer: { readsAllInternal: boolean; id: number | null },
    order: { orderBy: 'created_at' | 'updated_at'; sort: 'asc' | 'desc' },
  ): SelectQueryBuilder<NoteEntity> {
    const qb = this.dataSource.manager
      .createQueryBuilder(NoteEntity, 'n')
      .where('n.noteable_type = :type AND n.noteable_id = :noteableId', { type: noteable.type, noteableId: noteable.id });
    if (!viewer.readsAllInternal) {
      if (viewer.id === null) qb.andWhere('n.internal = false');
      else qb.andWhere('(n.internal = false OR n.author_id = :viewerId)', { viewerId: viewer.id });
    }
    const direction = order.sort === 'asc' ? 'ASC' : 'DESC';
    return qb.orderBy(order.orderBy === 'updated_at' ? 'n.updatedAt' : 'n.createdAt', direction).addOrderBy('n.id', direction);
  }

  /**
   * Discussions, by their first notes (one row per discussion the viewer may read), oldest
   * first as GitLab lists them: a page of this query is a page of discussions.
   */
  discussionsQuery(noteable: Noteable, viewer: { readsAllInternal: boolean; id: number | null }): SelectQueryBuilder<NoteEntity> {
    return this.listQuery(noteable, viewer, { orderBy: 'created_at', sort: 'asc' }).andWhere(
      'NOT EXISTS (SELECT 1 FROM notes p WHERE p.discussion_id = n.discussion_id AND p.id < n.id)',
    );
  }

  /** The notes of these discussions of the noteable that the viewer may read, oldest first. */
  discussionNotes(noteable: Noteable, discussionIds: string[], viewer: { readsAllInternal: boolean; id: number | null }): Promise<NoteEntity[]> {
    if (discussionIds.length === 0) return Promise.resolve([]);
    return this.listQuery(noteable, viewer, { orderBy: 'created_at', sort: 'asc' })
      .andWhere('n.discussion_id IN (:...discussionIds)', { discussionIds })
      .getMany();
  }

  find(noteable: Noteable, id: number, manager: EntityManager = this.dataSource.manager): Promise<NoteEntity | null> {
    return manager.findOneBy(NoteEntity, { id, noteableType: noteable.type, noteableId: noteable.id });
  }

  /** A note by id (it exists: read back after a write). */
  get(id: number): Promise<NoteEntity> {
    return this.dataSource.manager.findOneByOrFail(NoteEntity, { id });
  }

  /** Replying to an individual note makes it the first note of a thread (`DiscussionNote`). */
  async makeThread(tx: EntityManager, discussionId: string): Promise<void> {
    await tx.query(`UPDATE notes SET type = 'DiscussionNote' WHERE discussion_id = $1 AND type IS NULL`, [discussionId]);
  }

  /** Resolves the notes not yet resolved (keeping who resolved the others and when). */
  async resolve(ids: number[], userId: number): Promise<void> {
    await this.dataSource.query(`UPDATE notes SET resolved_at = now(), resolved_by_id = $2 WHERE id = ANY($1) AND resolved_at IS NULL`, [ids, userId]);
  }

  async unresolve(ids: number[]): Promise<void> {
    await this.dataSource.query(`UPDATE notes SET resolved_at = NULL, resolved_by_id = NULL WHERE id = ANY($1)`, [ids]);
  }

  save(manager: EntityManager, note: NoteEntity): Promise<NoteEntity> {
    return manager.getRepository(NoteEntity).save(note);
  }

  async delete(manager: EntityManager, id: number): Promise<boolean> {
    const result = await manager.delete(NoteEntity, { id });
    return (result.affected ?? 0) > 0;
  }

  /** Awards `name` from `userId` once; an award already given is returned as it is. */
  async award(
    manager: EntityManager,
    noteable: Pick<Noteable, 'id'> & { type: string },
    name: string,
    userId: number,
  ): Promise<{ award: AwardEmojiEntity; created: boolean }> {
    const inserted = (await manager.query(
      `INSERT INTO award_emoji (name, user_id, awardable_type, awardable_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (awardable_type, awardable_id, name, user_id) DO NOTHING RETURNING id`,
      [name, userId, noteable.type, noteable.id],
    )) as Array<{ id: number }>;
    const award = await manager.findOneByOrFail(AwardEmojiEntity, { awardableType: noteable.type, awardableId: noteable.id, name, userId });
    return { award, created: inserted.length > 0 };
  }

  /** The awards on an awardable (a noteable, or a note: type `Note`), oldest first (for offset pagination). */
  awardsQuery(awardable: { type: string; id: number }): SelectQueryBuilder<AwardEmojiEntity> {
    return this.dataSource.manager
      .createQueryBuilder(AwardEmojiEntity, 'a')
      .where('a.awardable_type = :type AND a.awardable_id = :id', { type: awardable.type, id: awardable.id })
      .orderBy('a.id', 'ASC');
  }

  /** One award, when it is on this awardable. */
  findAward(awardable: { type: string; id: number }, id: number): Promise<AwardEmojiEntity | null> {
    return this.dataSource.manager.findOneBy(AwardEmojiEntity, { id, awardableType: awardable.type, awardableId: awardable.id });
  }

  async deleteAward(id: number, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.delete(AwardEmojiEntity, { id });
  }

  /** Stores notes read from a project export in one statement, in the import's transaction; their ids, in order. */
  async insertImported(tx: EntityManager, notes: QueryDeepPartialEntity<NoteEntity>[]): Promise<number[]> {
    const result = await tx.insert(NoteEntity, notes);
    return result.identifiers.map((identifier) => identifier.id as number);
  }

  /** Stores award emoji read from a project export in one statement; an award already given is left as it is. */
  async insertImportedAwards(tx: EntityManager, awards: QueryDeepPartialEntity<AwardEmojiEntity>[]): Promise<void> {
    await tx.createQueryBuilder().insert().into(AwardEmojiEntity).values(awards).orIgnore().execute();
  }
}
