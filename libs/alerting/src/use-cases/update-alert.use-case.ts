import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { uniqueViolation } from '@app/database';
import { OutboxService, type NewDomainEvent } from '@app/messaging';
import { DataSource } from 'typeorm';
import { ALERT_EVENTS } from '../core/alerting.events';
import { AlertsRepository } from '../core/alerts.repository';
import type { AlertStatus } from '../engine/alert-severity';
import type { AlertEntity } from '../entities/alert.entity';
import { HttpIntegrationsRepository } from '../core/http-integrations.repository';

export interface UpdateAlertCommand {
  actor: { id: number; username: string };
  project: { id: number; groupId: number | null };
  iid: number;
  status?: AlertStatus;
  assigneeIds?: number[];
}

const STATUS_LABEL: Record<AlertStatus, string> = { triggered: 'Triggered', acknowledged: 'Acknowledged', resolved: 'Resolved', ignored: 'Ignored' };

/**
 * An on-call engineer changes an alert's status or assignees. Resolving sets `ended_at` to
 * now; re-opening a resolved alert clears it, and is refused (409) while another open alert
 * has the same fingerprint.
 */
@Injectable()
export class UpdateAlertUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly alerts: AlertsRepository,
    private readonly integrations: HttpIntegrationsRepository,
    private readonly outbox: OutboxService,
  ) {}

  async execute(command: UpdateAlertCommand): Promise<AlertEntity> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        const alert = await this.alerts.lockByIid(manager, command.project.id, command.iid);
        if (!alert) throw DomainError.notFound('Alert');
        const base = {
          actor: command.actor.id,
          projectId: command.project.id,
          groupId: command.project.groupId,
          target: { type: 'alert', id: alert.id, iid: alert.iid, title: alert.title },
        };
        const events: NewDomainEvent[] = [];
        const changes: { status?: AlertStatus; endedAt?: Date | null; assigneeIds?: number[] } = {};

        if (command.status !== undefined && command.status !== alert.status) {
          const from = alert.status;
          changes.status = command.status;
          if (command.status === 'resolved') changes.endedAt = new Date();
          else if (from === 'resolved') changes.endedAt = null;
          await this.alerts.addNote(manager, {
            alertId: alert.id,
            authorId: command.actor.id,
            body: `changed the status to **${STATUS_LABEL[command.status]}**`,
          });
          // The integration's settings travel with the event, as on ingestion: the alert engine
          // closes the incident of an alert a user resolves when `auto_close_incident` is on.
          const integration = alert.integrationId !== null ? await this.integrations.findById(manager, alert.integrationId) : null;
          events.push({
            ...base,
            type: ALERT_EVENTS.STATUS_CHANGED,
            data: {
              alert_id: alert.id,
              iid: alert.iid,
              from,
              to: command.status,
              fingerprint: alert.fingerprint,
              integration: integration
                ? {
                    id: integration.id,
                    name: integration.name,
                    create_incident: integration.createIncident,
                    auto_close_incident: integration.autoCloseIncident,
                  }
                : null,
            },
          });
        }

        if (command.assigneeIds !== undefined) {
          const ids = [...new Set(command.assigneeIds)];
          const users = await this.alerts.users(manager, ids);
          if (users.length !== ids.length) throw DomainError.invalid({ assignee_ids: ['contains users that do not exist'] });
          const before = [...alert.assigneeIds].sort((a, b) => a - b);
          const after = [...ids].sort((a, b) => a - b);
          if (before.join(',') !== after.join(',')) {
            changes.assigneeIds = ids;
            const byId = new Map(users.map((u) => [u.id, u.username]));
            const body = ids.length ? `assigned to ${ids.map((id) => `@${byId.get(id)}`).join(', ')}` : 'removed all assignees';
            await this.alerts.addNote(manager, { alertId: alert.id, authorId: command.actor.id, body });
            events.push({
              ...base,
              type: ALERT_EVENTS.ASSIGNEES_CHANGED,
              data: { alert_id: alert.id, iid: alert.iid, previous_assignee_ids: alert.assigneeIds, assignee_ids: ids },
            });
          }
        }

        if (events.length > 0) {
          await this.alerts.update(manager, alert.id, changes);
          await this.outbox.append(manager, events);
        }
        return (await this.alerts.findByIid(command.project.id, command.iid, manager))!;
      });
    } catch (error) {
      if (uniqueViolation(error) === 'alerts_open_fingerprint_key') {
        throw DomainError.conflict('Another open alert has the same fingerprint: resolve it first');
      }
      throw error;
    }
  }
}
