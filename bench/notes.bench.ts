/**
 * npm run bench:notes — the note list of one issue with BENCH_NOTES notes (default 100,000).
 *
 * Starts the services and the gateway (its own process and database, which it migrates),
 * creates a project and an issue through the API, inserts the notes with SQL (one a second,
 * newest first as the list shows them), then times BENCH_REPEATS (default 300) sequential
 * requests of each page over one keep-alive connection and prints p50/p99:
 * - the first page as clients ask for it (offset pagination, `x-total` counted up to 10,001);
 * - the first keyset page (`pagination=keyset`);
 * - a deep keyset page (the cursor of the note at 90 % of the list);
 * - for comparison, a deep offset page (page 4,000 of 20).
 * Target: p99 under 20 ms for the first and the deep keyset page.
 *
 * Wall-clock percentiles on a shared machine mostly measure the wait for a CPU, so each page
 * also prints what one request costs, which other load does not change: the gateway's CPU time
 * (`/proc/<pid>/stat` utime + stime across the run, divided by the requests), the CPU time of
 * the PostgreSQL backends serving the gateway's connections (the same way), and the SQL
 * statements the gateway sent per request (counted by bench/instrument.ts, preloaded into the
 * gateway). BENCH_SQL=1 also prints the statements of one request of each page.
 * BENCH_CPU_PROF=<dir> runs the gateway with `--cpu-prof` into that directory (the profile is
 * written when the bench ends it).
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { Agent, request } from 'undici';
import { encodeKeysetCursor } from '@app/api';
import { cpuSecondsOf, freePort, machine, percentile, sleep, waitForHttp, write } from './support';

const ROOT = resolve(__dirname, '../..');
const DATABASE = process.env.BENCH_DATABASE ?? 'service_api_bench_notes';
const SERVER = 'postgres://postgres@127.0.0.1:5432';
const ROOT_TOKEN = 'bench-root-token-notes-0123456789';
const NOTES = Number(process.env.BENCH_NOTES ?? 100_000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 300);
const PREFIX = `bench-notes-${Date.now()}`;
const SQL_COUNTS = `/tmp/${PREFIX}-sql.json`;
const SHOW_SQL = process.env.BENCH_SQL === '1';
const CPU_PROF = process.env.BENCH_CPU_PROF;
let BASE = '';
let gateway: ChildProcess;
let db: Client;

/** The statements the gateway has sent so far, by text (bench/instrument.ts writes them on SIGWINCH). */
async function sqlCounts(): Promise<Map<string, number>> {
  rmSync(SQL_COUNTS, { force: true });
  gateway.kill('SIGWINCH');
  for (let i = 0; i < 200 && !existsSync(SQL_COUNTS); i++) await sleep(25);
  await sleep(25);
  return new Map(Object.entries(JSON.parse(readFileSync(SQL_COUNTS, 'utf8')) as Record<string, number>));
}

/** The PostgreSQL backends of the gateway's connections (all of the bench database's but this script's). */
async function backendPids(): Promise<number[]> {
  const { rows } = await db.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [DATABASE]);
  return (rows as Array<{ pid: number }>).map((row) => row.pid);
}

interface Reading {
  gateway: number;
  postgres: Map<number, number>;
  sql: Map<string, number>;
}

async function reading(): Promise<Reading> {
  const sql = await sqlCounts();
  const pids = await backendPids();
  return { gateway: cpuSecondsOf([gateway.pid!]), postgres: new Map(pids.map((pid) => [pid, cpuSecondsOf([pid])])), sql };
}

/** CPU µs per request of the gateway and its PostgreSQL backends, and SQL statements per request, between two readings. */
/** Statements per second the gateway sends on its own (the outbox relay's polling), measured idle before the pages and subtracted from theirs. */
let backgroundStatementsPerSecond = 0;

function costOf(
  from: Reading,
  to: Reading,
  requests: number,
  seconds = 0,
): { gatewayUs: number; postgresUs: number; statements: number; byText: Array<[string, number]> } {
  let postgres = 0;
  for (const [pid, seconds] of to.postgres) postgres += seconds - (from.postgres.get(pid) ?? 0);
  const byText: Array<[string, number]> = [];
  let statements = 0;
  for (const [text, n] of to.sql) {
    const delta = n - (from.sql.get(text) ?? 0);
    if (delta > 0) {
      statements += delta;
      byText.push([text, delta / requests]);
    }
  }
  statements = Math.max(0, statements - backgroundStatementsPerSecond * seconds);
  return { gatewayUs: ((to.gateway - from.gateway) * 1e6) / requests, postgresUs: (postgres * 1e6) / requests, statements: statements / requests, byText };
}

/** A port nobody listens on (other benchmarks and gateways share this machine). */
const agent = new Agent({ connections: 1, keepAliveTimeout: 60_000 });

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any; headers: Record<string, string | string[] | undefined> }> {
  const response = await request(`${BASE}${path}`, {
    method: method as 'GET',
    dispatcher: agent,
    headers: { 'private-token': ROOT_TOKEN, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.body.text();
  return { status: response.statusCode, json: text ? JSON.parse(text) : null, headers: response.headers };
}

async function time(label: string, path: string, check: (json: any[]) => boolean): Promise<number> {
  const first = await call('GET', path);
  if (first.status !== 200 || !check(first.json)) throw new Error(`${label}: unexpected answer ${first.status} ${JSON.stringify(first.json).slice(0, 200)}`);
  for (let i = 0; i < 20; i++) await call('GET', path); // warm-up
  if (SHOW_SQL) {
    const before = await reading();
    await call('GET', path);
    const one = costOf(before, await reading(), 1);
    write(`${label}: the statements of one request`);
    for (const [text, n] of one.byText) write(`  ${n} × ${text.replace(/\s+/g, ' ').slice(0, 400)}`);
  }
  const before = await reading();
  const started = Date.now();
  const samples: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const start = process.hrtime.bigint();
    const response = await call('GET', path);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (response.status !== 200) throw new Error(`${label}: ${response.status}`);
  }
  const cost = costOf(before, await reading(), REPEATS, (Date.now() - started) / 1000);
  samples.sort((a, b) => a - b);
  const p99 = percentile(samples, 99);
  write(
    `${label.padEnd(44)} p50 ${percentile(samples, 50).toFixed(2).padStart(7)} ms   p99 ${p99.toFixed(2).padStart(7)} ms   ` +
      `CPU/request: gateway ${cost.gatewayUs.toFixed(0).padStart(5)} µs, PostgreSQL ${cost.postgresUs.toFixed(0).padStart(5)} µs   SQL/request ${cost.statements.toFixed(2)}`,
  );
  return p99;
}

async function main(): Promise<void> {
  spawnSync('bash', [join(ROOT, 'scripts/services.sh'), 'up'], { stdio: 'inherit' });
  const admin = new Client({ connectionString: `${SERVER}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.end();

  const port = Number(process.env.BENCH_GATEWAY_PORT ?? (await freePort()));
  BASE = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: `${SERVER}/${DATABASE}`,
    INITIAL_ROOT_TOKEN: ROOT_TOKEN,
    LOG_LEVEL: 'warn',
    KAFKA_TOPIC_PREFIX: PREFIX,
    REDIS_PREFIX: PREFIX,
    BENCH_SQL_COUNTS: SQL_COUNTS,
    ...(CPU_PROF ? { BENCH_EXIT_ON_SIGHUP: '1' } : {}),
  };
  const flags = ['--require', join(ROOT, 'dist/bench/instrument.js'), ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [])];
  gateway = spawn(process.execPath, [...flags, join(ROOT, 'dist/apps/gateway/src/main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  process.on('exit', () => gateway.kill('SIGTERM'));
  db = new Client({ connectionString: `${SERVER}/${DATABASE}` });
  try {
    await waitForHttp(`${BASE}/-/readiness`, 60_000);
    await db.connect();
    write(`bench:notes — ${NOTES} notes on one issue, ${REPEATS} requests per page; ${machine()}`);
    const project = await call('POST', '/api/v4/projects', { name: 'bench-notes' });
    const issue = await call('POST', `/api/v4/projects/${project.json.id}/issues`, { title: 'A long discussion' });
    const [{ id: rootId }] = (await db.query(`SELECT id FROM users WHERE username = 'root'`)).rows as Array<{ id: number }>;
    const started = Date.now();
    await db.query(
      `INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, created_at, updated_at)
       SELECT 'Issue', $1, $2, $3, 'Comment number ' || n || ': ' || repeat('text ', 20), t, t
       FROM generate_series(1, $4) AS n, LATERAL (SELECT timestamptz '2024-01-01' + n * interval '1 second' AS t) ts`,
      [issue.json.id, project.json.id, rootId, NOTES],
    );
    // As autovacuum leaves a table that has been written to: statistics and the visibility map
    // (an index-only count needs it).
    await db.query('VACUUM ANALYZE notes');
    write(`inserted ${NOTES} notes in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const notesPath = `/api/v4/projects/${project.json.id}/issues/${issue.json.iid}/notes`;
    const deepIndex = Math.floor(NOTES * 0.9);
    const [deep] = (
      await db.query(`SELECT id, created_at FROM notes WHERE noteable_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`, [issue.json.id, deepIndex])
    ).rows as Array<{ id: number; created_at: Date }>;
    const cursor = encodeKeysetCursor({ id: deep.id, value: deep.created_at.toISOString() }, { orderBy: 'created_at', sort: 'desc' });
    const full = (json: any[]) => Array.isArray(json) && json.length === 20;

    const idle = await reading();
    await sleep(3000);
    backgroundStatementsPerSecond = costOf(idle, await reading(), 1).statements / 3;
    write(`background: ${backgroundStatementsPerSecond.toFixed(1)} statements/s (subtracted below)`);

    const results = [
      await time('first page (offset, x-total)', notesPath, full),
      await time('first page (keyset)', `${notesPath}?pagination=keyset&per_page=20`, full),
      await time(
        `deep keyset page (after note ${deepIndex})`,
        `${notesPath}?pagination=keyset&per_page=20&order_by=created_at&sort=desc&cursor=${cursor}`,
        (json) => full(json) && json[0].id < deep.id,
      ),
    ];
    await time('deep offset page (page 4000, for comparison)', `${notesPath}?page=4000&per_page=20`, full);

    // The database's part of the deep keyset page (the statement the endpoint runs), apart from
    // the HTTP, authentication and presentation work around it.
    const sql = `SELECT n.* FROM notes n WHERE n.noteable_type = 'Issue' AND n.noteable_id = $1 AND (n.created_at, n.id) < ($2, $3) ORDER BY n.created_at DESC, n.id DESC LIMIT 20`;
    const sqlSamples: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      const start = process.hrtime.bigint();
      await db.query(sql, [issue.json.id, deep.created_at.toISOString(), deep.id]);
      sqlSamples.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    sqlSamples.sort((a, b) => a - b);
    write(
      `${'deep keyset page, SQL alone'.padEnd(44)} p50 ${percentile(sqlSamples, 50).toFixed(2).padStart(7)} ms   p99 ${percentile(sqlSamples, 99).toFixed(2).padStart(7)} ms`,
    );
    const worst = Math.max(...results);
    write(`target p99 < 20 ms on the first and deep keyset pages: ${worst < 20 ? 'met' : 'NOT met'} (worst p99 ${worst.toFixed(2)} ms)`);
  } finally {
    await db.end().catch(() => undefined);
    if (CPU_PROF) {
      gateway.kill('SIGHUP');
      await new Promise((done) => gateway.once('exit', done));
    }
    gateway.kill('SIGTERM');
    rmSync(SQL_COUNTS, { force: true });
    await agent.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
