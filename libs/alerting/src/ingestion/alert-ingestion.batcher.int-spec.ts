import { AppConfig } from '@app/config';
import { createDataSource } from '@app/database';
import { OutboxService } from '@app/messaging';
import { MetricsService } from '@app/observability';
import { createTestDatabase, eventually } from '@app/testing';
import { DataSource } from 'typeorm';
import { AlertingMetrics } from '../core/alerting.metrics';
import type { IngestOutcome } from '../core/alerts.repository';
import { normalizeAlert } from '../engine/normalize-alert';
import { AlertBatchRepository, BATCH_STATEMENTS } from './alert-batch.repository';
import { AlertIngestionBatcher } from './alert-ingestion.batcher';
import { ENTITIES } from '@apps/entities';

/** Group commit of alert ingestion against PostgreSQL: same results as one payload at a time, under concurrency. */
describe('AlertIngestionBatcher (PostgreSQL)', () => {
  let dataSource: DataSource;
  let drop: () => Promise<void>;
  let config: AppConfig;
  let integrationId: number;
  let projectCount = 0;

  beforeAll(async () => {
    const db = await createTestDatabase('alert_batches');
    drop = db.drop;
    config = AppConfig.fromEnvironment({ DATABASE_URL: db.url, KAFKA_TOPIC_PREFIX: 'batch-test' });
    dataSource = await createDataSource(config, ENTITIES).initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
    await drop();
  });

  /** A fresh project with an integration. */
  async function newProject(): Promise<number> {
    projectCount += 1;
    const [namespace] = await dataSource.query(
      `INSERT INTO namespaces (name, path, full_path, full_name, kind) VALUES ($1, $1, $1, $1, 'group') RETURNING id`,
      [`grp${projectCount}`],
    );
    const [project] = await dataSource.query(`INSERT INTO projects (name, path, namespace_id) VALUES ('p', 'p', $1) RETURNING id`, [namespace.id]);
    const [integration] = await dataSource.query(
      `INSERT INTO alert_http_integrations (project_id, name, endpoint_identifier, token_digest) VALUES ($1, 'Prom', $2, repeat('0', 64)) RETURNING id`,
      [project.id, `ep${projectCount}`],
    );
    integrationId = integration.id;
    return project.id;
  }

  const batcher = (overrides: Record<string, string> = {}, metrics?: AlertingMetrics) =>
    new AlertIngestionBatcher(
      new AlertBatchRepository(dataSource),
      new OutboxService(config),
      AppConfig.fromEnvironment({ KAFKA_TOPIC_PREFIX: 'batch-test', ...overrides }),
      metrics,
    );

  const submit = (
    sut: AlertIngestionBatcher,
    projectId: number,
    payload: Record<string, unknown>,
    integration = integrationId,
    bytes?: number,
  ): Promise<IngestOutcome> => {
    const receivedAt = new Date();
    return sut.submit({
      input: { projectId, integrationId: integration, alert: normalizeAlert(payload, { now: receivedAt }), receivedAt },
      project: { id: projectId, groupId: null },
      integration: { id: integration, name: 'Prom', createIncident: false, autoCloseIncident: true },
      payload,
      actorId: null,
      bytes: bytes ?? JSON.stringify(payload).length,
    });
  };

  const alertsOf = (projectId: number): Promise<Array<{ id: number; iid: number; fingerprint: string | null; status: string; event_count: number }>> =>
    dataSource.query('SELECT id, iid, fingerprint, status, event_count FROM alerts WHERE project_id = $1 ORDER BY iid', [projectId]);

  const eventsOf = (projectId: number): Promise<Array<{ type: string; data: Record<string, any>; target: Record<string, any> | null }>> =>
    dataSource
      .query(`SELECT payload FROM outbox_events WHERE (payload->>'project_id')::int = $1 ORDER BY seq`, [projectId])
      .then((rows: Array<{ payload: { type: string; data: Record<string, unknown>; target: Record<string, unknown> | null } }>) => rows.map((r) => r.payload));

  it('groups 100 concurrent payloads of one new fingerprint, written in one batch, into one alert of 100 events', async () => {
    const projectId = await newProject();
    const sut = batcher({ ALERT_INGEST_IN_FLIGHT: '1' });
    const outcomes = await Promise.all(Array.from({ length: 100 }, () => submit(sut, projectId, { title: 'disk full', fingerprint: 'disk' })));

    expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'grouped')).toHaveLength(99);
    const alerts = await alertsOf(projectId);
    expect(alerts).toEqual([expect.objectContaining({ iid: 1, status: 'triggered', event_count: 100 })]);
    // All in one transaction: the outbox rows share the inserting transaction id.
    const [{ transactions }] = await dataSource.query(
      `SELECT count(DISTINCT xmin::text)::int AS transactions FROM outbox_events WHERE (payload->>'project_id')::int = $1`,
      [projectId],
    );
    expect(transactions).toBe(1);
    // The creation's event, then one alert.grouped for the batch's 99 repeats with the count they leave; the alert's id filled in.
    const events = await eventsOf(projectId);
    expect(events.map((e) => e.type)).toEqual(['alert.created', 'alert.grouped']);
    expect(events.map((e) => e.data.event_count)).toEqual([1, 100]);
    expect(new Set(events.flatMap((e) => [e.data.alert_id, e.target!.id]))).toEqual(new Set([alerts[0].id]));
    const notes = await dataSource.query('SELECT body, author_id FROM alert_notes WHERE alert_id = $1', [alerts[0].id]);
    expect(notes).toEqual([{ body: 'logged an alert from **Prom**', author_id: null }]);
  });

  it('keeps one open alert per fingerprint and gap-free iids when batches in flight create the same fingerprints', async () => {
    const projectId = await newProject();
    // One payload per batch, eight batches in flight. Another transaction holds the project's
    // iid counter row, so the first eight batches all read (no open alert) and then wait on it
    // to write: batches 5, 6 and 7 repeat the fingerprints of batches 0, 1 and 2, and are bound
    // to meet their creations once the counter is let go.
    const metrics = new AlertingMetrics(new MetricsService());
    const sut = batcher({ ALERT_INGEST_MAX_BATCH: '1', ALERT_INGEST_IN_FLIGHT: '8' }, metrics);
    const holder = dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await holder.query(
      'INSERT INTO alert_iid_counters (project_id, last_iid) VALUES ($1, 0) ON CONFLICT (project_id) DO UPDATE SET last_iid = alert_iid_counters.last_iid',
      [projectId],
    );
    const fingerprints = ['a', 'b', 'c', 'd', 'e'];
    let outcomes: IngestOutcome[];
    try {
      const submitted = Promise.all(Array.from({ length: 60 }, (_, i) => submit(sut, projectId, { title: `t${i % 5}`, fingerprint: fingerprints[i % 5] })));
      await eventually(
        async () => {
          const [{ waiting }] = await dataSource.query(
            `SELECT count(DISTINCT l.pid)::int AS waiting FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.datname = current_database()`,
          );
          return waiting >= 8 ? true : undefined;
        },
        'eight batches waiting on the held iid counter',
        30_000,
      );
      await holder.commitTransaction();
      outcomes = await submitted;
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }

    expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(5);
    const alerts = await alertsOf(projectId);
    expect(alerts.map((a) => a.iid)).toEqual([1, 2, 3, 4, 5]);
    expect(alerts.map((a) => a.event_count)).toEqual([12, 12, 12, 12, 12]);
    expect(new Set(alerts.map((a) => a.fingerprint)).size).toBe(5);
    // The answers and the creations' events carry the iids and ids the write drew.
    const created = outcomes.filter((o) => o.kind === 'created').map((o) => (o as { alert: { id: number; iid: number } }).alert);
    expect(created.map((a) => a.iid).sort()).toEqual([1, 2, 3, 4, 5]);
    const byId = new Map(alerts.map((a) => [a.id, a.iid]));
    for (const a of created) expect(byId.get(a.id)).toBe(a.iid);
    // Batches met creations of others and ran again under the counter locks.
    const retries = (await metrics.ingestBatchRetries.get()).values.find((v) => v.labels.reason === 'open_alert_created')?.value ?? 0;
    expect(retries).toBeGreaterThanOrEqual(3);
    expect(retries).toBeLessThanOrEqual(55);
    const creations = (await eventsOf(projectId)).filter((e) => e.type === 'alert.created');
    expect(creations.map((e) => [e.target!.id, e.target!.iid, e.data.alert_id, e.data.iid]).sort()).toEqual(
      alerts.map((a) => [a.id, a.iid, a.id, a.iid]).sort(),
    );
  });

  it('resolves, then opens a new alert for a repeat, inside one batch, and keeps an unmatched recovery', async () => {
    const projectId = await newProject();
    const sut = batcher();
    const outcomes = await Promise.all([
      submit(sut, projectId, { title: 'cpu', fingerprint: 'cpu' }),
      submit(sut, projectId, { title: 'cpu', fingerprint: 'cpu', end_time: '2026-01-01T00:00:00Z' }),
      submit(sut, projectId, { title: 'cpu', fingerprint: 'cpu' }),
      submit(sut, projectId, { title: 'mem', fingerprint: 'mem', end_time: '2026-01-01T00:00:00Z' }),
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(['created', 'resolved', 'created', 'unmatched_recovery']);
    const alerts = await alertsOf(projectId);
    expect(alerts.map((a) => [a.iid, a.status, a.event_count])).toEqual([
      [1, 'resolved', 1],
      [2, 'triggered', 1],
    ]);
    const [recovery] = await dataSource.query('SELECT id, title, integration_id FROM alert_unmatched_recoveries WHERE project_id = $1', [projectId]);
    expect(outcomes[3]).toEqual({ kind: 'unmatched_recovery', recoveryId: recovery.id });
    expect(recovery).toMatchObject({ title: 'mem', integration_id: integrationId });
    const events = await eventsOf(projectId);
    expect(events.map((e) => [e.type, e.data.alert_id ?? e.data.recovery_id])).toEqual([
      ['alert.created', alerts[0].id],
      ['alert.resolved', alerts[0].id],
      ['alert.created', alerts[1].id],
      ['alert.recovery_unmatched', recovery.id],
    ]);
    expect(events[1].data).toMatchObject({ status: 'resolved', previous_status: 'triggered', ended_at: '2026-01-01T00:00:00.000Z' });
  });

  it('keeps one open alert per fingerprint, every event and gap-free iids when several processes ingest a mixed stream at once', async () => {
    const projectId = await newProject();
    const processes = [batcher(), batcher(), batcher({ ALERT_INGEST_MAX_BATCH: '7' })];
    const fingerprints = Array.from({ length: 8 }, (_, i) => `fp-${i}`);
    const stream = Array.from({ length: 600 }, (_, i) => {
      const fingerprint = fingerprints[i % fingerprints.length];
      if (i % 11 === 5) return { title: 'no fingerprint' };
      return i % 7 === 6 ? { title: fingerprint, fingerprint, end_time: new Date().toISOString() } : { title: fingerprint, fingerprint };
    });
    const outcomes = await Promise.all(stream.map((payload, i) => submit(processes[i % processes.length], projectId, payload)));

    const kinds = outcomes.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o.kind]: (acc[o.kind] ?? 0) + 1 }), {});
    const alerts = await alertsOf(projectId);
    expect(alerts.map((a) => a.iid)).toEqual(Array.from({ length: alerts.length }, (_, i) => i + 1));
    expect(alerts).toHaveLength(kinds.created);
    const [counter] = await dataSource.query('SELECT last_iid FROM alert_iid_counters WHERE project_id = $1', [projectId]);
    expect(counter.last_iid).toBe(alerts.length);
    const open = alerts.filter((a) => a.status !== 'resolved' && a.fingerprint !== null);
    expect(new Set(open.map((a) => a.fingerprint)).size).toBe(open.length);
    const [unmatched] = await dataSource.query('SELECT count(*)::int AS n FROM alert_unmatched_recoveries WHERE project_id = $1', [projectId]);
    // Every payload is counted once: triggering ones in event_count, recoveries as resolutions or unmatched recoveries.
    expect(alerts.reduce((sum, a) => sum + a.event_count, 0) + (kinds.resolved ?? 0) + unmatched.n).toBe(stream.length);
    expect(unmatched.n).toBe(kinds.unmatched_recovery ?? 0);
    // Every creation, resolution and unmatched recovery has its event; repeats at most one per alert and batch, the last carrying the final count.
    const events = await eventsOf(projectId);
    const byType = events.reduce<Record<string, number>>((acc, e) => ({ ...acc, [e.type]: (acc[e.type] ?? 0) + 1 }), {});
    expect([byType['alert.created'], byType['alert.resolved'] ?? 0, byType['alert.recovery_unmatched'] ?? 0]).toEqual([
      kinds.created,
      kinds.resolved ?? 0,
      kinds.unmatched_recovery ?? 0,
    ]);
    const repeatEntries = events.flatMap((e) => (e.type === 'alert.repeats' ? (e.data.alerts as unknown[]) : []));
    expect((byType['alert.grouped'] ?? 0) + repeatEntries.length).toBeLessThanOrEqual(kinds.grouped ?? 0);
    // The last event of each alert (a repeat's, in alert.grouped or alert.repeats, or its resolution's) carries its final count.
    const lastCount = new Map<number, number>();
    for (const e of events) {
      if (e.type === 'alert.repeats')
        for (const a of e.data.alerts as Array<{ alert_id: number; event_count: number }>) lastCount.set(a.alert_id, a.event_count);
      else if (e.data.alert_id !== undefined) lastCount.set(e.data.alert_id, e.data.event_count);
    }
    for (const alert of alerts) expect(lastCount.get(alert.id)).toBe(alert.event_count);
    // Each answer names the alert its payload went to.
    const iids = new Set(alerts.map((a) => a.iid));
    for (const o of outcomes) if (o.kind !== 'unmatched_recovery') expect(iids.has(o.alert.iid)).toBe(true);
  });

  it('keeps a batch under its byte budget: large payloads make more, smaller batches', async () => {
    const projectId = await newProject();
    const sut = batcher({ ALERT_INGEST_IN_FLIGHT: '1' });
    const threeMiB = 3 * 1024 * 1024;
    await Promise.all(Array.from({ length: 4 }, (_, i) => submit(sut, projectId, { title: `big ${i}` }, integrationId, threeMiB)));
    const rows = await dataSource.query(`SELECT xmin::text AS tx FROM alerts WHERE project_id = $1 ORDER BY iid`, [projectId]);
    expect(rows).toHaveLength(4);
    // 3 + 3 MiB fit in 8 MiB, a third would not: two transactions of two.
    expect(rows[0].tx).toBe(rows[1].tx);
    expect(rows[2].tx).toBe(rows[3].tx);
    expect(rows[1].tx).not.toBe(rows[2].tx);
  });

  it('fails a payload that cannot be stored alone: its batch neighbours are committed', async () => {
    const projectId = await newProject();
    const sut = batcher({ ALERT_INGEST_IN_FLIGHT: '1' });
    const results = await Promise.allSettled([
      submit(sut, projectId, { title: 'good 1', fingerprint: 'g1' }),
      submit(sut, projectId, { title: 'orphan', fingerprint: 'bad' }, 999_999),
      submit(sut, projectId, { title: 'good 2', fingerprint: 'g2' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: '23503' });
    const alerts = await alertsOf(projectId);
    expect(alerts.map((a) => a.iid)).toEqual([1, 2]);
    expect(await eventsOf(projectId)).toHaveLength(2);
  });

  it('groups into an alert a user re-opens while the batch is written, instead of failing', async () => {
    const projectId = await newProject();
    const sut = batcher();
    const first = await submit(sut, projectId, { title: 'net', fingerprint: 'net' });
    await submit(sut, projectId, { title: 'net', fingerprint: 'net', end_time: '2026-01-01T00:00:00Z' });
    // A user re-opens the resolved alert (no counter lock) and has not committed yet.
    const user = dataSource.createQueryRunner();
    await user.connect();
    await user.startTransaction();
    await user.query(`UPDATE alerts SET status = 'triggered', ended_at = NULL WHERE project_id = $1`, [projectId]);
    // The batch does not see it, plans a new alert, and waits on the open-fingerprint index.
    const repeat = submit(sut, projectId, { title: 'net', fingerprint: 'net' });
    await new Promise((r) => setTimeout(r, 300));
    await user.commitTransaction();
    await user.release();
    await expect(repeat).resolves.toMatchObject({ kind: 'grouped', alert: { iid: first.kind === 'created' ? first.alert.iid : -1, event_count: 2 } });
    expect((await alertsOf(projectId)).map((a) => a.iid)).toEqual([1]);
    const [counter] = await dataSource.query('SELECT last_iid FROM alert_iid_counters WHERE project_id = $1', [projectId]);
    expect(counter.last_iid).toBe(1);
  });

  it('prepares its statements again on a connection that lost them, and the batch succeeds', async () => {
    const projectId = await newProject();
    const repository = new AlertBatchRepository(dataSource);
    const preparedNames = async (): Promise<string[]> => {
      const [connection, release] = await repository.connect();
      try {
        const result = (await connection.query('SELECT name FROM pg_prepared_statements ORDER BY name')) as { rows: Array<{ name: string }> };
        return result.rows.map((r) => r.name);
      } finally {
        release();
      }
    };
    const expected = Object.values(BATCH_STATEMENTS)
      .map((s) => s.name)
      .sort();
    expect(await preparedNames()).toEqual(expect.arrayContaining(expected));

    // The pool hands out its most recently released connection first: the batch gets this one.
    const [connection, release] = await repository.connect();
    await connection.query('DEALLOCATE ALL');
    release();
    const sut = new AlertIngestionBatcher(repository, new OutboxService(config), AppConfig.fromEnvironment({ KAFKA_TOPIC_PREFIX: 'batch-test' }));
    expect((await submit(sut, projectId, { title: 'after deallocate', fingerprint: 'dealloc' })).kind).toBe('created');
    expect((await submit(sut, projectId, { title: 'again', fingerprint: 'dealloc' })).kind).toBe('grouped');
    expect(await preparedNames()).toEqual(expect.arrayContaining(expected));
    expect((await alertsOf(projectId)).map((a) => [a.iid, a.event_count])).toEqual([[1, 2]]);
  });

  it('writes each payload row with the request id and hook chain its request had, like every other outbox row', async () => {
    const projectId = await newProject();
    const sut = batcher();
    const payload = { title: 'chained', fingerprint: 'chain' };
    const receivedAt = new Date();
    const entry = (outboxContext?: { requestId?: string; extras?: Record<string, unknown> }) =>
      sut.submit({
        input: { projectId, integrationId, alert: normalizeAlert(payload, { now: receivedAt }), receivedAt },
        project: { id: projectId, groupId: null },
        integration: { id: integrationId, name: 'Prom', createIncident: false, autoCloseIncident: true },
        payload,
        actorId: null,
        outboxContext,
        bytes: 40,
      });
    await Promise.all([entry({ requestId: 'req-chain', extras: { hook_chain: { id: '0b6f1f9e-2f8e-4a56-9a0e-6c4a3c7d3b1e', depth: 3 } } }), entry()]);
    const rows: Array<{ type: string; chain: unknown; headers: Record<string, string>; message_key: string; topic: string }> = await dataSource.query(
      `SELECT payload->>'type' AS type, payload->'hook_chain' AS chain, headers, message_key, topic FROM outbox_events WHERE (payload->>'project_id')::int = $1 ORDER BY seq`,
      [projectId],
    );
    expect(rows).toEqual([
      {
        type: 'alert.created',
        chain: { id: '0b6f1f9e-2f8e-4a56-9a0e-6c4a3c7d3b1e', depth: 3 },
        headers: { 'x-request-id': 'req-chain' },
        message_key: String(projectId),
        topic: 'batch-test.domain-events.v1',
      },
      { type: 'alert.grouped', chain: null, headers: {}, message_key: String(projectId), topic: 'batch-test.domain-events.v1' },
    ]);
  });
});
