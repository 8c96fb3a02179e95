import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api/errors';
import { confidentialIssueReadableSql } from '@app/issues/issues.repository';
import type { AccessUser } from '@app/namespaces/access/access-policy';
import { activeMembershipSql, projectAccessLevelSql, projectVisibilitySql } from '@app/namespaces/access/access-sql';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { ListEventsDto } from './dto/list-events.dto';
import { EventEntity } from './entities/event.entity';
import { EVENT_TARGET_TYPES } from './projection/event-projection';

/** Events older than this are never listed (and removed by the retention job). */
export const EVENT_RETENTION_YEARS = 3;

const validDate = (value: string, name: string): string => {
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) throw DomainError.invalid({ [name]: ['is invalid'] });
  return value;
};

/** Read queries of contribution events, with the visibility rules of the viewer. */
@Injectable()
export class EventsRepository {
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
      .where(`e.created_at > now() - interval '${EVENT_RETENTION_YEARS} years'`)
      .setParameter('uid', viewer?.id ?? 0);
    const visible = projectVisibilitySql('p', 'n', viewer, ':uid');
    if (visible) qb.andWhere(visible);
    if (!viewer?.isAdmin) {
      const readable = viewer ? confidentialIssueReadableSql('ci', projectAccessLevelSql('p', 'n', ':uid'), ':uid') : 'ci.confidential = false';
      qb.andWhere(`NOT (e.target_type = 'Issue' AND EXISTS (SELECT 1 FROM issues ci WHERE ci.id = e.target_id AND NOT ${readable}))`);
    }
    if (filter.action) qb.andWhere('e.action = :action', { action: filter.action });
    if (filter.target_type) qb.andWhere('e.target_type = :targetType', { targetType: EVENT_TARGET_TYPES[filter.target_type] });
    // Exclusive day bounds, in UTC: `after` 2024-01-01 starts at 2024-01-02T00:00Z.
    if (filter.after) qb.andWhere(`e.created_at >= timezone('UTC', CAST(CAST(:after AS date) + 1 AS timestamp))`, { after: validDate(filter.after, 'after') });
    if (filter.before) qb.andWhere(`e.created_at < timezone('UTC', CAST(CAST(:before AS date) AS timestamp))`, { before: validDate(filter.before, 'before') });
    return qb.orderBy('e.id', filter.sort === 'asc' ? 'ASC' : 'DESC');
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

  ofProject(projectId: number, viewer: AccessUser | null, filter: ListEventsDto): SelectQueryBuilder<EventEntity> {
    return this.visibleQuery(viewer, filter).andWhere('e.project_id = :projectId', { projectId });
  }
}
