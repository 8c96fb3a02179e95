import { normalizeAlert } from '../engine/normalize-alert';
import { AlertState, planAlertBatch } from './alert-batch-plan';
import { AlertBatchEntry, batchOutcomes, buildAlertBatchRows } from './alert-batch-rows';

const now = new Date('2026-03-01T10:00:00Z');
const integration = { id: 7, name: 'Prom', createIncident: true, autoCloseIncident: false };

const entry = (payload: Record<string, unknown>, extra: Partial<AlertBatchEntry> = {}): AlertBatchEntry => ({
  input: { projectId: 1, integrationId: 7, alert: normalizeAlert(payload, { now }), receivedAt: now },
  project: { id: 1, groupId: 3 },
  integration,
  payload,
  actorId: null,
  bytes: 10,
  ...extra,
});

const loaded: AlertState = {
  id: 50,
  project_id: 1,
  iid: 4,
  title: 'Loaded',
  description: null,
  severity: 'high',
  status: 'acknowledged',
  service: null,
  monitoring_tool: 'Grafana',
  hosts: [],
  started_at: now,
  ended_at: null,
  event_count: 3,
  fingerprint: normalizeAlert({ title: 'old', fingerprint: 'old' }, { now }).fingerprint,
  environment: null,
  integration_id: 7,
  last_received_at: now,
  details: {},
  isNew: false,
  touched: false,
};

describe(buildAlertBatchRows.name, () => {
  const entries = [
    entry({ title: 'disk', fingerprint: 'disk' }, { outboxContext: { requestId: 'req-1', extras: { hook_chain: { id: 'c', depth: 2 } } } }),
    entry({ title: 'disk', fingerprint: 'disk' }, { actorId: 9 }),
    entry({ title: 'old', fingerprint: 'old', end_time: '2026-03-01T09:59:00Z' }),
    entry({ title: 'gone', fingerprint: 'gone', end_time: '2026-03-01T09:59:00Z' }),
  ];
  const plan = planAlertBatch(
    entries.map((e) => e.input),
    [{ ...loaded }],
    new Map([[1, 10]]),
  );
  const sut = buildAlertBatchRows(entries, plan, 'x.domain-events.v1');

  it('writes one outbox row per payload here (each alert’s last step), in order, through the messaging row builder', () => {
    expect(sut.events.map((e) => e.payload.type)).toEqual(['alert.created', 'alert.grouped', 'alert.resolved', 'alert.recovery_unmatched']);
    for (const row of sut.events) {
      expect(row).toMatchObject({ id: row.payload.id, topic: 'x.domain-events.v1', message_key: '1' });
      expect(row.payload).toMatchObject({ version: 1, project_id: 1, group_id: 3 });
    }
    expect(sut.events[1].payload.actor).toBe(9);
  });

  it('carries each payload request id and envelope extras (the hook chain) to its own row only', () => {
    expect(sut.events[0].headers).toEqual({ 'x-request-id': 'req-1' });
    expect(sut.events[0].payload).toMatchObject({ hook_chain: { id: 'c', depth: 2 } });
    expect(sut.events[1].headers).toEqual({});
    expect(sut.events[1].payload).not.toHaveProperty('hook_chain');
  });

  it('marks the ids the write draws: new alerts by their index in the plan, recoveries by the entry index', () => {
    expect(sut.events.map((e) => [e.alert_ref, e.recovery_ref])).toEqual([
      [0, null],
      [0, null],
      [null, null],
      [null, 3],
    ]);
    expect(sut.events[2].payload).toMatchObject({
      target: { type: 'alert', id: 50, iid: 4 },
      data: { alert_id: 50, status: 'resolved', previous_status: 'acknowledged', event_count: 3 },
    });
    expect(sut.events[0].payload).toMatchObject({
      target: { type: 'alert', id: 0, iid: 11, title: 'disk' },
      data: { iid: 11, event_count: 1, integration: { id: 7, name: 'Prom', create_incident: true, auto_close_incident: false } },
    });
    expect(sut.events[1].payload.data).toMatchObject({ iid: 11, event_count: 2, status: 'triggered' });
  });

  it('logs a system note for a new alert and a recovery, on the new alert by reference or the loaded one by id', () => {
    expect(sut.notes).toEqual([
      { alert_id: null, alert_ref: 0, author_id: null, body: 'logged an alert from **Prom**' },
      { alert_id: 50, alert_ref: null, author_id: null, body: 'logged a recovery alert from **Prom**' },
    ]);
  });

  it('keeps an unmatched recovery with its raw payload', () => {
    expect(sut.recoveries).toEqual([
      {
        ref: 3,
        project_id: 1,
        integration_id: 7,
        fingerprint: expect.any(String),
        title: 'gone',
        ended_at: new Date('2026-03-01T09:59:00Z'),
        payload: entries[3].payload,
      },
    ]);
    expect(sut.events[3].payload).toMatchObject({
      target: null,
      data: { recovery_id: 0, title: 'gone', ended_at: '2026-03-01T09:59:00.000Z', integration: { id: 7, name: 'Prom' } },
    });
  });

  it('writes one alert.grouped per alert and batch, at its last repeat, and none when a creation or recovery ends the alert’s steps', () => {
    const repeats = [
      entry({ title: 'a', fingerprint: 'a' }),
      entry({ title: 'a', fingerprint: 'a' }),
      entry({ title: 'old', fingerprint: 'old' }),
      entry({ title: 'a', fingerprint: 'a' }, { outboxContext: { requestId: 'req-last' } }),
      entry({ title: 'old', fingerprint: 'old' }),
      entry({ title: 'old', fingerprint: 'old', end_time: '2026-03-01T09:59:00Z' }),
      entry({ title: 'b', fingerprint: 'b' }),
    ];
    const repeatPlan = planAlertBatch(
      repeats.map((e) => e.input),
      [{ ...loaded }],
      new Map([[1, 10]]),
    );
    const rows = buildAlertBatchRows(repeats, repeatPlan, 't');
    expect(rows.events.map((e) => [e.payload.type, e.payload.data.iid, e.payload.data.event_count])).toEqual([
      ['alert.created', 11, 1],
      ['alert.grouped', 11, 3],
      ['alert.resolved', 4, 5],
      ['alert.created', 12, 1],
    ]);
    expect(rows.events[1].headers).toEqual({ 'x-request-id': 'req-last' });
    expect(batchOutcomes(repeatPlan, new Map()).map((o) => o.kind)).toEqual(['created', 'grouped', 'grouped', 'grouped', 'grouped', 'resolved', 'created']);
  });

  it('reports the repeats of alerts open before the batch in one alert.repeats per project, after the other events', () => {
    const other: AlertState = {
      ...loaded,
      id: 60,
      iid: 5,
      title: 'Other',
      status: 'triggered',
      event_count: 9,
      fingerprint: normalizeAlert({ title: 'x', fingerprint: 'other' }, { now }).fingerprint,
    };
    const batch = [
      entry({ title: 'old', fingerprint: 'old' }),
      entry({ title: 'x', fingerprint: 'other' }),
      entry({ title: 'new', fingerprint: 'new' }),
      entry({ title: 'old', fingerprint: 'old' }, { actorId: 4, outboxContext: { requestId: 'req-old' } }),
    ];
    const repeatPlan = planAlertBatch(
      batch.map((e) => e.input),
      [{ ...loaded }, other],
      new Map([[1, 10]]),
    );
    const rows = buildAlertBatchRows(batch, repeatPlan, 't');
    expect(rows.events.map((e) => e.payload.type)).toEqual(['alert.created', 'alert.repeats']);
    const [, repeats] = rows.events;
    expect(repeats.payload).toMatchObject({ actor: 4, project_id: 1, group_id: 3, target: null });
    expect(repeats.headers).toEqual({ 'x-request-id': 'req-old' });
    expect(repeats.payload.data).toEqual({
      alerts: [
        { alert_id: 60, iid: 5, title: 'Other', severity: 'high', status: 'triggered', fingerprint: other.fingerprint, event_count: 10 },
        { alert_id: 50, iid: 4, title: 'Loaded', severity: 'high', status: 'acknowledged', fingerprint: loaded.fingerprint, event_count: 5 },
      ],
    });
    expect([repeats.alert_ref, repeats.recovery_ref]).toEqual([null, null]);
  });

  it('answers each payload with what it did once the ids are known', () => {
    plan.created[0].id = 77;
    const outcomes = batchOutcomes(plan, new Map([[3, 5]]));
    expect(outcomes.map((o) => o.kind)).toEqual(['created', 'grouped', 'resolved', 'unmatched_recovery']);
    expect(outcomes[0]).toMatchObject({ alert: { id: 77, iid: 11, event_count: 1 } });
    expect(outcomes[2]).toMatchObject({ previousStatus: 'acknowledged', alert: { id: 50, status: 'resolved' } });
    expect(outcomes[3]).toEqual({ kind: 'unmatched_recovery', recoveryId: 5 });
  });
});
