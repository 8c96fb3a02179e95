import { AppConfig } from '@app/config';
import { createDataSource, retryTransaction } from '@app/database';
import { createTestDatabase } from '@app/testing';
import { DataSource } from 'typeorm';
import { AlertsRepository, IngestOutcome } from './alerts.repository';
import { normalizeAlert } from './engine/normalize-alert';

/** The ingestion statements against PostgreSQL under concurrency: grouping, resolution and gap-free iids. */
describe('AlertsRepository.ingest (PostgreSQL)', () => {
  let dataSource: DataSource;
  let drop: () => Promise<void>;
  let sut: AlertsRepository;
  let projectId: number;

  beforeAll(async () => {
    const db = await createTestDatabase('alerts_repo');
    drop = db.drop;
    dataSource = await createDataSource(AppConfig.fromEnvironment({ DATABASE_URL: db.url })).initialize();
    sut = new AlertsRepository(dataSource);
    const [namespace] = await dataSource.query(
      `INSERT INTO namespaces (name, path, full_path, full_name, kind) VALUES ('grp', 'grp', 'grp', 'grp', 'group') RETURNING id`,
    );
    const [project] = await dataSource.query(`INSERT INTO projects (name, path, namespace_id) VALUES ('p', 'p', $1) RETURNING id`, [namespace.id]);
    projectId = project.id;
  });

  afterAll(async () => {
    await dataSource.destroy();
    await drop();
  });

  // As IngestAlertUseCase runs it: one transaction, re-run when PostgreSQL picks it as a deadlock victim.
  const ingest = (payload: Record<string, unknown>): Promise<IngestOutcome> =>
    retryTransaction(() =>
      dataSource.transaction((manager) => {
        const receivedAt = new Date();
        return sut.ingest(manager, { projectId, integrationId: null, alert: normalizeAlert(payload, { now: receivedAt }), receivedAt, payload });
      }),
    );

  it('keeps one open alert per fingerprint, counts every event and leaves no iid gap under a concurrent mixed stream', async () => {
    const fingerprints = Array.from({ length: 8 }, (_, i) => `fp-${i}`);
    const stream = Array.from({ length: 240 }, (_, i) => {
      const fingerprint = fingerprints[i % fingerprints.length];
      return i % 7 === 6 ? { title: fingerprint, fingerprint, end_time: new Date().toISOString() } : { title: fingerprint, fingerprint };
    });
    const outcomes = await Promise.all(stream.map((payload) => ingest(payload)));

    const kinds = outcomes.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o.kind]: (acc[o.kind] ?? 0) + 1 }), {});
    const alerts = (await dataSource.query('SELECT iid, fingerprint, status, event_count FROM alerts WHERE project_id = $1 ORDER BY iid', [projectId])) as Array<{
      iid: number;
      fingerprint: string;
      status: string;
      event_count: number;
    }>;
    expect(alerts.map((a) => a.iid)).toEqual(Array.from({ length: alerts.length }, (_, i) => i + 1));
    expect(alerts).toHaveLength(kinds.created);
    const [counter] = await dataSource.query('SELECT last_iid FROM alert_iid_counters WHERE project_id = $1', [projectId]);
    expect(counter.last_iid).toBe(alerts.length);

    const open = alerts.filter((a) => a.status !== 'resolved');
    expect(new Set(open.map((a) => a.fingerprint)).size).toBe(open.length);

    const [unmatched] = await dataSource.query('SELECT count(*)::int AS n FROM alert_unmatched_recoveries WHERE project_id = $1', [projectId]);
    const events = alerts.reduce((sum, a) => sum + a.event_count, 0);
    expect(events + unmatched.n).toBe(stream.length);
    expect(unmatched.n).toBe(kinds.unmatched_recovery ?? 0);
  });

  it('a payload without fingerprint always opens a new alert; a resolved alert never takes repeats', async () => {
    const a = await ingest({ title: 'no fp' });
    const b = await ingest({ title: 'no fp' });
    expect([a.kind, b.kind]).toEqual(['created', 'created']);

    const first = await ingest({ title: 'cycle', fingerprint: 'cycle' });
    const resolved = await ingest({ title: 'cycle', fingerprint: 'cycle', end_time: '2026-01-01T00:00:00Z' });
    const again = await ingest({ title: 'cycle', fingerprint: 'cycle' });
    expect(first.kind).toBe('created');
    expect(resolved).toMatchObject({ kind: 'resolved', previousStatus: 'triggered' });
    expect(again.kind).toBe('created');
    if (first.kind !== 'created' || again.kind !== 'created' || resolved.kind !== 'resolved') throw new Error('unexpected outcome');
    expect(resolved.alert.id).toBe(first.alert.id);
    expect(resolved.alert.ended_at).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(again.alert.iid).toBe(first.alert.iid + 1);
  });
});
