import { Injectable } from '@nestjs/common';
import { CreateIssueCommand, CreateIssueUseCase } from '@app/issues';
import type { DomainEvent } from '@app/messaging';
import { ACCESS_LEVELS, ProjectsRepository } from '@app/namespaces';
import { DataSource, EntityManager } from 'typeorm';
import { AlertsRepository } from '../core/alerts.repository';
import type { AlertEntity } from '../entities/alert.entity';
import { AlertBotRepository } from './alert-bot.repository';
import { incidentSeverityOf } from './incident-severity';
import { ProcessedAlertEventsRepository } from './processed-alert-events.repository';

export type AlertIncidentOutcome = 'done' | 'duplicate' | 'skipped';

/**
 * Opens the incident of a new alert (its integration has `create_incident` on): an issue of
 * type `incident` with the alert's title, description and severity, authored by the alert
 * bot, linked both ways (`alerts.issue_id` / `issue_iid`) with a system note on the alert.
 * The event id, the issue, the link and the note commit together; the alert row is locked
 * so an alert gets one incident whatever the redeliveries and concurrent consumers.
 */
@Injectable()
export class CreateAlertIncidentUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly processed: ProcessedAlertEventsRepository,
    private readonly alerts: AlertsRepository,
    private readonly projects: ProjectsRepository,
    private readonly bot: AlertBotRepository,
    private readonly createIssue: CreateIssueUseCase,
  ) {}

  async execute(event: DomainEvent, alertId: number): Promise<AlertIncidentOutcome> {
    const botId = await this.bot.ensure();
    return this.dataSource.transaction(async (tx) => {
      if (!(await this.processed.claim(tx, event))) return 'duplicate';
      const alert = await this.alerts.lockById(tx, alertId);
      if (!alert || alert.issueId !== null) return 'skipped';
      const project = await this.projects.findById(alert.projectId, tx);
      if (!project) return 'skipped';
      await openAlertIncident(tx, { alert, project, actorId: botId, actorLevel: ACCESS_LEVELS.REPORTER }, this.createIssue, this.alerts);
      return 'done';
    });
  }
}

/**
 * Creates the incident of an alert inside the caller's transaction (the alert row locked by the
 * caller, not yet linked): an issue of type `incident` with the alert's title, description and
 * severity, the link on the alert and the alert's system note "created incident #N for this alert".
 */
export async function openAlertIncident(
  tx: EntityManager,
  input: { alert: AlertEntity; project: CreateIssueCommand['project']; actorId: number; actorLevel: number },
  createIssue: CreateIssueUseCase,
  alerts: AlertsRepository,
): Promise<{ iid: number }> {
  const { alert, project, actorId, actorLevel } = input;
  const issue = await createIssue.execute(
    {
      actorId,
      actorLevel,
      project,
      title: alert.title,
      description: alert.description,
      issueType: 'incident',
      severity: incidentSeverityOf(alert.severity),
    },
    tx,
  );
  await alerts.linkIncident(tx, alert.id, issue);
  alert.issueId = issue.id;
  alert.issueIid = issue.iid;
  await alerts.addNote(tx, { alertId: alert.id, authorId: actorId, body: `created incident #${issue.iid} for this alert` });
  return { iid: issue.iid };
}
