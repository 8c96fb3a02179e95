import { Injectable } from '@nestjs/common';
import { UpdateIssueUseCase } from '@app/issues';
import type { DomainEvent } from '@app/messaging';
import { ACCESS_LEVELS, ProjectsRepository } from '@app/namespaces';
import { DataSource } from 'typeorm';
import { AlertsRepository } from '../core/alerts.repository';
import { AlertBotRepository } from './alert-bot.repository';
import type { AlertIncidentOutcome } from './create-alert-incident.use-case';
import { ProcessedAlertEventsRepository } from './processed-alert-events.repository';

/**
 * Closes the incident of a resolved alert (its integration has `auto_close_incident` on) as
 * the alert bot, with a system note on the alert. Nothing to do when the alert has no open
 * incident. The event id, the closed issue and the note commit together.
 */
@Injectable()
export class CloseAlertIncidentUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly processed: ProcessedAlertEventsRepository,
    private readonly alerts: AlertsRepository,
    private readonly projects: ProjectsRepository,
    private readonly bot: AlertBotRepository,
    private readonly updateIssue: UpdateIssueUseCase,
  ) {}

  async execute(event: DomainEvent, alertId: number): Promise<AlertIncidentOutcome> {
    const botId = await this.bot.ensure();
    return this.dataSource.transaction(async (tx) => {
      if (!(await this.processed.claim(tx, event))) return 'duplicate';
      const alert = await this.alerts.lockById(tx, alertId);
      if (!alert?.issueId) return 'skipped';
      const issue = await this.alerts.incident(tx, alert.issueId);
      if (!issue || issue.state !== 'opened') return 'skipped';
      const project = await this.projects.findById(alert.projectId, tx);
      if (!project) return 'skipped';
      await this.updateIssue.execute({ actorId: botId, actorLevel: ACCESS_LEVELS.REPORTER, project, iid: issue.iid, stateEvent: 'close' }, tx);
      await this.alerts.addNote(tx, { alertId: alert.id, authorId: botId, body: `closed incident #${issue.iid}` });
      return 'done';
    });
  }
}
