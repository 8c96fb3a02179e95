import { Injectable } from '@nestjs/common';
import { DomainError, OffsetPageInfo, OffsetPagination, TOTAL_COUNT_LIMIT } from '@app/api';
import { confidentialIssueReadableSql } from '@app/issues';
import type { AccessUser } from '@app/namespaces';
import { ACCESS_LEVELS, activeMembershipSql, projectAccessLevelSql, projectVisibilitySql } from '@app/namespaces';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { ListEventsDto } from './dto/list-events.dto';
import { EventEntity } from './entities/event.entity';
import { EVENT_TARGET_TYPES } from './projection/event-projection';

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
    const visible = projectVisibilitySql('p', 'n', viewer, ':uid');
    if (visible) qb.andWhere(visible);
    if (!viewer?.isAdmin) {
      const readable = viewer ? confidentialIssueReadableSql('ci', projectAccessLevelSql('p', 'n', ':uid'), ':uid') : 'ci.confidential = false';
      qb.andWhere(`NOT (e.target_type = 'Issue' AND EXISTS (SELECT 1 FROM issues ci WHERE ci.id = e.target_id AND NOT ${readable}))`);
    }
    return this.applyFilter(qb, filter);
  }

  /** Events of one author. */
  byAuthor(authorId: number, viewer: AccessUser | null, filter: ListEventsDto): SelectQueryBuilder<EventEntity> {
    return this.visibleQuery(viewer, filter).andWhere('e.author_id = :authorId', { authorId });
  }

  /** Events of every project the user is a member of (`scope=all` of `GET /events`). */
  ofMemberProjects(user: AccessUser, filter: ListEventsDto): SelectQueryBuilder<EventEntity> {
    return this.visibleQuery(user, filter).andWhere(
      `(e.author_id = :uid OR EXISTS (SELECT 1 FROM members sm WHERE sm.user_id = :uid AND ${activeMembershipSql('sm')} ` +
        `AND ((sm.source_type = 'project' AND sm.source_id = p.id) OR (sm.source_type = 'namespace' AND sm.source_id = ANY(n.traversal_ids)))) ` +
        `OR (n.kind = 'user' AND n.owner_id = :uid))`,
    );
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
  async ofProject(projectId: number, viewer: AccessUser | null, accessLevel: number, filter: ListEventsDto): Promise<EventListQuery> {
    const mayReadConfidential = Boolean(viewer?.isAdmin) || accessLevel >= ACCESS_LEVELS.REPORTER;
    const readable = viewer ? '(i.author_id = $2 OR $2 = ANY(i.assignee_ids))' : 'false';
    const hiddenSql = mayReadConfidential ? `'{}'::int[]` : `ARRAY(SELECT i.id FROM issues i WHERE i.project_id = $1 AND i.confidential AND NOT ${readable} ORDER BY i.id)`;
    const [state] = (await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM events x WHERE x.created_at <= ${RETENTION_SQL} AND x.project_id = $1) AS expired, ${hiddenSql} AS hidden,
              pos.last_seq::float8 AS last_seq, pos.deleted_max_seq::float8 AS deleted_max_seq
       FROM (SELECT 1) one LEFT JOIN project_event_positions pos ON pos.project_id = $1`,
      viewer && !mayReadConfidential ? [projectId, viewer.id] : [projectId],
    )) as Array<{ expired: boolean; hidden: number[]; last_seq: number | null; deleted_max_seq: number | null }>;

    const qb = this.dataSource.manager.createQueryBuilder(EventEntity, 'e').where('e.project_id = :projectId', { projectId });
    if (state.expired) qb.andWhere(`e.created_at > ${RETENTION_SQL}`);
    if (state.hidden.length > 0) qb.andWhere(`NOT (e.target_type = 'Issue' AND e.target_id = ANY(:hidden))`, { hidden: state.hidden });
    this.applyFilter(qb, filter);
    const unfiltered = !state.expired && state.hidden.length === 0 && !filter.action && !filter.target_type && !filter.after && !filter.before;
    const positions = unfiltered && state.last_seq !== null ? { lastSeq: state.last_seq, deletedMaxSeq: state.deleted_max_seq ?? 0 } : undefined;
    const viewerKey = mayReadConfidential ? 'all' : `u${viewer?.id ?? 0}`;
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
    const ids = qb.clone().select('e.id', 'id').orderBy(order, direction).limit(perPage + 1);
    // Every number in (deletedMaxSeq, lastSeq] exists: the `offset` newest events are those above `seek`.
    const seek = positions && direction === 'DESC' ? positions.lastSeq - offset : null;
    if (seek !== null && seek - perPage - 1 >= positions!.deletedMaxSeq) ids.andWhere('e.project_seq <= :seek', { seek });
    else ids.offset(offset);
    const [idsSql, params] = ids.getQueryAndParameters();
    const raw = (await this.dataSource.query(
      `SELECT e.id, e.project_id, e.author_id, e.action, e.target_type, e.target_id, e.target_iid, e.target_title, e.note, e.push_data, e.created_at,
              u.username AS u_username, u.name AS u_name, u.state AS u_state, u.email AS u_email
       FROM (${idsSql}) pg JOIN events e ON e.id = pg.id LEFT JOIN users u ON u.id = e.author_id
       ORDER BY e.id ${direction}`,
      params,
    )) as RawEventRow[];
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

  /** The number of rows of `qb`, or null above `TOTAL_COUNT_LIMIT` (GitLab leaves `x-total` out then). */
  private async countWithCap(qb: SelectQueryBuilder<EventEntity>): Promise<number | null> {
    const [sql, params] = qb.clone().select('1', 'one').orderBy().limit(TOTAL_COUNT_LIMIT + 1).getQueryAndParameters();
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
