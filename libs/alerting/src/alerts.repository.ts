import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { AlertSeverity, AlertStatus } from './engine/alert-severity';
import type { NormalizedAlert } from './engine/normalize-alert';
import { AlertEntity } from './entities/alert.entity';
import { AlertNoteEntity } from './entities/alert-note.entity';
import { AlertUnmatchedRecoveryEntity } from './entities/alert-unmatched-recovery.entity';

/** An alert row as the ingestion statements return it. */
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

const RETURNING = `id, iid, title, description, severity, status, service, monitoring_tool, hosts, started_at, ended_at,
  event_count, fingerprint, environment, integration_id`;

/** Adds one event to the open alert with this fingerprint (row-locked, so concurrent repeats all count). */
const GROUP_SQL = `UPDATE alerts SET event_count = event_count + 1, last_received_at = $3, updated_at = now()
  WHERE project_id = $1 AND fingerprint = $2 AND status <> 'resolved'
  RETURNING ${RETURNING}`;

/** Takes the project's iid counter row lock (creating the row on first use) and reads the last iid. */
const LOCK_COUNTER_SQL = `INSERT INTO alert_iid_counters (project_id, last_iid) VALUES ($1, 0)
  ON CONFLICT (project_id) DO UPDATE SET last_iid = alert_iid_counters.last_iid
  RETURNING last_iid`;

/**
 * Inserts a new alert. The conflict branch only runs if an unresolved alert with the same
 * fingerprint appeared without taking the counter lock (a user re-opening a resolved alert):
 * the payload then groups into it and the caller leaves the counter as it was.
 */
const INSERT_SQL = `INSERT INTO alerts (project_id, iid, integration_id, title, description, severity, status, service,
    monitoring_tool, hosts, started_at, event_count, last_received_at, fingerprint, environment, details)
  VALUES ($1, $2, $3, $4, $5, $6, 'triggered', $7, $8, $9, $10, 1, $11, $12, $13, $14)
  ON CONFLICT (project_id, fingerprint) WHERE status <> 'resolved'
  DO UPDATE SET event_count = alerts.event_count + 1, last_received_at = EXCLUDED.last_received_at, updated_at = now()
  RETURNING ${RETURNING}, (xmax = 0) AS inserted`;

const SET_COUNTER_SQL = `UPDATE alert_iid_counters SET last_iid = $2 WHERE project_id = $1`;

/** Resolves the open alert with this fingerprint, returning its status before. */
const RESOLVE_SQL = `UPDATE alerts SET status = 'resolved', ended_at = $3, event_count = alerts.event_count + 1,
    last_received_at = $4, updated_at = now()
  FROM (SELECT id, status AS previous_status FROM alerts
        WHERE project_id = $1 AND fingerprint = $2 AND status <> 'resolved' FOR UPDATE) AS previous
  WHERE alerts.id = previous.id
  RETURNING ${RETURNING.split(',').map((column) => `alerts.${column.trim()}`).join(', ')}, previous.previous_status`;

export type IngestOutcome =
  | { kind: 'created'; alert: AlertRow }
  | { kind: 'grouped'; alert: AlertRow }
  | { kind: 'resolved'; alert: AlertRow; previousStatus: AlertStatus }
  | { kind: 'unmatched_recovery'; recoveryId: number };

export interface IngestInput {
  projectId: number;
  integrationId: number | null;
  alert: NormalizedAlert;
  receivedAt: Date;
  /** The raw payload, kept with an unmatched recovery. */
  payload: Record<string, unknown>;
}

export interface AlertListFilter {
  statuses?: AlertStatus[];
  severities?: AlertSeverity[];
  search?: string;
  assigneeId?: number | null;
}

/** Status and severity ranks (GitLab's enum order) for sorting. */
export const SEVERITY_RANK_SQL = `CASE a.severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 WHEN 'low' THEN 3 WHEN 'info' THEN 4 ELSE 5 END`;
export const STATUS_RANK_SQL = `CASE a.status WHEN 'triggered' THEN 0 WHEN 'acknowledged' THEN 1 WHEN 'resolved' THEN 2 ELSE 3 END`;

/** Rows of a RETURNING statement (TypeORM gives `[rows, count]` for UPDATE and DELETE, the rows for INSERT). */
async function returningRows<T>(manager: EntityManager, sql: string, parameters: unknown[]): Promise<T[]> {
  const result = (await manager.query(sql, parameters)) as unknown[];
  return (Array.isArray(result[0]) ? result[0] : result) as T[];
}

const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Alerts. Ingestion runs hand-written SQL (the hot path, one round trip per step):
 * repeats are one row-locked UPDATE; a new alert takes the project's counter row lock, so
 * iids stay gap-free and two first occurrences of one fingerprint cannot both insert.
 */
@Injectable()
export class AlertsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Groups, creates or resolves, inside the caller's transaction. */
  async ingest(manager: EntityManager, input: IngestInput): Promise<IngestOutcome> {
    const { alert, projectId, receivedAt } = input;
    if (alert.endedAt) {
      if (alert.fingerprint) {
        const rows = await returningRows<AlertRow & { previous_status: AlertStatus }>(manager, RESOLVE_SQL, [projectId, alert.fingerprint, alert.endedAt, receivedAt]);
        const resolved = rows[0] as (AlertRow & { previous_status: AlertStatus }) | undefined;
        if (resolved) {
          const { previous_status: previousStatus, ...row } = resolved;
          return { kind: 'resolved', alert: row, previousStatus };
        }
      }
      const recovery = await manager.insert(AlertUnmatchedRecoveryEntity, {
        projectId,
        integrationId: input.integrationId,
        fingerprint: alert.fingerprint,
        title: alert.title,
        endedAt: alert.endedAt,
        payload: input.payload as never,
      });
      return { kind: 'unmatched_recovery', recoveryId: Number(recovery.identifiers[0].id) };
    }

    if (alert.fingerprint) {
      const grouped = await this.group(manager, projectId, alert.fingerprint, receivedAt);
      if (grouped) return { kind: 'grouped', alert: grouped };
    }
    const counter = (await manager.query(LOCK_COUNTER_SQL, [projectId])) as Array<{ last_iid: number }>;
    if (alert.fingerprint) {
      // Another transaction may have created it while this one waited for the lock.
      const grouped = await this.group(manager, projectId, alert.fingerprint, receivedAt);
      if (grouped) return { kind: 'grouped', alert: grouped };
    }
    const iid = Number(counter[0].last_iid) + 1;
    const inserted = (await manager.query(INSERT_SQL, [
      projectId,
      iid,
      input.integrationId,
      alert.title,
      alert.description,
      alert.severity,
      alert.service,
      alert.monitoringTool,
      alert.hosts,
      alert.startedAt,
      receivedAt,
      alert.fingerprint,
      alert.environment,
      alert.details,
    ])) as Array<AlertRow & { inserted: boolean }>;
    const { inserted: isNew, ...row } = inserted[0];
    if (!isNew) return { kind: 'grouped', alert: row };
    await manager.query(SET_COUNTER_SQL, [projectId, iid]);
    return { kind: 'created', alert: row };
  }

  private async group(manager: EntityManager, projectId: number, fingerprint: string, receivedAt: Date): Promise<AlertRow | null> {
    const rows = await returningRows<AlertRow>(manager, GROUP_SQL, [projectId, fingerprint, receivedAt]);
    return rows[0] ?? null;
  }

  async addNote(manager: EntityManager, note: { alertId: number; authorId: number | null; body: string }): Promise<void> {
    await manager.insert(AlertNoteEntity, { alertId: note.alertId, authorId: note.authorId, body: note.body, system: true });
  }

  findByIid(projectId: number, iid: number, manager: EntityManager = this.dataSource.manager): Promise<AlertEntity | null> {
    return manager.getRepository(AlertEntity).createQueryBuilder('a').where('a.project_id = :projectId AND a.iid = :iid', { projectId, iid }).getOne();
  }

  /** Locks the alert row for an update by a user. */
  lockByIid(manager: EntityManager, projectId: number, iid: number): Promise<AlertEntity | null> {
    return manager.getRepository(AlertEntity).createQueryBuilder('a').setLock('pessimistic_write').where('a.project_id = :projectId AND a.iid = :iid', { projectId, iid }).getOne();
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
    const qb = this.listQuery(projectId, { ...filter, statuses: undefined }).select('a.status', 'status').addSelect('count(*)::int', 'count').groupBy('a.status');
    const rows = await qb.getRawMany<{ status: AlertStatus; count: number }>();
    const counts: Record<AlertStatus, number> = { triggered: 0, acknowledged: 0, resolved: 0, ignored: 0 };
    for (const row of rows) counts[row.status] = Number(row.count);
    return counts;
  }

  notes(alertId: number): Promise<AlertNoteEntity[]> {
    return this.dataSource.getRepository(AlertNoteEntity).find({ where: { alertId }, order: { id: 'ASC' } });
  }
}
