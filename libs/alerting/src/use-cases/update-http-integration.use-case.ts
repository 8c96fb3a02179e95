import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { AppConfig } from '@app/config';
import { uniqueViolation } from '@app/database';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { ALERT_EVENTS } from '../core/alerting.events';
import type { AlertHttpIntegrationEntity, AlertIntegrationType } from '../entities/alert-http-integration.entity';
import { HttpIntegrationsRepository } from '../core/http-integrations.repository';
import { NotifyTargetCache } from '../ingestion/notify-target.cache';
import { checkIntegrationSettings } from '../core/integration-settings';

export interface UpdateHttpIntegrationCommand {
  actorId: number;
  project: { id: number; groupId: number | null };
  integrationId: number;
  name?: string;
  /** Accepted when it is the integration's type: a type is fixed once created. */
  type?: AlertIntegrationType;
  active?: boolean;
  payloadExample?: unknown;
  payloadAttributeMappings?: unknown;
  createIncident?: boolean;
  autoCloseIncident?: boolean;
}

/** Changes an integration's settings (not its key: see `ResetHttpIntegrationTokenUseCase`). */
@Injectable()
export class UpdateHttpIntegrationUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly integrations: HttpIntegrationsRepository,
    private readonly outbox: OutboxService,
    private readonly config: AppConfig,
    private readonly targets: NotifyTargetCache,
  ) {}

  async execute(command: UpdateHttpIntegrationCommand): Promise<AlertHttpIntegrationEntity> {
    const name = command.name?.trim();
    if (name === '') throw DomainError.invalid({ name: ["can't be blank"] });
    try {
      const updated = await this.dataSource.transaction(async (manager) => {
        const existing = await this.integrations.lockInProject(manager, command.project.id, command.integrationId);
        if (!existing) throw DomainError.notFound('Integration');
        if (command.type !== undefined && command.type !== existing.type) throw DomainError.invalid({ type: ['cannot be changed'] });
        const settings = checkIntegrationSettings(command, this.config.tier, existing.type);
        if (name !== undefined) existing.name = name;
        if (command.active !== undefined) existing.active = command.active;
        if (command.createIncident !== undefined) existing.createIncident = command.createIncident;
        if (command.autoCloseIncident !== undefined) existing.autoCloseIncident = command.autoCloseIncident;
        if (settings.payloadExample !== undefined) existing.payloadExample = settings.payloadExample;
        if (settings.payloadAttributeMappings !== undefined) existing.payloadAttributeMappings = settings.payloadAttributeMappings;
        const saved = await this.integrations.save(manager, existing);
        await this.outbox.append(manager, {
          type: ALERT_EVENTS.INTEGRATION_UPDATED,
          actor: command.actorId,
          projectId: command.project.id,
          groupId: command.project.groupId,
          target: { type: 'alert_integration', id: saved.id, title: saved.name },
          data: {
            id: saved.id,
            name: saved.name,
            type: saved.type,
            active: saved.active,
            create_incident: saved.createIncident,
            auto_close_incident: saved.autoCloseIncident,
          },
        });
        return saved;
      });
      await this.targets.publishChange();
      return updated;
    } catch (error) {
      if (uniqueViolation(error)) throw DomainError.invalid({ name: ['has already been taken'] });
      throw error;
    }
  }
}
