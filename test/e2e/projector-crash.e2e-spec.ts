import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import { Client } from 'pg';
import { buildDomainEvent, CONSUMER_GROUPS, DomainEvent, domainTopicConfigs, ensureTopics, messageKeyOf, prefixed, TOPICS } from '@app/messaging';
import { createTestDatabase, randomKafkaPrefix, TEST_KAFKA_BROKERS } from '@app/testing';

const ROOT = resolve(__dirname, '../..');
const TOTAL = 6_000;
const PROJECTS = [7101, 7102, 7103, 7104, 7105, 7106, 7107];
const FIRST_TARGET = 500_000;

/** Bounded poll of `probe` until `accept` takes its value. */
async function waitFor<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}: last ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// The events carry data of the catalogue's shape: consumers check it and dead-letter what does not match.
const issueData = (id: number, n: number) => ({
  id,
  iid: n + 1,
  title: `crash issue ${n}`,
  state: 'opened',
  issue_type: 'issue',
  confidential: false,
  author_id: 1,
  assignee_ids: [],
  labels: [],
  milestone_id: null,
  iteration_id: null,
  weight: n % 9,
  severity: 'UNKNOWN',
});
const milestoneData = (projectId: number, id: number, n: number) => {
  const at = new Date().toISOString();
  return {
    id,
    iid: n + 1,
    project_id: projectId,
    group_id: null,
    title: `crash milestone ${n}`,
    description: null,
    state: 'active',
    created_at: at,
    updated_at: at,
    due_date: null,
    start_date: null,
  };
};

/** Every other event opens an issue with a weight (a contribution event and a weight event), the rest create milestones. */
function streamEvent(n: number): DomainEvent {
  const projectId = PROJECTS[n % PROJECTS.length];
  const target = FIRST_TARGET + n;
  return n % 2 === 0
    ? buildDomainEvent({
        type: 'issue.opened',
        actor: 1,
        projectId,
        target: { type: 'issue', id: target, iid: n + 1, title: `crash issue ${n}` },
        data: { issue: issueData(target, n) },
      })
    : buildDomainEvent({
        type: 'milestone.created',
        actor: 1,
        projectId,
        target: { type: 'milestone', id: target, iid: n + 1, title: `crash milestone ${n}` },
        data: { milestone: milestoneData(projectId, target, n) },
      });
}

/**
 * The projector as a real process, killed with SIGKILL (no shutdown hook, no offset commit,
 * no group leave) while the stream is being written and projected, then started again: every
 * published event is projected exactly once (projections and offsets of a batch are not
 * atomic together, so the restart re-reads what was projected but not committed: the event
 * id recorded with the projection makes the replay a no-op).
 */
describe('Projector hard kill', () => {
  let outDir: string;
  let db: { url: string; drop: () => Promise<void> };
  let client: Client;
  let producer: Producer;
  let kafka: Kafka;
  let projector: ChildProcess | undefined;
  const prefix = randomKafkaPrefix('projector-crash');

  beforeAll(async () => {
    // The projector runs from a private build (inside the checkout, so that it resolves node_modules like dist/ does).
    mkdirSync(join(ROOT, '.cache'), { recursive: true });
    outDir = mkdtempSync(join(ROOT, '.cache', 'projector-crash-build-'));
    const built = spawnSync(join(ROOT, 'node_modules/.bin/swc'), ['apps', 'libs', '-d', outDir, '-q'], { cwd: ROOT, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
    db = await createTestDatabase('projector-crash');
    client = new Client({ connectionString: db.url });
    await client.connect();
    kafka = new Kafka({ clientId: 'projector-crash-test', brokers: TEST_KAFKA_BROKERS, logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await ensureTopics(admin, domainTopicConfigs(prefix));
    await admin.disconnect();
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false, idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
  }, 120_000);

  afterAll(async () => {
    projector?.kill('SIGKILL');
    await producer?.disconnect().catch(() => undefined);
    await client?.end().catch(() => undefined);
    await db?.drop();
    const admin = kafka?.admin();
    await admin
      ?.connect()
      .then(async () => admin.deleteTopics({ topics: (await admin.listTopics()).filter((name) => name.startsWith(`${prefix}.`)) }))
      .catch(() => undefined);
    await admin?.disconnect().catch(() => undefined);
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  const start = (): ChildProcess =>
    spawn(process.execPath, [join(outDir, 'apps/projector/src/main.js')], {
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        KAFKA_BROKERS: TEST_KAFKA_BROKERS.join(','),
        KAFKA_TOPIC_PREFIX: prefix,
        REDIS_PREFIX: prefix,
        HOST: '127.0.0.1',
        OBSERVABILITY_PORT: '0',
        LOG_LEVEL: 'silent',
        MIGRATIONS_RUN: 'false',
      },
      stdio: 'ignore',
    });

  const count = async (sql: string): Promise<number> => Number((await client.query<{ n: number }>(sql)).rows[0].n);
  const projectedRows = () => count(`SELECT count(*)::int AS n FROM events WHERE target_id >= ${FIRST_TARGET}`);

  it('loses and duplicates nothing when killed with SIGKILL mid-stream and restarted', async () => {
    const events = Array.from({ length: TOTAL }, (_, n) => streamEvent(n));
    const publish = (slice: DomainEvent[]) =>
      producer.send({
        topic: prefixed(prefix, TOPICS.DOMAIN_EVENTS),
        acks: -1,
        messages: slice.map((e) => ({ key: messageKeyOf(e), value: JSON.stringify(e) })),
      });

    // A backlog is waiting when the projector starts; the rest is written while it runs, dies and is down.
    await publish(events.slice(0, 1_000));
    projector = start();
    await waitFor(projectedRows, (n) => n > 0, 90_000, 'the first projected rows');
    let written = 1_000;
    const writer = (async () => {
      for (; written < TOTAL; written += 100) {
        await publish(events.slice(written, written + 100));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const atKill = await waitFor(projectedRows, (n) => n >= 2_500, 90_000, '2,500 projected rows');
    const writtenAtKill = written;
    projector.kill('SIGKILL');
    await new Promise<void>((done) => (projector!.exitCode !== null || projector!.signalCode !== null ? done() : projector!.once('exit', () => done())));
    expect(projector.signalCode).toBe('SIGKILL');
    const afterKill = await projectedRows();
    expect(afterKill).toBeGreaterThanOrEqual(atKill);
    expect(afterKill).toBeLessThan(TOTAL);
    // Offsets are committed only after the projection: never ahead of the rows (one row per event here).
    const admin = kafka.admin();
    await admin.connect();
    const [offsets] = await admin.fetchOffsets({ groupId: prefixed(prefix, CONSUMER_GROUPS.PROJECTOR), topics: [prefixed(prefix, TOPICS.DOMAIN_EVENTS)] });
    await admin.disconnect();
    const committed = offsets.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
    expect(committed).toBeLessThanOrEqual(afterKill);
    // Killed mid-stream: the writer was still writing.
    expect(writtenAtKill).toBeLessThan(TOTAL);
    await writer;
    await new Promise((r) => setTimeout(r, 500));
    expect(await projectedRows()).toBe(afterKill);

    // Restarted: it joins the group once the dead member's session expires (30 s at most) and resumes from the committed offsets.
    projector = start();
    await waitFor(projectedRows, (n) => n >= TOTAL, 120_000, `${TOTAL} projected rows`);
    // Whatever was still in flight would show up now: give it a moment, then compare exactly.
    await waitFor(
      () => count('SELECT count(*)::int AS n FROM projected_events'),
      (n) => n >= TOTAL,
      10_000,
      'the projected event ids',
    );
    await new Promise((r) => setTimeout(r, 1_000));

    const rows = await client.query<{ target_id: number; source_event_id: string; action: string; target_type: string; project_id: number }>(
      `SELECT target_id, source_event_id, action, target_type, project_id FROM events WHERE target_id >= ${FIRST_TARGET} ORDER BY target_id`,
    );
    expect(rows.rows).toHaveLength(TOTAL);
    expect(rows.rows.map((r) => r.target_id)).toEqual(events.map((_, n) => FIRST_TARGET + n));
    expect(rows.rows.map((r) => r.source_event_id)).toEqual(events.map((e) => e.id));
    expect(rows.rows.map((r) => r.project_id)).toEqual(events.map((e) => e.project_id));
    expect(rows.rows.every((r, n) => r.action === 'created' && r.target_type === (n % 2 === 0 ? 'Issue' : 'Milestone'))).toBe(true);
    const weights = await client.query<{ issue_id: number; weight: number }>(
      `SELECT issue_id, weight FROM resource_weight_events WHERE issue_id >= ${FIRST_TARGET} ORDER BY issue_id`,
    );
    const opened = events.map((_, n) => n).filter((n) => n % 2 === 0);
    expect(weights.rows).toEqual(opened.map((n) => ({ issue_id: FIRST_TARGET + n, weight: n % 9 })));
    expect(await count('SELECT count(*)::int AS n FROM projected_events')).toBe(TOTAL);
    expect(await count('SELECT count(DISTINCT source_event_id)::int AS n FROM events')).toBe(TOTAL);
  }, 240_000);
});
