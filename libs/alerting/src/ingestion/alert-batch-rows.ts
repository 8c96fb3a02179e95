import { outboxHeaders, outboxRecordOf, type DomainEventData, type NewDomainEvent, type OutboxContext } from '@app/messaging';
import { ALERT_EVENTS } from '../core/alerting.events';
import type { AlertRow, IngestOutcome } from '../core/alerts.repository';
import type { AlertHttpIntegrationEntity } from '../entities/alert-http-integration.entity';
import type { AlertBatchPlan, AlertState, BatchAlertInput, PlannedStep } from './alert-batch-plan';
import type { NoteRow, OutboxRow, UnmatchedRecoveryRow } from './alert-batch.repository';

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
  /** What the payload's outbox row carries from its request (request id, hook chain), captured when it was submitted. */
  outboxContext?: OutboxContext;
  /** Size of the payload as received, in bytes (bounds the size of a batch). */
  bytes: number;
}

/** The rows a batch writes besides the alerts and counters of its plan. */
export interface AlertBatchRows {
  recoveries: UnmatchedRecoveryRow[];
  notes: NoteRow[];
  events: OutboxRow[];
}

export const alertEventData = (alert: AlertRow, integration: IngestIntegration): DomainEventData<'alert.created'> => ({
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

/** The alert as the step left it (the snapshot's status, end and count; the rest is the final state). */
export const alertRowOf = (step: Extract<PlannedStep, { state: AlertState }>): AlertRow => {
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

const NO_CONTEXT: OutboxContext = {};

/**
 * The unmatched recoveries, system notes and outbox rows of a planned batch, one step per
 * entry in order: a new alert logs a note and `alert.created`, a recovery a note and
 * `alert.resolved`, an unmatched recovery its row and `alert.recovery_unmatched`. Repeats are
 * the bulk of the stream and change nothing but the count (the live stream is the only
 * consumer of their events): an alert whose last step in the batch is a repeat is reported once
 * with the count the batch leaves — in the project's one `alert.repeats` of the batch (after its
 * other events) when it was open before, in an `alert.grouped` at its last repeat when the
 * batch created it (its id is drawn by the write) — and not at all when its last step is a
 * creation or a recovery (their events carry the count). The last repeat of a project gives
 * `alert.repeats` its actor and request context. Ids drawn by the write are marked by reference (`alert_ref`: the
 * index in `plan.created`; `recovery_ref`: the entry's index). Each outbox row is built by the
 * messaging library's one writer (`outboxRecordOf`) with the entry's captured context. Pure
 * but for event ids and times.
 */
export function buildAlertBatchRows(entries: readonly AlertBatchEntry[], plan: AlertBatchPlan, topic: string): AlertBatchRows {
  const createdRef = new Map(plan.created.map((state, ref) => [state, ref]));
  const recoveries: UnmatchedRecoveryRow[] = [];
  const notes: NoteRow[] = [];
  const events: OutboxRow[] = [];
  const lastStepOf = new Map<AlertState, number>();
  plan.steps.forEach((step, ord) => {
    if (step.kind !== 'unmatched_recovery') lastStepOf.set(step.state, ord);
  });
  // Repeats of loaded alerts, by project: one `alert.repeats` each, after the batch's other events.
  const repeats = new Map<number, { entry: AlertBatchEntry; alerts: DomainEventData<'alert.repeats'>['alerts'] }>();
  const pushRow = (event: NewDomainEvent, entry: AlertBatchEntry, alertRef: number | null, recoveryRef: number | null) => {
    const context = entry.outboxContext ?? NO_CONTEXT;
    const row = outboxRecordOf(event, topic, context, outboxHeaders(context)) as OutboxRow;
    row.alert_ref = alertRef;
    row.recovery_ref = recoveryRef;
    events.push(row);
  };
  plan.steps.forEach((step, ord) => {
    if (step.kind === 'grouped' && lastStepOf.get(step.state) !== ord) return;
    const entry = entries[ord];
    if (step.kind === 'grouped' && !step.state.isNew) {
      const s = step.state;
      const project = repeats.get(entry.project.id) ?? { entry, alerts: [] };
      project.entry = entry;
      project.alerts.push({
        alert_id: s.id,
        iid: s.iid,
        title: s.title,
        severity: s.severity,
        status: step.snapshot.status,
        fingerprint: s.fingerprint,
        event_count: step.snapshot.event_count,
      });
      repeats.set(entry.project.id, project);
      return;
    }
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
      const row = alertRowOf(step);
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
    pushRow(event, entry, alertRef, recoveryRef);
  });
  for (const [projectId, { entry, alerts }] of repeats) {
    pushRow({ type: ALERT_EVENTS.REPEATS, actor: entry.actorId, projectId, groupId: entry.project.groupId, target: null, data: { alerts } }, entry, null, null);
  }
  return { recoveries, notes, events };
}

/** What each entry of a committed batch did, in order (`recoveryIds` by entry index, from the write). */
export function batchOutcomes(plan: AlertBatchPlan, recoveryIds: ReadonlyMap<number, number>): IngestOutcome[] {
  return plan.steps.map((step, ord): IngestOutcome => {
    if (step.kind === 'unmatched_recovery') return { kind: 'unmatched_recovery', recoveryId: recoveryIds.get(ord)! };
    const row = alertRowOf(step);
    if (step.kind === 'resolved') return { kind: 'resolved', alert: row, previousStatus: step.previousStatus };
    return { kind: step.kind, alert: row };
  });
}
