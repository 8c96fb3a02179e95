import { Injectable } from '@nestjs/common';
import { UserEntity } from '@app/identity';
import { IssueEntity } from '@app/issues';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import type { AlertSeverity, AlertStatus } from '../engine/alert-severity';
import { AlertEntity } from '../entities/alert.entity';
import { AlertNoteEntity } from '../entities/alert-note.entity';

/** An alert as ingestion reports it (in its outcome and its domain events). */
export interface AlertRow {
  id: number;
  iid: number;
  title: string;
  description: string | null;
  severity: AlertSeverity;
  status: AlertStatus;
  service: string | null;
  monitoring_tool: string | null;
  hosts: string[];
  started_at: Date;
  ended_at: Date | null;
  event_count: number;
  fingerprint: string | null;
  environment: string | null;
  integration_id: number | null;
}

export type IngestOutcome =
  | { kind: 'created'; alert: AlertRow }
  | { kind: 'grouped'; alert: AlertRow }
  | { kind: 'resolved'; alert: AlertRow; previousStatus: AlertStatus }
  | { kind: 'unmatched_recovery'; recoveryId: number };

export interface AlertListFilter {
  statuses?: AlertStatus[];
  severities?: AlertSeverity[];
  search?: string;
  assigneeId?: number | null;
}

/** Status and severity ranks (GitLab's enum order) for sorting. */
export const SEVERITY_RANK_SQL = `CASE a.severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 WHEN 'low' THEN 3 WHEN 'info' THEN 4 ELSE 5 END`;
export const STATUS_RANK_SQL = `CASE a.status WHEN 'triggered' THEN 0 WHEN 'acknowledged' THEN 1 WHEN 'resolved' THEN 2 ELSE 3 END`;

const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Alerts: reads, notes and locks of the on-call API (ingestion writes through `AlertBatchRepository`). */
@Injectable()
export class AlertsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async addNote(manager: EntityManager, note: { alertId: number; authorId: number | null; body: string }): Promise<void> {
    await manager.insert(AlertNoteEntity, { alertId: note.alertId, authorId: note.authorId, body: note.body, system: true });
  }

  findByIid(projectId: number, iid: number, manager: EntityManager = this.dataSource.manager): Promise<AlertEntity | null> {
    return manager.getRepository(AlertEntity).createQueryBuilder('a').where('a.project_id = :projectId AND a.iid = :iid', { projectId, iid }).getOne();
  }

  /** Locks the alert row for an update by a user. */
  lockByIid(manager: EntityManager, projectId: number, iid: number): Promise<AlertEntity | null> {
    return manager
      .getRepository(AlertEntity)
      .createQueryBuilder('a')
      .setLock('pessimistic_write')
      .where('a.project_id = :projectId AND a.iid = :iid', { projectId, iid })
      .getOne();
  }

  /** Locks the alert row for the alert engine (an incident to open or close). */
  lockById(manager: EntityManager, id: number): Promise<AlertEntity | null> {
    return manager.getRepository(AlertEntity).createQueryBuilder('a').setLock('pessimistic_write').where('a.id = :id', { id }).getOne();
  }

  /** Changes a user made to an alert (status, `ended_at`, assignees). */
  async update(manager: EntityManager, id: number, changes: { status?: AlertStatus; endedAt?: Date | null; assigneeIds?: number[] }): Promise<void> {
    await manager.update(AlertEntity, { id }, changes);
  }

  /** Links an alert to its incident (both ways: the issue id and its iid). */
  async linkIncident(manager: EntityManager, alertId: number, issue: { id: number; iid: number }): Promise<void> {
    await manager.update(AlertEntity, { id: alertId }, { issueId: issue.id, issueIid: issue.iid });
  }

  /** The incident (issue) of an alert, as the alert engine closes it. */
  incident(manager: EntityManager, issueId: number): Promise<IssueEntity | null> {
    return manager.findOneBy(IssueEntity, { id: issueId });
  }

  /** The users of `ids` that exist (the assignees a user gives an alert). */
  users(manager: EntityManager, ids: number[]): Promise<UserEntity[]> {
    return ids.length ? manager.getRepository(UserEntity).findBy({ id: In(ids) }) : Promise.resolve([]);
  }

  listQuery(projectId: number, filter: AlertListFilter): SelectQueryBuilder<AlertEntity> {
    const qb = this.dataSource.getRepository(AlertEntity).createQueryBuilder('a').where('a.project_id = :projectId', { projectId });
    if (filter.statuses?.length) qb.andWhere('a.status IN (:...statuses)', { statuses: filter.statuses });
    if (filter.severities?.length) qb.andWhere('a.severity IN (:...severities)', { severities: filter.severities });
    if (filter.search) {
      qb.andWhere(
        "(a.title ILIKE :search ESCAPE '\\' OR a.description ILIKE :search ESCAPE '\\' OR a.service ILIKE :search ESCAPE '\\' OR a.monitoring_tool ILIKE :search ESCAPE '\\')",
        { search: likePattern(filter.search) },
      );
    }
    if (filter.assigneeId !== undefined) {
      if (filter.assigneeId === null) qb.andWhere('false');
      else qb.andWhere(':assigneeId = ANY(a.assignee_ids)', { assigneeId: filter.assigneeId });
    }
    return qb;
  }

  async statusCounts(projectId: number, filter: AlertListFilter): Promise<Record<AlertStatus, number>> {
    const qb = this.listQuery(projectId, { ...filter, statuses: undefined })
      .select('a.status', 'status')
      .addSelect('count(*)::int', 'count')
      .groupBy('a.status');
    const rows = await qb.getRawMany<{ status: AlertStatus; count: number }>();
    const counts: Record<AlertStatus, number> = { triggered: 0, acknowledged: 0, resolved: 0, ignored: 0 };
    for (const row of rows) counts[row.status] = Number(row.count);
    return counts;
  }

  /**
   * Alerts started in each of the last `hours` whole hours (the current one included), by
   * severity, with the list's filters (status included): `hour` is the start of the hour (UTC).
   */
  async startedPerHour(
    projectId: number,
    filter: AlertListFilter,
    hours: number,
    now = new Date(),
  ): Promise<{ hour: Date; severity: string; count: number }[]> {
    const from = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000 - (hours - 1) * 3_600_000);
    const hour = `to_char(date_trunc('hour', a.started_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24:00:00"Z"')`;
    const rows = await this.listQuery(projectId, filter)
      .select(hour, 'hour')
      .addSelect('a.severity', 'severity')
      .addSelect('count(*)::int', 'count')
      .andWhere('a.started_at >= :from', { from })
      .groupBy(hour)
      .addGroupBy('a.severity')
      .getRawMany<{ hour: string; severity: string; count: number }>();
    return rows.map((r) => ({ hour: new Date(r.hour), severity: r.severity, count: Number(r.count) }));
  }

  notes(alertId: number): Promise<AlertNoteEntity[]> {
    return this.dataSource.getRepository(AlertNoteEntity).find({ where: { alertId }, order: { id: 'ASC' } });
  }
}
