import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { CreateIssueUseCase } from '@app/issues';
import { ProjectsRepository } from '@app/namespaces';
import { DataSource } from 'typeorm';
import { AlertsRepository } from '../core/alerts.repository';
import type { AlertEntity } from '../entities/alert.entity';
import { openAlertIncident } from './create-alert-incident.use-case';

export interface CreateIncidentFromAlertCommand {
  actor: { id: number; level: number };
  projectId: number;
  iid: number;
}

/**
 * An on-call engineer opens the incident of an alert by hand (GitLab's "Create incident" on the
 * alert, its GraphQL `createAlertIssue`): the issue is authored by the engineer; an alert that
 * already has an incident is refused with 409 "An issue already exists" (GitLab's message). The
 * alert row is locked, so two clicks at once give one incident.
 */
@Injectable()
export class CreateIncidentFromAlertUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly alerts: AlertsRepository,
    private readonly projects: ProjectsRepository,
    private readonly createIssue: CreateIssueUseCase,
  ) {}

  execute(command: CreateIncidentFromAlertCommand): Promise<AlertEntity> {
    return this.dataSource.transaction(async (tx) => {
      const alert = await this.alerts.lockByIid(tx, command.projectId, command.iid);
      if (!alert) throw DomainError.notFound('Alert');
      if (alert.issueId !== null) throw DomainError.conflict('An issue already exists');
      const project = await this.projects.findById(alert.projectId, tx);
      if (!project) throw DomainError.notFound('Project');
      await openAlertIncident(tx, { alert, project, actorId: command.actor.id, actorLevel: command.actor.level }, this.createIssue, this.alerts);
      return alert;
    });
  }
}
