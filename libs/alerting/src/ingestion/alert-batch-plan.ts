import type { AlertRow } from '../core/alerts.repository';
import type { AlertStatus } from '../engine/alert-severity';
import type { NormalizedAlert } from '../engine/normalize-alert';

/** One accepted payload of a batch, in arrival order. */
export interface BatchAlertInput {
  projectId: number;
  integrationId: number | null;
  alert: NormalizedAlert;
  receivedAt: Date;
}

/**
 * An alert as a batch sees it: an open alert loaded (row-locked) from the database, or an
 * alert created by an earlier payload of the same batch (`id` 0 until it is inserted).
 */
export interface AlertState extends AlertRow {
  project_id: number;
  last_received_at: Date;
  details: Record<string, unknown>;
  isNew: boolean;
  /** Changed by the batch: written back at the end. */
  touched: boolean;
}

/** The alert's changing attributes right after one payload (what that payload's event reports). */
export type AlertSnapshot = Pick<AlertRow, 'status' | 'ended_at' | 'event_count'>;

export type PlannedStep =
  | { kind: 'created'; state: AlertState; snapshot: AlertSnapshot }
  | { kind: 'grouped'; state: AlertState; snapshot: AlertSnapshot }
  | { kind: 'resolved'; state: AlertState; snapshot: AlertSnapshot; previousStatus: AlertStatus }
  | { kind: 'unmatched_recovery' };

export interface AlertBatchPlan {
  /** One step per input, same order. */
  steps: PlannedStep[];
  /** Alerts to insert (final state), in creation order. */
  created: AlertState[];
  /** Loaded alerts changed by the batch (final state). */
  updated: AlertState[];
  /** New `last_iid` of each project where the batch created alerts. */
  lastIids: Map<number, number>;
}

export const openAlertKey = (projectId: number, fingerprint: string): string => `${projectId}:${fingerprint}`;

const snapshotOf = (state: AlertState): AlertSnapshot => ({ status: state.status, ended_at: state.ended_at, event_count: state.event_count });

/**
 * Applies a batch of payloads, in order, to the open alerts they can touch, exactly as if
 * each payload had been ingested alone one after the other: a repeat of an open fingerprint
 * adds an event to it, a recovery resolves it (then the fingerprint has no open alert, so a
 * later repeat opens a new one), a payload without fingerprint always opens an alert, and a
 * recovery that matches nothing is an unmatched recovery. New alerts take consecutive iids
 * after `lastIids` (the projects' counters, read under their row lock). Pure.
 */
export function planAlertBatch(inputs: readonly BatchAlertInput[], openAlerts: readonly AlertState[], lastIids: ReadonlyMap<number, number>): AlertBatchPlan {
  const open = new Map<string, AlertState>();
  for (const state of openAlerts) {
    if (state.fingerprint !== null && state.status !== 'resolved') open.set(openAlertKey(state.project_id, state.fingerprint), state);
  }
  const counters = new Map<number, number>();
  const steps: PlannedStep[] = [];
  const created: AlertState[] = [];

  for (const input of inputs) {
    const { alert, projectId, receivedAt } = input;
    const key = alert.fingerprint !== null ? openAlertKey(projectId, alert.fingerprint) : null;
    const current = key !== null ? open.get(key) : undefined;

    if (alert.endedAt) {
      if (!current) {
        steps.push({ kind: 'unmatched_recovery' });
        continue;
      }
      const previousStatus = current.status;
      current.status = 'resolved';
      current.ended_at = alert.endedAt;
      // A recovery resolves without registering an event: only triggering payloads count (GitLab).
      current.last_received_at = receivedAt;
      current.touched = true;
      open.delete(key!);
      steps.push({ kind: 'resolved', state: current, snapshot: snapshotOf(current), previousStatus });
      continue;
    }

    if (current) {
      current.event_count += 1;
      current.last_received_at = receivedAt;
      current.touched = true;
      steps.push({ kind: 'grouped', state: current, snapshot: snapshotOf(current) });
      continue;
    }

    const last = counters.get(projectId) ?? lastIids.get(projectId);
    if (last === undefined) throw new Error(`the iid counter of project ${projectId} was not locked`);
    const iid = last + 1;
    counters.set(projectId, iid);
    const state: AlertState = {
      id: 0,
      project_id: projectId,
      iid,
      title: alert.title,
      description: alert.description,
      severity: alert.severity,
      status: 'triggered',
      service: alert.service,
      monitoring_tool: alert.monitoringTool,
      hosts: alert.hosts,
      started_at: alert.startedAt,
      ended_at: null,
      event_count: 1,
      fingerprint: alert.fingerprint,
      environment: alert.environment,
      integration_id: input.integrationId,
      last_received_at: receivedAt,
      details: alert.details,
      isNew: true,
      touched: true,
    };
    created.push(state);
    if (key !== null) open.set(key, state);
    steps.push({ kind: 'created', state, snapshot: snapshotOf(state) });
  }

  const updated = [...new Set(openAlerts)].filter((state) => state.touched && !state.isNew);
  return { steps, created, updated, lastIids: counters };
}
