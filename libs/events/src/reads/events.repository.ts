import { Injectable } from '@nestjs/common';
import { DomainError, KeysetPagination, KeysetPosition, OffsetPageInfo, OffsetPagination, TOTAL_COUNT_LIMIT } from '@app/api';
import { confidentialIssueReadableSql } from '@app/issues';
import type { AccessUser } from '@app/namespaces';
import { ACCESS_LEVELS, restrictToActiveMemberships, restrictToVisibleProjects, whereProjectAccessLevel } from '@app/namespaces';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { ListEventsDto } from '../dto/list-events.dto';
import { EventEntity } from '../entities/event.entity';
import { EVENT_TARGET_TYPES } from '../projection/event-projection';

/** Events older than this are never listed (and removed by the retention job). */
export const EVENT_RETENTION_YEARS = 3;
const RETENTION_SQL = `now() - interval '${EVENT_RETENTION_YEARS} years'`;

/**
 * How long "this listing has more than `TOTAL_COUNT_LIMIT` events" is remembered, so that the
 * first pages of a large project do not count 10,001 rows on every request. Only that outcome
 * is remembered (exact totals are always counted): a listing only shrinks below the limit when
 * the retention job removes events or an issue becomes confidential, and then `x-total` comes
 * back at most this long afterwards.
 */
export const OVER_LIMIT_MEMORY_MS = 60_000;
const OVER_LIMIT_MEMORY_ENTRIES = 10_000;

/** One listed event with the author's summary fields (one query for both). */
export interface EventRow {
  id: string;
  projectId: number | null;
  authorId: number;
  action: string;
  targetType: string | null;
  targetId: number | null;
  targetIid: number | null;
  targetTitle: string | null;
  note: Record<string, unknown> | null;
  pushData: Record<string, unknown> | null;
  createdAt: Date;
  author: { id: number; username: string; name: string; state: string; email: string } | null;
}

interface RawEventRow {
  id: string;
  project_id: number | null;
  author_id: number;
  action: string;
  target_type: string | null;
  target_id: number | null;
  target_iid: number | null;
  target_title: string | null;
  note: Record<string, unknown> | null;
  push_data: Record<string, unknown> | null;
  created_at: Date;
  u_username: string | null;
  u_name: string;
  u_state: string;
  u_email: string;
}

const toEventRow = (r: RawEventRow): EventRow => ({
  id: String(r.id),
  projectId: r.project_id,
  authorId: r.author_id,
  action: r.action,
  targetType: r.target_type,
  targetId: r.target_id,
  targetIid: r.target_iid,
  targetTitle: r.target_title,
  note: r.note,
  pushData: r.push_data,
  createdAt: r.created_at,
  author: r.u_username === null ? null : { id: r.author_id, username: r.u_username, name: r.u_name, state: r.u_state, email: r.u_email },
});

/**
 * A list of events to page through: the rows of `qb`, in `order` (the same order as `id`).
 * With `positions` (a project's list without per-row conditions), a newest-first page whose
 * rows are all above `deletedMaxSeq` is found by position instead of skipping `offset` rows.
 */
export interface EventListQuery {
  qb: SelectQueryBuilder<EventEntity>;
  order: 'e.id' | 'e.project_seq';
  positions?: { lastSeq: number; deletedMaxSeq: number };
  /** Remembers "more than `TOTAL_COUNT_LIMIT` events" for this listing (see `OVER_LIMIT_MEMORY_MS`). */
  cacheKey?: string;
}

const validDate = (value: string, name: string): string => {
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) throw DomainError.invalid({ [name]: ['is invalid'] });
  return value;
};

/** Project features whose events a viewer may not see (see `projectFeatureReadable`). */
export interface UnreadableFeatures {
  mergeRequests: boolean;
  repository: boolean;
}

const NO_UNREADABLE_FEATURES: UnreadableFeatures = { mergeRequests: false, repository: false };

/** Events of merge requests and of their comments (never null: `target_type` is null on project events). */
const MERGE_REQUEST_EVENT_SQL = `COALESCE(e.target_type = 'MergeRequest' OR (e.target_type = 'Note' AND e.note->>'noteable_type' = 'MergeRequest'), false)`;

/** Events of merge requests, of their comments, and pushes: what a viewer who may not read the code does not see. */
const CODE_EVENT_SQL = `(e.push_data IS NOT NULL OR ${MERGE_REQUEST_EVENT_SQL})`;

/** Read queries of contribution events, with the visibility rules of the viewer. */
@Injectable()
export class EventsRepository {
  private readonly overLimit = new Map<string, number>();

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Events the viewer may see: the project is visible to them (a private project's events
   * only to members), and an event on a confidential issue only to those who may read it.
   */
  visibleQuery(viewer: AccessUser | null, filter: ListEventsDto): SelectQueryBuilder<EventEntity> {
    const qb = this.dataSource.manager
      .createQueryBuilder(EventEntity, 'e')
      .innerJoin('projects', 'p', 'p.id = e.project_id')
      .innerJoin('namespaces', 'n', 'n.id = p.namespace_id')
      .where(`e.created_at > ${RETENTION_SQL}`)
      .setParameter('uid', viewer?.id ?? 0);
    restrictToVisibleProjects(qb, 'p', 'n', viewer);
    if (!viewer?.isAdmin) {
      whereProjectAccessLevel(qb, 'p', 'n', viewer, (level) => {
        const readable = viewer ? confidentialIssueReadableSql('ci', level, ':uid') : 'ci.confidential = false';
        // Snippets whose own visibility hides them from viewers below Guest.
        const snippetVisible = viewer
          ? `(s.visibility = 'public' OR s.author_id = :uid${viewer.external ? '' : ` OR s.visibility = 'internal'`})`
          : `s.visibility = 'public'`;
        return [
          `NOT (e.target_type = 'Issue' AND EXISTS (SELECT 1 FROM issues ci WHERE ci.id = e.target_id AND NOT ${readable}))`,
          // Comments: as hidden as the issue they are on; internal ones only for Reporter+ and their author.
          `NOT COALESCE(e.target_type = 'Note' AND ((e.note->>'noteable_type' = 'Issue' AND EXISTS (SELECT 1 FROM issues ci WHERE ci.id = (e.note->>'noteable_id')::int AND NOT ${readable})) ` +
            `OR (e.note->>'internal' = 'true' AND ${viewer ? `e.author_id <> :uid AND ${level} < ${ACCESS_LEVELS.REPORTER}` : 'true'})), false)`,
          `NOT COALESCE(e.target_type = 'Snippet' AND ${level} < ${ACCESS_LEVELS.GUEST} AND EXISTS (SELECT 1 FROM snippets s WHERE s.id = e.target_id AND NOT ${snippetVisible}), false)`,
          // Merge requests, their comments and pushes of a private project: not for its guests (they do not read its code).
          ...(viewer ? [`NOT (p.visibility = 'private' AND ${level} < ${ACCESS_LEVELS.REPORTER} AND ${CODE_EVENT_SQL})`] : []),
        ];
      });
    }
    return this.applyFilter(qb, filter);
  }

  /** Events of one author. */
  byAuthor(authorId: number, viewer: AccessUser | null, filter: ListEventsDto): SelectQueryBuilder<EventEntity> {
    return this.visibleQuery(viewer, filter).andWhere('e.author_id = :authorId', { authorId });
  }

  /** Events of every project the user is a member of (`scope=all` of `GET /events`). */
  ofMemberProjects(user: AccessUser, filter: ListEventsDto): SelectQueryBuilder<EventEntity> {
    const qb = this.visibleQuery(user, filter);
    const membership = restrictToActiveMemberships(qb.subQuery().select('1').from('members', 'sm').where('sm.user_id = :uid'), 'sm').andWhere(
      `((sm.source_type = 'project' AND sm.source_id = p.id) OR (sm.source_type = 'namespace' AND sm.source_id = ANY(n.traversal_ids)))`,
    );
    return qb.andWhere(`(e.author_id = :uid OR EXISTS ${membership.getQuery()} OR (n.kind = 'user' AND n.owner_id = :uid))`);
  }

  /**
   * Events of one project the viewer can already see (checked by the route), at `accessLevel`.
   * No join, and per-row conditions only where they filter something, so that counting and
   * skipping pages are index-only scans of `(project_id, project_seq)`: one small query first
   * tells whether the project still has events past the retention bound (the retention job
   * removes them), which confidential issues the viewer may not read (none for Reporter and
   * above) and where the project's numbering stands. Without any per-row condition or filter,
   * newest-first pages are then found by position.
   */
  async ofProject(
    projectId: number,
    viewer: AccessUser | null,
    accessLevel: number,
    filter: ListEventsDto,
    unreadable: UnreadableFeatures = NO_UNREADABLE_FEATURES,
  ): Promise<EventListQuery> {
    const mayReadConfidential = Boolean(viewer?.isAdmin) || accessLevel >= ACCESS_LEVELS.REPORTER;
    const readable = viewer ? '(i.author_id = $2 OR $2 = ANY(i.assignee_ids))' : 'false';
    const hiddenSql = mayReadConfidential
      ? `'{}'::int[]`
      : `ARRAY(SELECT i.id FROM issues i WHERE i.project_id = $1 AND i.confidential AND NOT ${readable} ORDER BY i.id)`;
    const privateSnippetsSql =
      viewer?.isAdmin || accessLevel >= ACCESS_LEVELS.GUEST
        ? 'false'
        : `EXISTS (SELECT 1 FROM snippets sn WHERE sn.project_id = $1 AND sn.visibility <> 'public')`;
    const internalSql = mayReadConfidential
      ? 'false'
      : `EXISTS (SELECT 1 FROM notes nt WHERE nt.project_id = $1 AND nt.internal${viewer ? ' AND nt.author_id <> $2' : ''})`;
    const [state] = (await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM events x WHERE x.created_at <= ${RETENTION_SQL} AND x.project_id = $1) AS expired, ${hiddenSql} AS hidden, ${internalSql} AS internal_notes, ${privateSnippetsSql} AS private_snippets,
              pos.last_seq::float8 AS last_seq, pos.deleted_max_seq::float8 AS deleted_max_seq
       FROM (SELECT 1) one LEFT JOIN project_event_positions pos ON pos.project_id = $1`,
      viewer && !mayReadConfidential ? [projectId, viewer.id] : [projectId],
    )) as Array<{
      expired: boolean;
      hidden: number[];
      internal_notes: boolean;
      private_snippets: boolean;
      last_seq: number | null;
      deleted_max_seq: number | null;
    }>;

    const qb = this.dataSource.manager.createQueryBuilder(EventEntity, 'e').where('e.project_id = :projectId', { projectId });
    if (state.expired) qb.andWhere(`e.created_at > ${RETENTION_SQL}`);
    if (state.hidden.length > 0) {
      qb.andWhere(`NOT (e.target_type = 'Issue' AND e.target_id = ANY(:hidden))`, { hidden: state.hidden });
      qb.andWhere(`NOT COALESCE(e.target_type = 'Note' AND e.note->>'noteable_type' = 'Issue' AND (e.note->>'noteable_id')::int = ANY(:hidden), false)`);
    }
    // Snippets whose own visibility hides them from viewers below Guest (and removed ones).
    if (state.private_snippets) {
      const snippetVisible = viewer
        ? `(s.visibility = 'public' OR s.author_id = :viewerId${viewer.external ? '' : ` OR s.visibility = 'internal'`})`
        : `s.visibility = 'public'`;
      qb.andWhere(`NOT COALESCE(e.target_type = 'Snippet' AND EXISTS (SELECT 1 FROM snippets s WHERE s.id = e.target_id AND NOT ${snippetVisible}), false)`, {
        viewerId: viewer?.id ?? 0,
      });
    }
    // Internal comments of others, for viewers below Reporter.
    if (state.internal_notes)
      qb.andWhere(`NOT COALESCE(e.target_type = 'Note' AND e.note->>'internal' = 'true'${viewer ? ' AND e.author_id <> :viewerId' : ''}, false)`, {
        viewerId: viewer?.id ?? 0,
      });
    // Features the viewer may not read (the route's `projectFeatureReadable`): their events too.
    if (unreadable.mergeRequests) qb.andWhere(`NOT ${MERGE_REQUEST_EVENT_SQL}`);
    if (unreadable.repository) qb.andWhere('e.push_data IS NULL');
    this.applyFilter(qb, filter);
    const unfiltered =
      !state.expired &&
      state.hidden.length === 0 &&
      !state.internal_notes &&
      !state.private_snippets &&
      !unreadable.mergeRequests &&
      !unreadable.repository &&
      !filter.action &&
      !filter.target_type &&
      !filter.after &&
      !filter.before;
    const positions = unfiltered && state.last_seq !== null ? { lastSeq: state.last_seq, deletedMaxSeq: state.deleted_max_seq ?? 0 } : undefined;
    const viewerKey = `${mayReadConfidential ? 'all' : `u${viewer?.id ?? 0}`}${unreadable.mergeRequests ? '-mr' : ''}${unreadable.repository ? '-code' : ''}`;
    const cacheKey = ['project', projectId, viewerKey, filter.action ?? '', filter.target_type ?? '', filter.after ?? '', filter.before ?? ''].join('|');
    return { qb, order: 'e.project_seq', positions, cacheKey };
  }

  /**
   * One offset page of an event list, with the authors: the page's ids are picked by an index
   * scan (`ORDER BY ... LIMIT per_page + 1 OFFSET ...`, or by position, see `EventListQuery`),
   * then only those rows are read. The total is counted (up to `TOTAL_COUNT_LIMIT`) only when
   * the page does not tell it: a short page gives it, a full page past the limit means "more
   * than the limit".
   */
  async page(list: EventListQuery, pagination: OffsetPagination, sort: 'asc' | 'desc' | undefined): Promise<{ rows: EventRow[]; info: OffsetPageInfo }> {
    const { qb, order, positions, cacheKey } = list;
    const direction = sort === 'asc' ? 'ASC' : 'DESC';
    const { offset, perPage } = pagination;
    const ids = qb
      .clone()
      .select('e.id', 'id')
      .orderBy(order, direction)
      .limit(perPage + 1);
    // Every number in (deletedMaxSeq, lastSeq] exists: the `offset` newest events are those above `seek`.
    const seek = positions && direction === 'DESC' ? positions.lastSeq - offset : null;
    if (seek !== null && seek - perPage - 1 >= positions!.deletedMaxSeq) ids.andWhere('e.project_seq <= :seek', { seek });
    else ids.offset(offset);
    const raw = await this.rowsOf(ids, direction);
    const more = raw.length > perPage;
    const rows = raw.slice(0, perPage).map(toEventRow);
    const base = { page: pagination.page, perPage };
    if (!more && (raw.length > 0 || offset === 0)) {
      const total = offset + raw.length;
      return { rows, info: { ...base, total: total > TOTAL_COUNT_LIMIT ? null : total, hasNextPage: false } };
    }
    if (more && offset + perPage >= TOTAL_COUNT_LIMIT) return { rows, info: { ...base, total: null, hasNextPage: true } };
    const total = cacheKey && this.rememberedOverLimit(cacheKey) ? null : await this.countWithCap(qb);
    if (total === null && cacheKey) this.rememberOverLimit(cacheKey);
    return { rows, info: { ...base, total, hasNextPage: total === null ? more : offset + perPage < total } };
  }

  /**
   * One keyset page of an event list, by id (`id_before` newest first, `id_after` oldest first):
   * `next` is the position after the page when it is full, null at the end.
   */
  async keysetPage(list: EventListQuery, pagination: KeysetPagination): Promise<{ rows: EventRow[]; next: KeysetPosition | null }> {
    const direction = pagination.sort === 'asc' ? 'ASC' : 'DESC';
    const ids = list.qb.clone().select('e.id', 'id').orderBy('e.id', direction).limit(pagination.perPage);
    if (pagination.after) ids.andWhere(`e.id ${direction === 'ASC' ? '>' : '<'} :keysetAfter`, { keysetAfter: pagination.after.id });
    const rows = (await this.rowsOf(ids, direction)).map(toEventRow);
    return { rows, next: rows.length === pagination.perPage ? { id: rows[rows.length - 1].id } : null };
  }

  /** The events (with their authors) whose ids `ids` selects, in id order. */
  private async rowsOf(ids: SelectQueryBuilder<EventEntity>, direction: 'ASC' | 'DESC'): Promise<RawEventRow[]> {
    const [idsSql, params] = ids.getQueryAndParameters();
    return (await this.dataSource.query(
      `SELECT e.id, e.project_id, e.author_id, e.action, e.target_type, e.target_id, e.target_iid, e.target_title, e.note, e.push_data, e.created_at,
              u.username AS u_username, u.name AS u_name, u.state AS u_state, u.email AS u_email
       FROM (${idsSql}) pg JOIN events e ON e.id = pg.id LEFT JOIN users u ON u.id = e.author_id
       ORDER BY e.id ${direction}`,
      params,
    )) as RawEventRow[];
  }

  /** The number of rows of `qb`, or null above `TOTAL_COUNT_LIMIT` (GitLab leaves `x-total` out then). */
  private async countWithCap(qb: SelectQueryBuilder<EventEntity>): Promise<number | null> {
    const [sql, params] = qb
      .clone()
      .select('1', 'one')
      .orderBy()
      .limit(TOTAL_COUNT_LIMIT + 1)
      .getQueryAndParameters();
    const [row] = (await this.dataSource.query(`SELECT count(*)::int AS n FROM (${sql}) c`, params)) as Array<{ n: number }>;
    return row.n > TOTAL_COUNT_LIMIT ? null : row.n;
  }

  private rememberedOverLimit(key: string): boolean {
    const until = this.overLimit.get(key);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.overLimit.delete(key);
    return false;
  }

  private rememberOverLimit(key: string): void {
    if (this.overLimit.size >= OVER_LIMIT_MEMORY_ENTRIES) this.overLimit.delete(this.overLimit.keys().next().value as string);
    this.overLimit.set(key, Date.now() + OVER_LIMIT_MEMORY_MS);
  }

  private applyFilter(qb: SelectQueryBuilder<EventEntity>, filter: ListEventsDto): SelectQueryBuilder<EventEntity> {
    if (filter.action) qb.andWhere('e.action = :action', { action: filter.action });
    if (filter.target_type) qb.andWhere('e.target_type = :targetType', { targetType: EVENT_TARGET_TYPES[filter.target_type] });
    // Exclusive day bounds, in UTC: `after` 2024-01-01 starts at 2024-01-02T00:00Z.
    if (filter.after) qb.andWhere(`e.created_at >= timezone('UTC', CAST(CAST(:after AS date) + 1 AS timestamp))`, { after: validDate(filter.after, 'after') });
    if (filter.before) qb.andWhere(`e.created_at < timezone('UTC', CAST(CAST(:before AS date) AS timestamp))`, { before: validDate(filter.before, 'before') });
    return qb;
  }
}
