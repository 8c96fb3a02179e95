import { Injectable } from '@nestjs/common';
import { DomainError, tierAtLeast } from '@app/api';
import { AppConfig } from '@app/config';
import { uniqueViolation } from '@app/database';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { ALERT_EVENTS } from '../core/alerting.events';
import type { AlertHttpIntegrationEntity, AlertIntegrationType } from '../entities/alert-http-integration.entity';
import { HttpIntegrationsRepository } from '../core/http-integrations.repository';
import { NotifyTargetCache } from '../ingestion/notify-target.cache';
import { checkIntegrationSettings } from '../core/integration-settings';
import { digestIntegrationToken, generateEndpointIdentifier, generateIntegrationToken } from '../core/integration-token';

/** At most one Prometheus integration per project (its notify URL names no integration). */
const PROMETHEUS_UNIQUE_CONSTRAINT = 'alert_http_integrations_one_prometheus_key';

export interface CreateHttpIntegrationCommand {
  actorId: number;
  project: { id: number; groupId: number | null };
  name: string;
  type?: AlertIntegrationType;
  active?: boolean;
  payloadExample?: unknown;
  payloadAttributeMappings?: unknown;
  createIncident?: boolean;
  autoCloseIncident?: boolean;
}

/**
 * Creates an integration with a new key (returned once): an HTTP endpoint (one per project
 * below PREMIUM) or the project's Prometheus integration (one per project, every tier; no
 * custom mapping: Alertmanager's payload has a fixed shape).
 */
@Injectable()
export class CreateHttpIntegrationUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly integrations: HttpIntegrationsRepository,
    private readonly outbox: OutboxService,
    private readonly config: AppConfig,
    private readonly targets: NotifyTargetCache,
  ) {}

  async execute(command: CreateHttpIntegrationCommand): Promise<{ integration: AlertHttpIntegrationEntity; token: string }> {
    const name = command.name.trim();
    if (name === '') throw DomainError.invalid({ name: ["can't be blank"] });
    const type = command.type ?? 'http';
    const settings = checkIntegrationSettings(command, this.config.tier, type);
    const token = generateIntegrationToken();
    try {
      const integration = await this.dataSource.transaction(async (manager) => {
        // Serializes creations in one project, so the one-integration rule holds under concurrency.
        await this.integrations.lockProjectForCreation(manager, command.project.id);
        if (type === 'http' && !tierAtLeast(this.config.tier, 'premium') && (await this.integrations.countInProject(manager, command.project.id)) > 0) {
          throw DomainError.invalid({ base: ['Multiple integrations are not supported for this project'] });
        }
        const created = await this.integrations.insert(manager, {
          projectId: command.project.id,
          name,
          type,
          endpointIdentifier: generateEndpointIdentifier(),
          active: command.active ?? true,
          tokenDigest: digestIntegrationToken(token),
          payloadExample: settings.payloadExample ?? null,
          payloadAttributeMappings: settings.payloadAttributeMappings ?? [],
          createIncident: command.createIncident ?? false,
          autoCloseIncident: command.autoCloseIncident ?? true,
        });
        await this.outbox.append(manager, {
          type: ALERT_EVENTS.INTEGRATION_CREATED,
          actor: command.actorId,
          projectId: command.project.id,
          groupId: command.project.groupId,
          target: { type: 'alert_integration', id: created.id, title: created.name },
          data: {
            id: created.id,
            name: created.name,
            type: created.type,
            active: created.active,
            create_incident: created.createIncident,
            auto_close_incident: created.autoCloseIncident,
          },
        });
        return created;
      });
      // A notify URL looked up before (a 404) now names this integration.
      await this.targets.publishChange();
      return { integration, token };
    } catch (error) {
      const constraint = uniqueViolation(error);
      if (constraint === PROMETHEUS_UNIQUE_CONSTRAINT) throw DomainError.invalid({ type: ['Multiple Prometheus integrations are not supported'] });
      if (constraint !== null) throw DomainError.invalid({ name: ['has already been taken'] });
      throw error;
    }
  }
}
