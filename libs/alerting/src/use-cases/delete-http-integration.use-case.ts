import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { ALERT_EVENTS } from '../core/alerting.events';
import { HttpIntegrationsRepository } from '../core/http-integrations.repository';
import { NotifyTargetCache } from '../ingestion/notify-target.cache';

/** Deletes an integration; its alerts stay (their `integration` becomes null). */
@Injectable()
export class DeleteHttpIntegrationUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly integrations: HttpIntegrationsRepository,
    private readonly outbox: OutboxService,
    private readonly targets: NotifyTargetCache,
  ) {}

  async execute(command: { actorId: number; project: { id: number; groupId: number | null }; integrationId: number }): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const row = await this.integrations.deleteInProject(manager, command.project.id, command.integrationId);
      if (!row) throw DomainError.notFound('Integration');
      await this.outbox.append(manager, {
        type: ALERT_EVENTS.INTEGRATION_DELETED,
        actor: command.actorId,
        projectId: command.project.id,
        groupId: command.project.groupId,
        target: { type: 'alert_integration', id: row.id, title: row.name },
        data: { id: row.id, name: row.name },
      });
    });
    await this.targets.publishChange();
  }
}
