import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { isRetryableTransactionError, uniqueViolation } from '@app/database';
import { buildDomainEvent, messageKeyOf, OUTBOX_NOTIFY_CHANNEL, OutboxService, type NewDomainEvent } from '@app/messaging';
import { ALERT_EVENTS } from '../alerting.events';
import type { AlertRow, IngestOutcome } from '../alerts.repository';
import type { AlertHttpIntegrationEntity } from '../entities/alert-http-integration.entity';
import { AlertState, BatchAlertInput, openAlertKey, planAlertBatch, PlannedStep } from './alert-batch-plan';
import { AlertBatchRepository, BatchConnection, missingPreparedStatement, NoteRow, OutboxRow, UnmatchedRecoveryRow } from './alert-batch.repository';

export type IngestIntegration = Pick<AlertHttpIntegrationEntity, 'id' | 'name' | 'createIncident' | 'autoCloseIncident'>;

/** One normalized payload waiting for the next batch. */
export interface AlertBatchEntry {
  input: BatchAlertInput;
  project: { id: number; groupId: number | null };
  integration: IngestIntegration;
  /** The raw payload (kept with an unmatched recovery). */
  payload: Record<string, unknown>;
  /** The user who sent a test alert; null for a monitoring tool. */
  actorId: number | null;
  /** The request id, carried in the domain event's headers. */
  requestId?: string;
  /** Size of the payload as received, in bytes (bounds the size of a batch). */
  bytes: number;
}

interface Waiter {
  entry: AlertBatchEntry;
  resolve: (outcome: IngestOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Most payload bytes in one batch (a batch's statement carries its payloads): a flood of large
 * payloads makes smaller batches, never one huge statement. A single payload may exceed it.
 */
export const ALERT_BATCH_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Attempts of one batch when PostgreSQL aborts it (deadlock, serialization), an open alert
 * appears under it, or its connection lost the prepared statements.
 */
const BATCH_ATTEMPTS = 5;

/** Errors of one payload's data, not of the database: the batch is retried payload by payload. */
const isPayloadError = (error: unknown): boolean => {
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = typeof e.code === 'string' ? e.code : typeof e.driverError?.code === 'string' ? e.driverError.code : '';
  // SQLSTATE classes 22 (data exception) and 23 (integrity constraint violation).
  return code.startsWith('22') || code.startsWith('23');
};

export const alertEventData = (alert: AlertRow, integration: IngestIntegration): Record<string, unknown> => ({
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

const rowOf = (step: Extract<PlannedStep, { state: AlertState }>): AlertRow => {
  const s = step.state;
  return {
    id: s.id,
    iid: s.iid,
    title: s.title,
    description: s.description,
    severity: s.severity,
    status: step.snapshot.status,
    service: s.service,
    monitoring_tool: s.monitoring_tool,
    hosts: s.hosts,
    started_at: s.started_at,
    ended_at: step.snapshot.ended_at,
    event_count: step.snapshot.event_count,
    fingerprint: s.fingerprint,
    environment: s.environment,
    integration_id: s.integration_id,
  };
};

/**
 * Group commit of alert ingestion. Concurrent requests enqueue their normalized payload and
 * wait; the waiting payloads (up to `ALERT_INGEST_MAX_BATCH`) are written as ONE transaction in
 * two round trips (`AlertBatchRepository`): lock the projects' iid counters and the open
 * alerts of the batch's fingerprints; apply the payloads in arrival order in memory
 * (`planAlertBatch`); insert the new alerts, write back the changed ones, the counters and the
 * unmatched recoveries, insert the system notes and the outbox rows, and COMMIT. Every waiter
 * is answered only after COMMIT, so an acknowledged payload is durable.
 *
 * No timer delays a lone request: a batch starts on the next turn of the event loop, and the
 * requests that arrive while batches are written (at most `ALERT_INGEST_IN_FLIGHT` at a time)
 * form the next one, so batches grow with the load. A batch that PostgreSQL aborts (deadlock,
 * serialization) or that meets an open alert created under it (a user re-opened one) is
 * re-run; one that fails on a payload's data is re-run payload by payload, so one bad payload
 * fails alone.
 */
@Injectable()
export class AlertIngestionBatcher implements BeforeApplicationShutdown {
  private readonly logger = new Logger(AlertIngestionBatcher.name);
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private pending: Waiter[] = [];
  private scheduled = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly batches: AlertBatchRepository,
    private readonly outbox: OutboxService,
    config: AppConfig,
  ) {
    this.maxBatch = Math.max(1, config.alerting.ingestMaxBatch);
    this.maxInFlight = Math.max(1, config.alerting.ingestInFlight);
  }

  /** Resolves once the payload is committed, with what it did. */
  submit(entry: AlertBatchEntry): Promise<IngestOutcome> {
    return new Promise<IngestOutcome>((resolve, reject) => {
      this.pending.push({ entry, resolve, reject });
      this.schedule();
    });
  }

  /** Lets the batches in flight commit before the database connections close. */
  async beforeApplicationShutdown(): Promise<void> {
    while (this.inFlight.size > 0 || this.pending.length > 0) {
      this.schedule();
      await Promise.all([...this.inFlight, new Promise((r) => setImmediate(r))]);
    }
  }

  /** A batch starts on the next turn of the event loop, if fewer than the maximum are being written. */
  private schedule(): void {
    if (this.scheduled || this.pending.length === 0 || this.inFlight.size >= this.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.pending.length > 0 && this.inFlight.size < this.maxInFlight) {
        const batch = this.pending.splice(0, this.batchLength());
        const flushing: Promise<void> = this.flush(batch).finally(() => {
          this.inFlight.delete(flushing);
          this.schedule();
        });
        this.inFlight.add(flushing);
      }
    });
  }

  /** How many waiting payloads the next batch takes: at most `maxBatch`, and `ALERT_BATCH_MAX_BYTES` (at least one). */
  private batchLength(): number {
    let bytes = 0;
    let length = 0;
    while (length < this.pending.length && length < this.maxBatch) {
      bytes += this.pending[length].entry.bytes;
      if (length > 0 && bytes > ALERT_BATCH_MAX_BYTES) break;
      length += 1;
    }
    return length;
  }

  private async flush(batch: Waiter[]): Promise<void> {
    try {
      const outcomes = await this.ingestWithRetries(batch.map((w) => w.entry));
      batch.forEach((waiter, i) => waiter.resolve(outcomes[i]));
      return;
    } catch (error) {
      if (batch.length === 1 || !isPayloadError(error)) {
        for (const waiter of batch) waiter.reject(error);
        return;
      }
      this.logger.warn(`a batch of ${batch.length} alert payloads failed (${(error as Error).message}): retrying them one by one`);
    }
    for (const waiter of batch) {
      try {
        const [outcome] = await this.ingestWithRetries([waiter.entry]);
        waiter.resolve(outcome);
      } catch (error) {
        waiter.reject(error);
      }
    }
  }

  private async ingestWithRetries(entries: AlertBatchEntry[]): Promise<IngestOutcome[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.ingest(entries);
      } catch (error) {
        const retryable = isRetryableTransactionError(error) || uniqueViolation(error) === 'alerts_open_fingerprint_key' || missingPreparedStatement(error);
        if (!retryable || attempt >= BATCH_ATTEMPTS) throw error;
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 5 * attempt) + 1));
      }
    }
  }

  /** One batch, one transaction, two round trips. */
  private async ingest(entries: AlertBatchEntry[]): Promise<IngestOutcome[]> {
    const [connection, release] = await this.batches.connect();
    let broken: unknown;
    try {
      return await this.ingestOn(connection, entries);
    } catch (error) {
      try {
        await this.batches.rollback(connection);
      } catch (rollbackError) {
        broken = rollbackError;
      }
      throw error;
    } finally {
      release(broken);
    }
  }

  private async ingestOn(connection: BatchConnection, entries: AlertBatchEntry[]): Promise<IngestOutcome[]> {
    const inputs = entries.map((e) => e.input);
    // Payloads that may open an alert take their project's counter lock first: it serializes
    // alert creation per project, so the open alerts read next cannot gain a new sibling.
    const creating = [...new Set(inputs.filter((i) => !i.alert.endedAt).map((i) => i.projectId))].sort((a, b) => a - b);
    const keys = new Map<string, { projectId: number; fingerprint: string }>();
    for (const input of inputs) {
      if (input.alert.fingerprint !== null) keys.set(openAlertKey(input.projectId, input.alert.fingerprint), { projectId: input.projectId, fingerprint: input.alert.fingerprint });
    }
    const { lastIids, open } = await this.batches.begin(connection, creating, [...keys.values()]);
    const plan = planAlertBatch(inputs, open, lastIids);
    const createdRef = new Map(plan.created.map((state, ref) => [state, ref]));

    const recoveries: UnmatchedRecoveryRow[] = [];
    const notes: NoteRow[] = [];
    const events: OutboxRow[] = [];
    plan.steps.forEach((step, ord) => {
      const entry = entries[ord];
      const alert = entry.input.alert;
      const source = alert.monitoringTool ?? entry.integration.name;
      const base = { actor: entry.actorId, projectId: entry.project.id, groupId: entry.project.groupId };
      let event: NewDomainEvent;
      let alertRef: number | null = null;
      let recoveryRef: number | null = null;
      if (step.kind === 'unmatched_recovery') {
        recoveryRef = ord;
        recoveries.push({
          ref: ord,
          project_id: entry.input.projectId,
          integration_id: entry.input.integrationId,
          fingerprint: alert.fingerprint,
          title: alert.title,
          ended_at: alert.endedAt!,
          payload: entry.payload,
        });
        event = {
          ...base,
          type: ALERT_EVENTS.RECOVERY_UNMATCHED,
          target: null,
          data: {
            recovery_id: 0,
            title: alert.title,
            fingerprint: alert.fingerprint,
            ended_at: alert.endedAt!.toISOString(),
            integration: { id: entry.integration.id, name: entry.integration.name },
          },
        };
      } else {
        // The id of an alert created by this batch is drawn by the write: filled in there.
        alertRef = step.state.isNew ? createdRef.get(step.state)! : null;
        const row = rowOf(step);
        const target = { type: 'alert', id: row.id, iid: row.iid, title: row.title };
        const data = alertEventData(row, entry.integration);
        const note = (body: string) => notes.push({ alert_id: alertRef === null ? row.id : null, alert_ref: alertRef, author_id: null, body });
        if (step.kind === 'created') {
          note(`logged an alert from **${source}**`);
          event = { ...base, type: ALERT_EVENTS.CREATED, target, data };
        } else if (step.kind === 'grouped') {
          event = { ...base, type: ALERT_EVENTS.GROUPED, target, data };
        } else {
          note(`logged a recovery alert from **${source}**`);
          event = { ...base, type: ALERT_EVENTS.RESOLVED, target, data: { ...data, previous_status: step.previousStatus } };
        }
      }
      const built = buildDomainEvent(event);
      events.push({
        id: built.id,
        topic: this.outbox.topic,
        message_key: messageKeyOf(built),
        payload: built as unknown as Record<string, unknown>,
        headers: entry.requestId ? { 'x-request-id': entry.requestId } : {},
        alert_ref: alertRef,
        recovery_ref: recoveryRef,
      });
    });

    const recoveryIds = await this.batches.commit(connection, {
      created: plan.created,
      updated: plan.updated,
      lastIids: plan.lastIids,
      recoveries,
      notes,
      events,
      outboxChannel: OUTBOX_NOTIFY_CHANNEL,
    });
    return plan.steps.map((step, ord): IngestOutcome => {
      if (step.kind === 'unmatched_recovery') return { kind: 'unmatched_recovery', recoveryId: recoveryIds.get(ord)! };
      const row = rowOf(step);
      if (step.kind === 'resolved') return { kind: 'resolved', alert: row, previousStatus: step.previousStatus };
      return { kind: step.kind, alert: row };
    });
  }
}
