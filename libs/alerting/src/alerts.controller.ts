import {
  CurrentPrincipal,
  CurrentProject,
  DomainError,
  idParam,
  isKeysetPaginationRequested,
  paginateKeyset,
  paginateOffset,
  Principal,
  ProjectAccess,
  ResourceAccess,
} from '@app/api';
import { Body, Controller, Get, Param, Put, Query, Req, Res } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { UsersRepository } from '@app/identity';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AlertListFilter, AlertsRepository, SEVERITY_RANK_SQL, STATUS_RANK_SQL } from './core/alerts.repository';
import { AlertOrderBy, AlertsPerHourDto, ListAlertsDto, UpdateAlertDto } from './dto/alert.dto';
import { ALERT_SEVERITIES } from './engine/alert-severity';
import { AlertEntity } from './entities/alert.entity';
import { HttpIntegrationsRepository } from './core/http-integrations.repository';
import { presentAlert, presentAlertNote } from './presenters/alerting.presenter';
import { projectContextOf } from './core/project-context';
import { UpdateAlertUseCase } from './use-cases/update-alert.use-case';

const BASE = 'projects/:id/alert_management/alerts';

/** Timestamps compared at millisecond precision, the precision of keyset cursors. */
const ms = (column: string): string => `date_trunc('milliseconds', ${column})`;

/**
 * Sort expressions. `severity` and `status` sort by rank: `desc` puts the most severe
 * (critical) and the most urgent (triggered) first, as GitLab does; `ended_at` puts open alerts last.
 */
const ORDER_EXPRESSION: Record<Exclude<AlertOrderBy, 'id'>, { sql: string; inverted?: boolean }> = {
  started_at: { sql: ms('a.started_at') },
  ended_at: { sql: `COALESCE(${ms('a.ended_at')}, '-infinity'::timestamptz)` },
  created_at: { sql: ms('a.created_at') },
  updated_at: { sql: ms('a.updated_at') },
  event_count: { sql: 'a.event_count' },
  severity: { sql: SEVERITY_RANK_SQL, inverted: true },
  status: { sql: STATUS_RANK_SQL, inverted: true },
};

/** One entry per hour (oldest first) from grouped rows, zeros where no alert started. */
export function startedPerHourSeries(rows: { hour: Date; severity: string; count: number }[], hours: number, now: Date): Record<string, unknown>[] {
  const current = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
  const series = Array.from({ length: hours }, (_, i) => {
    const entry: Record<string, unknown> & { total: number } = { hour: new Date(current - (hours - 1 - i) * 3_600_000).toISOString(), total: 0 };
    for (const severity of ALERT_SEVERITIES) entry[severity] = 0;
    return entry;
  });
  for (const row of rows) {
    const index = hours - 1 - Math.round((current - row.hour.getTime()) / 3_600_000);
    const entry = series[index];
    if (!entry || !(row.severity in entry)) continue;
    entry[row.severity] = (entry[row.severity] as number) + row.count;
    entry.total += row.count;
  }
  return series;
}

/** Orders supported with `pagination=keyset` (plain, non-null columns). */
const KEYSET_ORDER_BY = ['id', 'created_at', 'updated_at', 'started_at', 'event_count'] as const;

/** The on-call API: reporters read alerts, developers change their status and assignees. */
@Controller()
export class AlertsController {
  constructor(
    private readonly config: AppConfig,
    private readonly alerts: AlertsRepository,
    private readonly integrations: HttpIntegrationsRepository,
    private readonly users: UsersRepository,
    private readonly updateAlert: UpdateAlertUseCase,
  ) {}

  @Get(BASE)
  @ProjectAccess(ACCESS_LEVELS.REPORTER)
  async list(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: ListAlertsDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const project = projectContextOf(access);
    const filter = await this.filterOf(dto);
    const qb = this.alerts.listQuery(project.id, filter);
    const externalUrl = this.config.http.externalUrl;
    let rows: AlertEntity[];
    if (isKeysetPaginationRequested(request.query)) {
      rows = await paginateKeyset(qb, request, reply, {
        externalUrl,
        keyset: { allowedOrderBy: KEYSET_ORDER_BY, defaultOrderBy: 'created_at', defaultSort: 'desc' },
        columns: {
          idExpression: 'a.id',
          id: (alert) => alert.id,
          orderExpressions: { created_at: ms('a.created_at'), updated_at: ms('a.updated_at'), started_at: ms('a.started_at'), event_count: 'a.event_count' },
          orderValues: { created_at: (a) => a.createdAt, updated_at: (a) => a.updatedAt, started_at: (a) => a.startedAt, event_count: (a) => a.eventCount },
        },
      });
    } else {
      const orderBy = dto.order_by ?? 'created_at';
      const sort = dto.sort ?? 'desc';
      const direction = sort === 'asc' ? 'ASC' : 'DESC';
      if (orderBy === 'id') qb.orderBy('a.id', direction);
      else {
        const order = ORDER_EXPRESSION[orderBy];
        const effective = order.inverted ? (direction === 'ASC' ? 'DESC' : 'ASC') : direction;
        qb.orderBy(order.sql, effective).addOrderBy('a.id', direction);
      }
      rows = await paginateOffset(qb, request, reply, { externalUrl });
    }
    return this.present(rows, project.fullPath);
  }

  @Get(`${BASE}/status_counts`)
  @ProjectAccess(ACCESS_LEVELS.REPORTER)
  async statusCounts(@CurrentProject() access: ResourceAccess, @Query() dto: ListAlertsDto): Promise<Record<string, number>> {
    const project = projectContextOf(access);
    const counts = await this.alerts.statusCounts(project.id, await this.filterOf(dto));
    const all = counts.triggered + counts.acknowledged + counts.resolved + counts.ignored;
    return { all, open: counts.triggered + counts.acknowledged, ...counts };
  }

  /**
   * Not in GitLab's API (the console's chart): alerts started per hour over the last `hours`
   * (1–168, default 24), by severity, with the list's filters. One entry per hour, oldest
   * first: `{hour, total, critical, high, medium, low, info, unknown}`.
   */
  @Get(`${BASE}/started_per_hour`)
  @ProjectAccess(ACCESS_LEVELS.REPORTER)
  async startedPerHour(@CurrentProject() access: ResourceAccess, @Query() dto: AlertsPerHourDto): Promise<Record<string, unknown>[]> {
    const project = projectContextOf(access);
    const hours = dto.hours ?? 24;
    const now = new Date();
    const rows = await this.alerts.startedPerHour(project.id, await this.filterOf(dto), hours, now);
    return startedPerHourSeries(rows, hours, now);
  }

  @Get(`${BASE}/:alert_iid`)
  @ProjectAccess(ACCESS_LEVELS.REPORTER)
  async get(@CurrentProject() access: ResourceAccess, @Param('alert_iid') iid: string): Promise<Record<string, unknown>> {
    const project = projectContextOf(access);
    const alert = await this.alerts.findByIid(project.id, idParam(iid, 'Alert'));
    if (!alert) throw DomainError.notFound('Alert');
    return (await this.present([alert], project.fullPath))[0];
  }

  @Put(`${BASE}/:alert_iid`)
  @ProjectAccess(ACCESS_LEVELS.DEVELOPER)
  async update(
    @CurrentProject() access: ResourceAccess,
    @Param('alert_iid') iid: string,
    @Body() dto: UpdateAlertDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectContextOf(access);
    const alert = await this.updateAlert.execute({
      actor: { id: principal.user.id, username: principal.user.username },
      project,
      iid: idParam(iid, 'Alert'),
      status: dto.status,
      assigneeIds: dto.assignee_ids?.filter((id) => id !== 0),
    });
    return (await this.present([alert], project.fullPath))[0];
  }

  @Get(`${BASE}/:alert_iid/notes`)
  @ProjectAccess(ACCESS_LEVELS.REPORTER)
  async notes(@CurrentProject() access: ResourceAccess, @Param('alert_iid') iid: string): Promise<Record<string, unknown>[]> {
    const project = projectContextOf(access);
    const alert = await this.alerts.findByIid(project.id, idParam(iid, 'Alert'));
    if (!alert) throw DomainError.notFound('Alert');
    const notes = await this.alerts.notes(alert.id);
    const users = await this.users.mapByIds(notes.flatMap((n) => (n.authorId !== null ? [n.authorId] : [])));
    return notes.map((note) => presentAlertNote(note, alert, { externalUrl: this.config.http.externalUrl, users }));
  }

  private async filterOf(dto: ListAlertsDto): Promise<AlertListFilter> {
    let assigneeId: number | null | undefined;
    if (dto.assignee_username !== undefined) {
      const user = await this.users.findByUsername(dto.assignee_username);
      assigneeId = user?.id ?? null;
    }
    return { statuses: dto.status, severities: dto.severity, search: dto.search?.trim() || undefined, assigneeId };
  }

  private async present(alerts: AlertEntity[], projectFullPath: string): Promise<Record<string, unknown>[]> {
    const users = await this.users.mapByIds(alerts.flatMap((a) => a.assigneeIds));
    const integrations = await this.integrations.namesByIds(alerts.flatMap((a) => (a.integrationId !== null ? [a.integrationId] : [])));
    return alerts.map((alert) => presentAlert(alert, { externalUrl: this.config.http.externalUrl, projectFullPath, users, integrations }));
  }
}
