/**
 * npm run bench:projector — the events projector and the event list, on this machine.
 *
 * Starts the services, the gateway (its own process, its own database, which it migrates) and
 * the projector (its own process), on a fresh topic prefix, then:
 * 1. Throughput: publishes BENCH_EVENTS synthetic domain events (default 1,000,000) over
 *    BENCH_PROJECTS projects (default 1,000) with kafkajs in big batches while the projector is
 *    stopped, starts it, and reports projected events/s from its first to its last commit.
 * 2. Delay: with the projector caught up, writes BENCH_RATE events/s (default 5,000) for
 *    BENCH_SECONDS (default 30) and reports p50/p99 of `occurred_at` → materialized
 *    (`projected_events.projected_at`, the start of the projecting transaction).
 * 3. Reads: gives one public project BENCH_LIST_EVENTS events (default 1,000,000, inserted with
 *    SQL, numbered as the projector numbers them), then times `GET /projects/:id/events` page 1
 *    and deep pages (offset pagination, the only kind the spec gives this endpoint), as the
 *    administrator and anonymously, and a deep page with a filter (found by skipping rows).
 * Smaller runs: e.g. BENCH_EVENTS=100000 BENCH_SECONDS=10 BENCH_LIST_EVENTS=100000.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import { Client } from 'pg';
import { machine, percentile, sleep, waitForHttp, write } from './support';

const ROOT = resolve(__dirname, '../..');
const GATEWAY_PORT = Number(process.env.BENCH_GATEWAY_PORT ?? 3903);
const PROJECTOR_OBSERVABILITY_PORT = Number(process.env.BENCH_PROJECTOR_PORT ?? 3904);
const DATABASE = process.env.BENCH_DATABASE ?? 'service_api_bench_projector';
const SERVER = 'postgres://postgres@127.0.0.1:5432';
const BROKERS = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const ROOT_TOKEN = 'bench-root-token-0123456789abcdef';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 1_000);
const RATE = Number(process.env.BENCH_RATE ?? 5_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const LIST_EVENTS = Number(process.env.BENCH_LIST_EVENTS ?? 1_000_000);
const LIST_REPEATS = Number(process.env.BENCH_LIST_REPEATS ?? 200);
const PREFIX = `bench-projector-${Date.now()}`;
const TOPIC = `${PREFIX}.domain-events.v1`;
/** Synthetic project ids of the stream: far above the ids the gateway hands out. */
const FIRST_PROJECT = 1_000_000;

/** A realistic mix: issues opened (with weight) and closed, merge requests merged, pushes, comments. */
function syntheticEvent(i: number, occurredAt: Date): { key: string; value: string } {
  const projectId = FIRST_PROJECT + (i % PROJECTS);
  const base = { id: randomUUID(), version: 1, occurred_at: occurredAt.toISOString(), actor: 1 + (i % 97), project_id: projectId, group_id: null };
  const n = Math.floor(i / PROJECTS);
  let event: Record<string, unknown>;
  switch (i % 5) {
    case 0:
      event = { ...base, type: 'issue.opened', target: { type: 'issue', id: i, iid: n, title: `Disk almost full ${i}` }, data: { issue: { weight: i % 8 } } };
      break;
    case 1:
      event = { ...base, type: 'issue.closed', target: { type: 'issue', id: i - 1, iid: n, title: `Disk almost full ${i - 1}` }, data: {} };
      break;
    case 2:
      event = {
        ...base,
        type: 'merge_request.merged',
        target: { type: 'merge_request', id: i, iid: n, title: `Fix ${i}` },
        data: { merge_commit_sha: 'a'.repeat(40) },
      };
      break;
    case 3:
      event = {
        ...base,
        type: 'push',
        target: null,
        data: { before: 'b'.repeat(40), after: 'c'.repeat(40), ref: 'refs/heads/main', total_commits_count: 1, commits: [{ title: `Commit ${i}` }] },
      };
      break;
    default:
      event = {
        ...base,
        type: 'note.created',
        target: { type: 'note', id: i, title: `Disk almost full ${i}` },
        data: { note: { id: i, body: 'Looking into it', noteable_type: 'Issue', noteable_id: i - 4, noteable_iid: n } },
      };
  }
  return { key: String(projectId), value: JSON.stringify(event) };
}

async function publish(producer: Producer, from: number, count: number, at: () => Date): Promise<void> {
  const BATCH = 10_000;
  const inflight: Promise<unknown>[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const messages = Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => syntheticEvent(from + start + k, at()));
    inflight.push(producer.send({ topic: TOPIC, acks: 1, messages }));
    if (inflight.length >= 4) await inflight.shift();
  }
  await Promise.all(inflight);
}

async function scalar(db: Client, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.query(sql, params);
  return Number(Object.values(rows[0] as Record<string, unknown>)[0]);
}

async function time(path: string, token: string | null): Promise<{ p50: number; p99: number; status: number; count: number }> {
  const samples: number[] = [];
  let status = 0;
  let count = 0;
  for (let i = 0; i < LIST_REPEATS; i++) {
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/api/v4${path}`, { headers: token ? { 'PRIVATE-TOKEN': token } : {} });
    const body = (await res.json()) as unknown[];
    samples.push(performance.now() - t0);
    status = res.status;
    count = Array.isArray(body) ? body.length : -1;
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), status, count };
}

function startProjector(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [join(ROOT, 'dist/apps/projector/src/main.js')], {
    env: { ...env, OBSERVABILITY_PORT: String(PROJECTOR_OBSERVABILITY_PORT), MIGRATIONS_RUN: 'false' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function main(): Promise<void> {
  spawnSync('bash', [join(ROOT, 'scripts/services.sh'), 'up'], { stdio: 'inherit' });
  const admin = new Client({ connectionString: `${SERVER}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.end();

  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    DATABASE_URL: `${SERVER}/${DATABASE}`,
    INITIAL_ROOT_TOKEN: ROOT_TOKEN,
    LOG_LEVEL: 'warn',
    KAFKA_TOPIC_PREFIX: PREFIX,
    REDIS_PREFIX: PREFIX,
  };
  const gateway = spawn(process.execPath, [join(ROOT, 'dist/apps/gateway/src/main.js')], {
    env: { ...env, PORT: String(GATEWAY_PORT) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let projector: ChildProcess | null = null;
  const stop = () => {
    gateway.kill('SIGTERM');
    projector?.kill('SIGTERM');
  };
  process.on('exit', stop);
  const kafka = new Kafka({ clientId: 'bench-projector', brokers: BROKERS, logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
  const db = new Client({ connectionString: `${SERVER}/${DATABASE}` });
  try {
    // The gateway migrates the database and creates the topics (its outbox relay runs).
    await waitForHttp(`http://127.0.0.1:${GATEWAY_PORT}/-/readiness`, 60_000);
    await producer.connect();
    await db.connect();
    const admin = kafka.admin();
    await admin.connect();
    const topics = await admin.fetchTopicMetadata({ topics: [TOPIC] });
    await admin.disconnect();
    write(`\ntopic ${TOPIC}: ${topics.topics[0].partitions.length} partitions (${machine()})`);

    // 1. Throughput from a backlog.
    const p0 = performance.now();
    await publish(producer, 0, EVENTS, () => new Date());
    write(`published ${EVENTS} events over ${PROJECTS} projects in ${((performance.now() - p0) / 1000).toFixed(1)} s`);
    projector = startProjector(env);
    let first = 0;
    let done = 0;
    const deadline = Date.now() + 30 * 60_000;
    while (Date.now() < deadline) {
      done = await scalar(db, 'SELECT count(*) FROM projected_events');
      if (done > 0 && first === 0) first = performance.now();
      if (done >= EVENTS) break;
      await sleep(250);
    }
    const seconds = (performance.now() - first) / 1000;
    write(`projected ${done} events in ${seconds.toFixed(1)} s: ${(done / seconds).toFixed(0)} events/s (target ≥ 20,000)`);
    const rows = await scalar(db, 'SELECT count(*) FROM events');
    const resources = await scalar(db, 'SELECT (SELECT count(*) FROM resource_state_events) + (SELECT count(*) FROM resource_weight_events)');
    write(`rows: ${rows} contribution events, ${resources} resource events`);

    // 2. End-to-end delay at a steady rate.
    const marker = new Date();
    const total = RATE * SECONDS;
    const tick = 20;
    const perTick = Math.max(1, Math.round((RATE * tick) / 1000));
    const started = performance.now();
    const sends: Promise<unknown>[] = [];
    for (let sent = 0, k = 0; sent < total; k++) {
      const wait = started + k * tick - performance.now();
      if (wait > 0) await sleep(wait);
      const count = Math.min(perTick, total - sent);
      const messages = Array.from({ length: count }, (_, j) => syntheticEvent(EVENTS + sent + j, new Date()));
      sends.push(producer.send({ topic: TOPIC, acks: 1, messages }));
      sent += count;
    }
    await Promise.all(sends);
    const rate = total / ((performance.now() - started) / 1000);
    while ((await scalar(db, 'SELECT count(*) FROM projected_events')) < EVENTS + total) await sleep(250);
    const { rows: delays } = await db.query(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY d) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY d) AS p99, max(d) AS max
       FROM (SELECT extract(epoch FROM pe.projected_at - e.created_at) * 1000 AS d
             FROM events e JOIN projected_events pe ON pe.event_id = e.source_event_id WHERE e.created_at >= $1) s`,
      [marker.toISOString()],
    );
    const d = delays[0] as { p50: number; p99: number; max: number };
    write(
      `delay at ${rate.toFixed(0)} events/s for ${SECONDS} s: p50 ${Number(d.p50).toFixed(0)} ms, p99 ${Number(d.p99).toFixed(0)} ms, max ${Number(d.max).toFixed(0)} ms (target p99 < 1 s)`,
    );

    // 3. The list endpoint on a project with LIST_EVENTS events.
    const res = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/api/v4/projects`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `bench-${Date.now()}`, visibility: 'public' }),
    });
    const project = (await res.json()) as { id: number };
    const i0 = performance.now();
    await db.query(
      // Numbered as the projector numbers events (under the project's position row, after its "created" event).
      `WITH pos AS (
         INSERT INTO project_event_positions (project_id, last_seq) VALUES ($1, $2)
         ON CONFLICT (project_id) DO UPDATE SET last_seq = project_event_positions.last_seq + EXCLUDED.last_seq
         RETURNING last_seq - $2 AS base
       )
       INSERT INTO events (source_event_id, project_id, project_seq, author_id, action, target_type, target_id, target_iid, target_title, created_at)
       SELECT gen_random_uuid(), $1, pos.base + g, 1, (ARRAY['created','closed','merged','commented'])[1 + g % 4],
              (ARRAY['Issue','Issue','MergeRequest','Note'])[1 + g % 4], g, g, 'Event ' || g, now() - interval '1 second' * ($2 - g)
       FROM pos, generate_series(1, $2) g ORDER BY g`,
      [project.id, LIST_EVENTS],
    );
    await db.query('VACUUM ANALYZE events');
    write(`inserted ${LIST_EVENTS} events for project ${project.id} in ${((performance.now() - i0) / 1000).toFixed(1)} s (${machine()})`);
    const deepPage = Math.floor(Math.min(50_000, LIST_EVENTS) / 20);
    for (const [label, token] of [
      ['administrator', ROOT_TOKEN],
      ['anonymous', null],
    ] as const) {
      for (const [name, path] of [
        ['page 1', `/projects/${project.id}/events`],
        [`page ${deepPage}`, `/projects/${project.id}/events?page=${deepPage}&per_page=20`],
        ['page 500 ×100', `/projects/${project.id}/events?page=500&per_page=100`],
        ['filtered 2500', `/projects/${project.id}/events?action=closed&page=2500&per_page=20`],
      ] as const) {
        const t = await time(path, token);
        write(
          `GET ${name.padEnd(14)} ${label.padEnd(13)} p50 ${t.p50.toFixed(1).padStart(6)} ms  p99 ${t.p99.toFixed(1).padStart(6)} ms  (status ${t.status}, ${t.count} rows)`,
        );
      }
    }
  } finally {
    await producer.disconnect().catch(() => undefined);
    await db.end().catch(() => undefined);
    stop();
    // The stream of this run is not reused (the next run has its own prefix); the database is kept for EXPLAIN.
    const cleanup = kafka.admin();
    await cleanup
      .connect()
      .then(async () => cleanup.deleteTopics({ topics: (await cleanup.listTopics()).filter((name) => name.startsWith(`${PREFIX}.`)) }))
      .catch(() => undefined);
    await cleanup.disconnect().catch(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
