import { Injectable } from '@nestjs/common';
import { tierAtLeast } from '@app/api/auth';
import { AppConfig } from '@app/config';
import { retryTransaction } from '@app/database/transaction-retry';
import { OutboxService, type NewDomainEvent } from '@app/messaging';
import { DataSource } from 'typeorm';
import { ALERT_EVENTS } from '../alerting.events';
import { AlertingMetrics } from '../alerting.metrics';
import { AlertRow, AlertsRepository, IngestOutcome } from '../alerts.repository';
import type { AlertPayload } from '../engine/alert-payload-parser';
import { normalizeAlert } from '../engine/normalize-alert';
import type { AlertHttpIntegrationEntity } from '../entities/alert-http-integration.entity';

export interface IngestAlertCommand {
  project: { id: number; groupId: number | null };
  integration: Pick<AlertHttpIntegrationEntity, 'id' | 'name' | 'payloadAttributeMappings' | 'createIncident' | 'autoCloseIncident'>;
  payload: AlertPayload;
  receivedAt: Date;
  /** The user who sent a test alert; null for a monitoring tool. */
  actorId?: number | null;
}

export interface IngestAlertResult {
  outcome: IngestOutcome['kind'];
  /** `{iid, title}` of each alert created or updated (empty for an unmatched recovery). */
  alerts: Array<{ iid: number; title: string }>;
}

const alertEventData = (alert: AlertRow, integration: IngestAlertCommand['integration']): Record<string, unknown> => ({
  alert_id: alert.id,
  iid: alert.iid,
  title: alert.title,
  description: alert.description,
  severity: alert.severity,
  status: alert.status,
  service: alert.service,
  monitoring_tool: alert.monitoring_tool,
  hosts: alert.hosts,
  environment: alert.environment,
  fingerprint: alert.fingerprint,
  started_at: new Date(alert.started_at).toISOString(),
  ended_at: alert.ended_at ? new Date(alert.ended_at).toISOString() : null,
  event_count: alert.event_count,
  integration: {
    id: integration.id,
    name: integration.name,
    create_incident: integration.createIncident,
    auto_close_incident: integration.autoCloseIncident,
  },
});

/**
 * Normalizes, fingerprints and stores one alert payload: creates an alert, groups it into
 * the open alert with the same fingerprint, or resolves that alert. The alert row, its system
 * note and its domain event commit in one transaction before the caller answers 200.
 */
@Injectable()
export class IngestAlertUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly alerts: AlertsRepository,
    private readonly outbox: OutboxService,
    private readonly config: AppConfig,
    private readonly metrics: AlertingMetrics,
  ) {}

  async execute(command: IngestAlertCommand): Promise<IngestAlertResult> {
    const premium = tierAtLeast(this.config.tier, 'premium');
    const { project, integration } = command;
    const alert = normalizeAlert(command.payload, {
      now: command.receivedAt,
      mappings: premium ? integration.payloadAttributeMappings : [],
      payloadFingerprint: premium,
    });
    const source = alert.monitoringTool ?? integration.name;
    // Concurrent payloads lock the same alert and counter rows; a deadlock victim is re-run.
    const outcome = await retryTransaction(() => this.dataSource.transaction(async (manager) => {
      const result = await this.alerts.ingest(manager, {
        projectId: project.id,
        integrationId: integration.id,
        alert,
        receivedAt: command.receivedAt,
        payload: command.payload,
      });
      const base = { actor: command.actorId ?? null, projectId: project.id, groupId: project.groupId };
      const events: NewDomainEvent[] = [];
      switch (result.kind) {
        case 'created':
          await this.alerts.addNote(manager, { alertId: result.alert.id, authorId: null, body: `logged an alert from **${source}**` });
          events.push({ ...base, type: ALERT_EVENTS.CREATED, target: this.target(result.alert), data: alertEventData(result.alert, integration) });
          break;
        case 'grouped':
          events.push({ ...base, type: ALERT_EVENTS.GROUPED, target: this.target(result.alert), data: alertEventData(result.alert, integration) });
          break;
        case 'resolved':
          await this.alerts.addNote(manager, { alertId: result.alert.id, authorId: null, body: `logged a recovery alert from **${source}**` });
          events.push({
            ...base,
            type: ALERT_EVENTS.RESOLVED,
            target: this.target(result.alert),
            data: { ...alertEventData(result.alert, integration), previous_status: result.previousStatus },
          });
          break;
        case 'unmatched_recovery':
          events.push({
            ...base,
            type: ALERT_EVENTS.RECOVERY_UNMATCHED,
            target: null,
            data: {
              recovery_id: result.recoveryId,
              title: alert.title,
              fingerprint: alert.fingerprint,
              ended_at: alert.endedAt!.toISOString(),
              integration: { id: integration.id, name: integration.name },
            },
          });
          break;
      }
      await this.outbox.append(manager, events);
      return result;
    }));
    this.count(outcome);
    return { outcome: outcome.kind, alerts: outcome.kind === 'unmatched_recovery' ? [] : [{ iid: outcome.alert.iid, title: outcome.alert.title }] };
  }

  private target(alert: AlertRow) {
    return { type: 'alert', id: alert.id, iid: alert.iid, title: alert.title };
  }

  private count(outcome: IngestOutcome): void {
    this.metrics.received.inc();
    if (outcome.kind === 'created') this.metrics.created.inc();
    else if (outcome.kind === 'grouped') this.metrics.grouped.inc();
    else if (outcome.kind === 'resolved') this.metrics.resolved.inc();
    else this.metrics.unmatchedRecoveries.inc();
  }
}
