import { Injectable } from '@nestjs/common';
import { tierAtLeast } from '@app/api';
import { AppConfig } from '@app/config';
import { currentOutboxContext } from '@app/messaging';
import { AlertingMetrics } from '../core/alerting.metrics';
import { IngestOutcome } from '../core/alerts.repository';
import { ALERT_PAYLOAD_MAX_BYTES, type AlertPayload } from '../engine/alert-payload-parser';
import { normalizeAlert, type NormalizedAlert } from '../engine/normalize-alert';
import type { AlertHttpIntegrationEntity } from '../entities/alert-http-integration.entity';
import { AlertIngestionBatcher } from '../ingestion/alert-ingestion.batcher';

export interface IngestAlertCommand {
  project: { id: number; groupId: number | null };
  integration: Pick<AlertHttpIntegrationEntity, 'id' | 'name' | 'payloadAttributeMappings' | 'createIncident' | 'autoCloseIncident'>;
  payload: AlertPayload;
  receivedAt: Date;
  /** The user who sent a test alert; null for a monitoring tool. */
  actorId?: number | null;
  /** Size of the payload as received; unknown: counted as the largest accepted. */
  payloadBytes?: number;
}

/** Several alerts of one request (an Alertmanager webhook's `alerts[]`), already normalized. */
export interface IngestAlertsCommand {
  project: { id: number; groupId: number | null };
  integration: Pick<AlertHttpIntegrationEntity, 'id' | 'name' | 'createIncident' | 'autoCloseIncident'>;
  alerts: Array<{ alert: NormalizedAlert; payload: Record<string, unknown> }>;
  receivedAt: Date;
  actorId?: number | null;
  /** Size of the request body. */
  payloadBytes: number;
}

export interface IngestAlertResult {
  outcome: IngestOutcome['kind'];
  /** `{iid, title}` of each alert created or updated (empty for an unmatched recovery). */
  alerts: Array<{ iid: number; title: string }>;
}

/**
 * Normalizes, fingerprints and stores one alert payload: creates an alert, groups it into
 * the open alert with the same fingerprint, or resolves that alert. The payload is written
 * with the other payloads received at the same time (`AlertIngestionBatcher`): its alert row,
 * system note and domain event commit in one transaction before the caller answers 200.
 */
@Injectable()
export class IngestAlertUseCase {
  constructor(
    private readonly batcher: AlertIngestionBatcher,
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
    const outcome = await this.batcher.submit({
      input: { projectId: project.id, integrationId: integration.id, alert, receivedAt: command.receivedAt },
      project,
      integration,
      payload: command.payload,
      actorId: command.actorId ?? null,
      outboxContext: currentOutboxContext(),
      bytes: command.payloadBytes ?? ALERT_PAYLOAD_MAX_BYTES,
    });
    this.count(outcome);
    return { outcome: outcome.kind, alerts: outcome.kind === 'unmatched_recovery' ? [] : [{ iid: outcome.alert.iid, title: outcome.alert.title }] };
  }

  /**
   * Stores the alerts of one request in order, in one transaction (committed before it
   * resolves): `{iid, title}` of each alert created or updated, in order, once per alert.
   */
  async executeMany(command: IngestAlertsCommand): Promise<Array<{ iid: number; title: string }>> {
    const { project, integration } = command;
    const outboxContext = currentOutboxContext();
    const bytes = Math.max(1, Math.ceil(command.payloadBytes / Math.max(1, command.alerts.length)));
    const outcomes = await this.batcher.submitAll(
      command.alerts.map(({ alert, payload }) => ({
        input: { projectId: project.id, integrationId: integration.id, alert, receivedAt: command.receivedAt },
        project,
        integration,
        payload,
        actorId: command.actorId ?? null,
        outboxContext,
        bytes,
      })),
    );
    const answered = new Set<number>();
    const alerts: Array<{ iid: number; title: string }> = [];
    for (const outcome of outcomes) {
      this.count(outcome);
      if (outcome.kind === 'unmatched_recovery' || answered.has(outcome.alert.iid)) continue;
      answered.add(outcome.alert.iid);
      alerts.push({ iid: outcome.alert.iid, title: outcome.alert.title });
    }
    return alerts;
  }

  private count(outcome: IngestOutcome): void {
    this.metrics.received.inc();
    if (outcome.kind === 'created') this.metrics.created.inc();
    else if (outcome.kind === 'grouped') this.metrics.grouped.inc();
    else if (outcome.kind === 'resolved') this.metrics.resolved.inc();
    else this.metrics.unmatchedRecoveries.inc();
  }
}
