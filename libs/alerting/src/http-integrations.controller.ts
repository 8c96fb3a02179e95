import { CurrentPrincipal, CurrentProject, DomainError, idParam, LastModified, Principal, ProjectAccess, ResourceAccess, rowChangedAt } from '@app/api';
import { AlertHttpIntegrationEntity } from './entities/alert-http-integration.entity';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { FastifyRequest } from 'fastify';
import { CreateHttpIntegrationDto, UpdateHttpIntegrationDto } from './dto/http-integration.dto';
import { parseParsedAlertPayload } from './engine/alert-payload-parser';
import { checkPrometheusPayload, normalizePrometheusAlert } from './engine/prometheus-payload';
import { HttpIntegrationsRepository } from './core/http-integrations.repository';
import { presentHttpIntegration } from './presenters/alerting.presenter';
import { projectContextOf } from './core/project-context';
import { CreateHttpIntegrationUseCase } from './use-cases/create-http-integration.use-case';
import { DeleteHttpIntegrationUseCase } from './use-cases/delete-http-integration.use-case';
import { IngestAlertUseCase } from './use-cases/ingest-alert.use-case';
import { ResetHttpIntegrationTokenUseCase } from './use-cases/reset-http-integration-token.use-case';
import { UpdateHttpIntegrationUseCase } from './use-cases/update-http-integration.use-case';

const BASE = 'projects/:id/alert_management/http_integrations';

/** HTTP endpoint integrations of a project (maintainer and above); test alerts (developer and above). */
@Controller()
export class HttpIntegrationsController {
  constructor(
    private readonly config: AppConfig,
    private readonly integrations: HttpIntegrationsRepository,
    private readonly createIntegration: CreateHttpIntegrationUseCase,
    private readonly updateIntegration: UpdateHttpIntegrationUseCase,
    private readonly deleteIntegration: DeleteHttpIntegrationUseCase,
    private readonly resetIntegrationToken: ResetHttpIntegrationTokenUseCase,
    private readonly ingestAlert: IngestAlertUseCase,
  ) {}

  @Get(BASE)
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  async list(@CurrentProject() access: ResourceAccess): Promise<Record<string, unknown>[]> {
    const project = projectContextOf(access);
    const rows = await this.integrations.listForProject(project.id);
    return rows.map((row) => presentHttpIntegration(row, this.context(project.fullPath)));
  }

  @Get(`${BASE}/:integration_id`)
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  async get(@CurrentProject() access: ResourceAccess, @Param('integration_id') integrationId: string): Promise<Record<string, unknown>> {
    const project = projectContextOf(access);
    const integration = await this.integrations.findInProject(project.id, idParam(integrationId, 'Integration'));
    if (!integration) throw DomainError.notFound('Integration');
    return presentHttpIntegration(integration, this.context(project.fullPath));
  }

  @Post(BASE)
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  async create(
    @CurrentProject() access: ResourceAccess,
    @Body() dto: CreateHttpIntegrationDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectContextOf(access);
    const { integration, token } = await this.createIntegration.execute({
      actorId: principal.user.id,
      project,
      name: dto.name,
      type: dto.type,
      active: dto.active,
      payloadExample: dto.payload_example,
      payloadAttributeMappings: dto.payload_attribute_mappings,
      createIncident: dto.create_incident,
      autoCloseIncident: dto.auto_close_incident,
    });
    return presentHttpIntegration(integration, this.context(project.fullPath), token);
  }

  @Put(`${BASE}/:integration_id`)
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  async update(
    @CurrentProject() access: ResourceAccess,
    @Param('integration_id') integrationId: string,
    @Body() dto: UpdateHttpIntegrationDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectContextOf(access);
    const integration = await this.updateIntegration.execute({
      actorId: principal.user.id,
      project,
      integrationId: idParam(integrationId, 'Integration'),
      name: dto.name,
      type: dto.type,
      active: dto.active,
      payloadExample: dto.payload_example,
      payloadAttributeMappings: dto.payload_attribute_mappings,
      createIncident: dto.create_incident,
      autoCloseIncident: dto.auto_close_incident,
    });
    return presentHttpIntegration(integration, this.context(project.fullPath));
  }

  @Post(`${BASE}/:integration_id/reset_token`)
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  @HttpCode(200)
  async resetToken(
    @CurrentProject() access: ResourceAccess,
    @Param('integration_id') integrationId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectContextOf(access);
    const { integration, token } = await this.resetIntegrationToken.execute({
      actorId: principal.user.id,
      project,
      integrationId: idParam(integrationId, 'Integration'),
    });
    return presentHttpIntegration(integration, this.context(project.fullPath), token);
  }

  @Delete(`${BASE}/:integration_id`)
  @LastModified((request, get) =>
    rowChangedAt(get, AlertHttpIntegrationEntity, {
      id: idParam(request.params.integration_id, 'Integration'),
      projectId: projectContextOf(request.projectAccess!).id,
    }),
  )
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  async remove(
    @CurrentProject() access: ResourceAccess,
    @Param('integration_id') integrationId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.deleteIntegration.execute({
      actorId: principal.user.id,
      project: projectContextOf(access),
      integrationId: idParam(integrationId, 'Integration'),
    });
  }

  /** Sends a test payload (the request body; an Alertmanager webhook for a Prometheus integration) through the ingestion pipeline, as the user. */
  @Post(`${BASE}/:integration_id/test`)
  @ProjectAccess(ACCESS_LEVELS.DEVELOPER)
  @HttpCode(200)
  async test(
    @CurrentProject() access: ResourceAccess,
    @Param('integration_id') integrationId: string,
    @Req() request: FastifyRequest,
    @CurrentPrincipal() principal: Principal,
  ) {
    const project = projectContextOf(access);
    const integration = await this.integrations.findInProject(project.id, idParam(integrationId, 'Integration'));
    if (!integration) throw DomainError.notFound('Integration');
    const parsed = parseParsedAlertPayload(request.body ?? {});
    if (!parsed.ok) throw DomainError.badRequest(parsed.message);
    const receivedAt = new Date();
    if (integration.type === 'prometheus') {
      // A Prometheus integration is tested with an Alertmanager (or Grafana) webhook.
      const webhook = checkPrometheusPayload(parsed.payload);
      if (!webhook.ok) throw DomainError.unprocessable(webhook.message);
      return this.ingestAlert.executeMany({
        project,
        integration,
        alerts: webhook.alerts.map((element) => ({ alert: normalizePrometheusAlert(element, webhook.source, receivedAt), payload: element.raw })),
        receivedAt,
        actorId: principal.user.id,
        payloadBytes: JSON.stringify(parsed.payload).length,
      });
    }
    const result = await this.ingestAlert.execute({ project, integration, payload: parsed.payload, receivedAt, actorId: principal.user.id });
    return result.alerts;
  }

  private context(projectFullPath: string) {
    return { externalUrl: this.config.http.externalUrl, projectFullPath };
  }
}
