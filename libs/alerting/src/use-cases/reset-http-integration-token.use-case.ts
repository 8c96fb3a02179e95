import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { ALERT_EVENTS } from '../core/alerting.events';
import type { AlertHttpIntegrationEntity } from '../entities/alert-http-integration.entity';
import { HttpIntegrationsRepository } from '../core/http-integrations.repository';
import { NotifyTargetCache } from '../ingestion/notify-target.cache';
import { digestIntegrationToken, generateIntegrationToken } from '../core/integration-token';

/** Replaces an integration's authorization key: the old key stops working at once; the new one is returned once. */
@Injectable()
export class ResetHttpIntegrationTokenUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly integrations: HttpIntegrationsRepository,
    private readonly outbox: OutboxService,
    private readonly targets: NotifyTargetCache,
  ) {}

  async execute(command: {
    actorId: number;
    project: { id: number; groupId: number | null };
    integrationId: number;
  }): Promise<{ integration: AlertHttpIntegrationEntity; token: string }> {
    const token = generateIntegrationToken();
    const integration = await this.dataSource.transaction(async (manager) => {
      const existing = await this.integrations.lockInProject(manager, command.project.id, command.integrationId);
      if (!existing) throw DomainError.notFound('Integration');
      await this.integrations.setTokenDigest(manager, existing.id, digestIntegrationToken(token));
      await this.outbox.append(manager, {
        type: ALERT_EVENTS.INTEGRATION_TOKEN_RESET,
        actor: command.actorId,
        projectId: command.project.id,
        groupId: command.project.groupId,
        target: { type: 'alert_integration', id: existing.id, title: existing.name },
        data: { id: existing.id, name: existing.name },
      });
      return (await this.integrations.findById(manager, existing.id))!;
    });
    // The old key must stop working in every process now, not when a cached copy expires.
    await this.targets.publishChange();
    return { integration, token };
  }
}
