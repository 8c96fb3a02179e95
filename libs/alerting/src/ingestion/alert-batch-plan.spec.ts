import { normalizeAlert } from '../engine/normalize-alert';
import { AlertState, BatchAlertInput, planAlertBatch } from './alert-batch-plan';

const now = new Date('2026-03-01T10:00:00Z');
const input = (payload: Record<string, unknown>, projectId = 1): BatchAlertInput => ({
  projectId,
  integrationId: 7,
  alert: normalizeAlert(payload, { now }),
  receivedAt: now,
});

const loaded = (overrides: Partial<AlertState>): AlertState => ({
  id: 50,
  project_id: 1,
  iid: 4,
  title: 'Loaded',
  description: null,
  severity: 'high',
  status: 'acknowledged',
  service: null,
  monitoring_tool: null,
  hosts: [],
  started_at: now,
  ended_at: null,
  event_count: 3,
  fingerprint: null,
  environment: null,
  integration_id: 7,
  last_received_at: now,
  details: {},
  isNew: false,
  touched: false,
  ...overrides,
});

describe(planAlertBatch.name, () => {
  it('groups every repeat of a new fingerprint inside one batch into one alert', () => {
    const inputs = Array.from({ length: 100 }, () => input({ title: 'disk', fingerprint: 'disk' }));
    const sut = planAlertBatch(inputs, [], new Map([[1, 0]]));

    expect(sut.created).toHaveLength(1);
    expect(sut.created[0]).toMatchObject({ iid: 1, event_count: 100, status: 'triggered' });
    expect(sut.steps.map((s) => s.kind)).toEqual(['created', ...Array(99).fill('grouped')]);
    // Each payload's event reports the count right after it.
    expect(sut.steps.map((s) => ('snapshot' in s ? s.snapshot.event_count : null))).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(sut.lastIids).toEqual(new Map([[1, 1]]));
    expect(sut.updated).toEqual([]);
  });

  it('applies payloads in order: created, resolved, then a repeat opens a new alert with the next iid', () => {
    const sut = planAlertBatch(
      [
        input({ title: 'cpu', fingerprint: 'cpu' }),
        input({ title: 'cpu', fingerprint: 'cpu', end_time: '2026-03-01T09:59:00Z' }),
        input({ title: 'cpu again', fingerprint: 'cpu' }),
        input({ title: 'cpu again', fingerprint: 'cpu' }),
      ],
      [],
      new Map([[1, 41]]),
    );
    expect(sut.steps.map((s) => s.kind)).toEqual(['created', 'resolved', 'created', 'grouped']);
    expect(sut.created.map((a) => [a.iid, a.status, a.event_count, a.ended_at])).toEqual([
      [42, 'resolved', 1, new Date('2026-03-01T09:59:00Z')],
      [43, 'triggered', 2, null],
    ]);
    const resolved = sut.steps[1];
    // A recovery resolves without registering an event (GitLab counts only triggering payloads).
    expect(resolved).toMatchObject({ kind: 'resolved', previousStatus: 'triggered', snapshot: { status: 'resolved', event_count: 1 } });
    // The first payload's event still reports the alert as it was then.
    expect(sut.steps[0]).toMatchObject({ snapshot: { status: 'triggered', ended_at: null, event_count: 1 } });
    expect(sut.lastIids).toEqual(new Map([[1, 43]]));
  });

  it('updates loaded open alerts, keeps their status on a repeat and reports it before a recovery', () => {
    const fingerprint = normalizeAlert({ fingerprint: 'net' }, { now }).fingerprint!;
    const open = loaded({ fingerprint });
    const sut = planAlertBatch(
      [input({ fingerprint: 'net' }), input({ fingerprint: 'net', end_time: 'garbage' }), input({ fingerprint: 'net', end_time: '2026-03-01T09:00:00Z' })],
      [open],
      new Map(),
    );
    expect(sut.steps.map((s) => s.kind)).toEqual(['grouped', 'resolved', 'unmatched_recovery']);
    expect(sut.steps[0]).toMatchObject({ snapshot: { status: 'acknowledged', event_count: 4 } });
    expect(sut.steps[1]).toMatchObject({ previousStatus: 'acknowledged', snapshot: { status: 'resolved', event_count: 4, ended_at: now } });
    expect(sut.updated).toEqual([open]);
    expect(sut.created).toEqual([]);
    expect(sut.lastIids.size).toBe(0);
  });

  it('opens an alert for every payload without fingerprint, numbering each project on its own', () => {
    const sut = planAlertBatch(
      [input({ title: 'a' }), input({ title: 'b' }, 2), input({ title: 'a' })],
      [],
      new Map([
        [1, 0],
        [2, 9],
      ]),
    );
    expect(sut.created.map((a) => [a.project_id, a.iid, a.title])).toEqual([
      [1, 1, 'a'],
      [2, 10, 'b'],
      [1, 2, 'a'],
    ]);
  });

  it('keeps the same fingerprint of two projects apart', () => {
    const fingerprint = normalizeAlert({ fingerprint: 'x' }, { now }).fingerprint!;
    const sut = planAlertBatch([input({ fingerprint: 'x' }, 2)], [loaded({ fingerprint, project_id: 1 })], new Map([[2, 0]]));
    expect(sut.steps.map((s) => s.kind)).toEqual(['created']);
  });

  it('refuses to number an alert of a project whose counter was not locked', () => {
    expect(() => planAlertBatch([input({ title: 'a' }, 3)], [], new Map())).toThrow(/counter of project 3/);
  });
});
