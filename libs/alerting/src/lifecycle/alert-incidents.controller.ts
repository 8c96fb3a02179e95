import { CurrentPrincipal, CurrentProject, idParam, Principal, ProjectAccess, ResourceAccess } from '@app/api';
import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { UsersRepository } from '@app/identity';
import { ACCESS_LEVELS } from '@app/namespaces';
import { HttpIntegrationsRepository } from '../core/http-integrations.repository';
import { presentAlert } from '../presenters/alerting.presenter';
import { projectContextOf } from '../core/project-context';
import { CreateIncidentFromAlertUseCase } from './create-incident-from-alert.use-case';

/**
 * `POST /projects/:id/alert_management/alerts/:alert_iid/incident`: opens the alert's incident
 * (developers and above, as GitLab's "Create incident" on an alert) and answers the alert with
 * its `issue_iid`. Not in GitLab's REST API (GitLab offers it through GraphQL only); the web
 * console's "Create incident" uses it.
 */
@Controller()
export class AlertIncidentsController {
  constructor(
    private readonly config: AppConfig,
    private readonly createIncident: CreateIncidentFromAlertUseCase,
    private readonly users: UsersRepository,
    private readonly integrations: HttpIntegrationsRepository,
  ) {}

  @Post('projects/:id/alert_management/alerts/:alert_iid/incident')
  @HttpCode(201)
  @ProjectAccess(ACCESS_LEVELS.DEVELOPER)
  async create(
    @CurrentProject() access: ResourceAccess,
    @Param('alert_iid') iid: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectContextOf(access);
    const alert = await this.createIncident.execute({
      actor: { id: principal.user.id, level: access.accessLevel },
      projectId: project.id,
      iid: idParam(iid, 'Alert'),
    });
    const users = await this.users.mapByIds(alert.assigneeIds);
    const integrations = await this.integrations.namesByIds(alert.integrationId !== null ? [alert.integrationId] : []);
    return presentAlert(alert, { externalUrl: this.config.http.externalUrl, projectFullPath: project.fullPath, users, integrations });
  }
}
