/**
 * npm run bench:hooks — system hook deliveries, on this machine.
 *
 * Starts the gateway (its own process, its own database, which it migrates; dispatcher and
 * delivery workers inside) on a fresh Kafka topic prefix and Redis prefix, a receiver on
 * loopback in this process (plain node:http, keep-alive, answers 200 at once), registers
 * BENCH_HOOKS system hooks (default 10) subscribed to push events, then:
 * 1. Physical limit: a plain undici loop POSTs BENCH_BURST × BENCH_HOOKS bodies of the same
 *    size to the same receiver with the same concurrency as the workers (HOOK_WORKER_CONCURRENCY,
 *    default 100), and reports requests/s.
 * 1b. Queue alone: as many BullMQ jobs as the burst's fan-outs (one per ~100 deliveries), with the
 *    fan-out jobs' data (the events' bodies) and options, run by a worker of the same concurrency
 *    whose processor does nothing; CPU per delivery in this process and Redis. Then one minimal job
 *    (no data, no options, removed once completed) per delivery: what the queue cost per delivery
 *    when every delivery was a job.
 * 1c. Delivery log alone: as many rows like the burst's, recorded by `HookDeliveryLog`, with the
 *    CPU time per row of this process and PostgreSQL. With the minimal job and the plain loop's
 *    POST, the burst then prints how much CPU per delivery the 50 % target leaves for the rest of
 *    the pipeline, and how much the burst spent on it.
 * 2. Burst: commits BENCH_BURST push events (default 5,000) to the outbox in one transaction
 *    (the relay publishes them, the dispatcher records them and enqueues fan-out jobs, the workers
 *    deliver) and reports deliveries/s (first to last receipt), the ratio to the plain loop, p50/p99
 *    of the delay from the event's commit (`occurred_at`) to its receipt, the CPU per delivery of
 *    every process, the Redis commands per delivery (INFO commandstats) and the gateway's memory.
 *
 * Redis is a private `redis-server` started by the bench on a free port (no persistence, as
 * scripts/services.sh runs it) so that its CPU time and command counts are the pipeline's alone;
 * BENCH_REDIS_URL uses another one instead.
 * 3. Steady: commits BENCH_RATE events/s (default 1,000) for BENCH_SECONDS (default 10), once with
 *    every hook subscribed and once with one hook subscribed, and reports p50/p99 delay.
 * Smaller runs: e.g. BENCH_BURST=1000 BENCH_SECONDS=5.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { AddressInfo, createServer as createTcpServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { Queue, Worker } from 'bullmq';
import Redis from 'ioredis';
import { cpus } from 'node:os';
import { Agent, request } from 'undici';
import { DataSource } from 'typeorm';
import { deliveryHeaders, HookDeliveriesRepository, HookDeliveryLog, NewHookDelivery, redactHeaders } from '@app/hooks';
import { cpuPerUnit, fixed, machine, ownCpuSeconds, percentile, postgresCpuSeconds, serviceCpuSeconds, sleep, waitForHttp, write } from './support';

const ROOT = resolve(__dirname, '../..');
const GATEWAY_PORT = Number(process.env.BENCH_GATEWAY_PORT ?? 3905);
const DATABASE = process.env.BENCH_DATABASE ?? 'service_api_bench_hooks';
const SERVER = 'postgres://postgres@127.0.0.1:5432';
const ROOT_TOKEN = 'bench-root-token-0123456789abcdef';
const HOOKS = Number(process.env.BENCH_HOOKS ?? 10);
const BURST = Number(process.env.BENCH_BURST ?? 5_000);
const RATE = Number(process.env.BENCH_RATE ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.HOOK_WORKER_CONCURRENCY ?? 100);
/** `BENCH_STEADY=0` skips the steady phases, `BENCH_ALONE=0` the queue-alone and log-alone measures (quicker comparisons of the burst). */
const STEADY = process.env.BENCH_STEADY !== '0';
const ALONE = process.env.BENCH_ALONE !== '0';
const PREFIX = `bench-hooks-${Date.now()}`;
const TOPIC = `${PREFIX}.domain-events.v1`;
const PROJECT_ID = 1_000_000;

/** The receiver: records receipt time and the event's commit time (carried in the payload). */
class Receiver {
  receipts: Array<{ at: number; delay: number }> = [];
  readonly server = createServer({ keepAliveTimeout: 60_000 }, (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      if (req.headers['x-service-event']) {
        const occurred = /"bench_occurred_at":(\d+)/.exec(Buffer.concat(chunks).toString('utf8'));
        this.receipts.push({ at, delay: occurred ? at - Number(occurred[1]) : NaN });
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  port = 0;

  async listen(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
  }

  reset(): void {
    this.receipts = [];
  }

  async waitFor(count: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.receipts.length < count && Date.now() < deadline) await sleep(50);
    return this.receipts.length >= count;
  }
}

function pushData(i: number, occurredAt: number): Record<string, unknown> {
  const after = randomUUID().replace(/-/g, '').padEnd(40, '0');
  return {
    ref: 'refs/heads/main',
    before: '0'.repeat(40),
    after,
    checkout_sha: after,
    message: null,
    user_id: 1,
    user_name: 'Administrator',
    user_username: 'root',
    user_email: 'admin@example.com',
    user_avatar: null,
    project_id: PROJECT_ID,
    project: { id: PROJECT_ID, name: 'Bench', path_with_namespace: 'root/bench', default_branch: 'main', web_url: 'http://localhost/root/bench' },
    repository: { name: 'Bench', url: 'git@localhost:root/bench.git', homepage: 'http://localhost/root/bench' },
    commits: [
      {
        id: after,
        message: `Commit ${i}\n`,
        title: `Commit ${i}`,
        timestamp: new Date(occurredAt).toISOString(),
        url: `http://localhost/root/bench/-/commit/${after}`,
        author: { name: 'A', email: 'a@example.com' },
        added: [],
        modified: ['README.md'],
        removed: [],
      },
    ],
    total_commits_count: 1,
    bench_occurred_at: occurredAt,
  };
}

/** Commits `count` push events to the outbox in one transaction; `occurred_at` is the commit time (±1 ms). */
async function commitEvents(db: Client, from: number, count: number): Promise<void> {
  const now = Date.now();
  await db.query('BEGIN');
  for (let start = 0; start < count; start += 1_000) {
    const n = Math.min(1_000, count - start);
    const params: unknown[] = [];
    const tuples: string[] = [];
    for (let k = 0; k < n; k++) {
      const id = randomUUID();
      const event = {
        id,
        type: 'push',
        version: 1,
        occurred_at: new Date(now).toISOString(),
        actor: 1,
        project_id: PROJECT_ID,
        group_id: null,
        target: { type: 'project', id: PROJECT_ID, title: 'Bench' },
        data: pushData(from + start + k, now),
      };
      params.push(id, TOPIC, String(PROJECT_ID), JSON.stringify(event));
      const b = params.length;
      tuples.push(`($${b - 3}, $${b - 2}, $${b - 1}, $${b}::jsonb, '{}'::jsonb)`);
    }
    await db.query(`INSERT INTO outbox_events (id, topic, message_key, payload, headers) VALUES ${tuples.join(', ')}`, params);
  }
  await db.query(`SELECT pg_notify('outbox_events', '')`);
  await db.query('COMMIT');
}

let REDIS_URL = process.env.BENCH_REDIS_URL ?? '';

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createTcpServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** A private Redis for the bench (no persistence), or null when BENCH_REDIS_URL names one. */
async function startPrivateRedis(): Promise<ChildProcess | null> {
  if (REDIS_URL) return null;
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], {
    stdio: 'ignore',
  });
  REDIS_URL = `redis://127.0.0.1:${port}`;
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 100 });
  probe.on('error', () => undefined);
  for (let i = 0; i < 100; i++) {
    try {
      await probe.connect();
      break;
    } catch {
      await sleep(100);
    }
  }
  probe.disconnect();
  return child;
}

/** Commands run by Redis so far, by command (INFO commandstats). */
async function redisCommands(redis: Redis): Promise<Map<string, number>> {
  const info = await redis.info('commandstats');
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(match[1], Number(match[2]));
  return calls;
}

/** Commands per unit between two readings: the total and the five most frequent. */
function commandsPer(from: Map<string, number>, to: Map<string, number>, units: number): string {
  const delta = [...to].map(([name, n]) => [name, n - (from.get(name) ?? 0)] as const).filter(([name, n]) => n > 0 && name !== 'info');
  const total = delta.reduce((sum, [, n]) => sum + n, 0);
  const top = delta
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([name, n]) => `${name} ${fixed(n / units, 3)}`);
  return `${fixed(total / units, 3)} (${top.join(', ')})`;
}

/** Resident memory of a process in MB (`/proc/<pid>/status` VmRSS), 0 when unreadable. */
function residentMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds used so far by this process and by the Redis server. */
async function cpuNow(redis: Redis): Promise<{ self: number; redis: number }> {
  const info = await redis.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return { self: ownCpuSeconds(), redis: seconds('used_cpu_user') + seconds('used_cpu_sys') };
}

type JobShape = 'fan-out' | 'minimal';

/** Deliveries per fan-out job (the dispatcher's FAN_OUT_DELIVERIES). */
const FAN_OUT_DELIVERIES = 100;

/**
 * The queue alone: `total` jobs added in chunks of 1,000 and run by a worker of the workers'
 * concurrency whose processor does nothing. `fan-out`: the data (bodies of the events of ~100
 * deliveries and their hooks) and options of fan-out jobs. `minimal`: no data, no options but the
 * id, removed once completed: the least any BullMQ job costs.
 */
async function queueAlone(total: number, body: string, redis: Redis, shape: JobShape): Promise<{ rate: number; self: number; redis: number }> {
  const eventsPerJob = Math.max(1, Math.ceil(FAN_OUT_DELIVERIES / HOOKS));
  const hookIds = Array.from({ length: HOOKS }, (_, i) => i + 1);
  const connection = { url: REDIS_URL };
  const prefix = `${PREFIX}-floor-${shape}`;
  const queue = new Queue('floor', { connection, prefix });
  const job = (n: number) =>
    shape === 'minimal'
      ? { name: 'deliver-hook', data: {}, opts: { jobId: `floor-${n}`, removeOnComplete: true } }
      : {
          name: 'fan-out',
          data: {
            events: Array.from({ length: eventsPerJob }, () => ({
              eventId: randomUUID(),
              trigger: 'push',
              body,
              occurredAt: new Date().toISOString(),
              chainId: randomUUID(),
              chainDepth: 1,
              hookIds,
            })),
          },
          opts: { jobId: `floor-${n}`, attempts: 5, backoff: { type: 'exponential', delay: 1_000 }, removeOnComplete: true, removeOnFail: true },
        };
  const before = await cpuNow(redis);
  const t0 = performance.now();
  for (let start = 0; start < total; start += 1_000) {
    await queue.addBulk(Array.from({ length: Math.min(1_000, total - start) }, (_, k) => job(start + k)));
  }
  let done = 0;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((r) => (finish = r));
  const worker = new Worker('floor', async () => ({ status: 'successful' }), {
    connection,
    prefix,
    concurrency: CONCURRENCY,
    lockDuration: 15_000,
    stalledInterval: 15_000,
    settings: { backoffStrategy: () => 5_000 },
  });
  worker.on('completed', () => {
    if (++done === total) finish();
  });
  await finished;
  const seconds = (performance.now() - t0) / 1000;
  const cost = cpuPerUnit(before, await cpuNow(redis), total);
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  return { rate: total / seconds, ...cost };
}

const LOG_ALONE_TRIGGER = 'bench-log-alone';

/**
 * The delivery log alone: `total` rows shaped like the burst's (the event's body referenced, the headers a delivery
 * sends as the log keeps them, the receiver's answer), recorded by the service's `HookDeliveryLog`
 * a worker's concurrency at a time, as finishing deliveries do (1,000 distinct rows built beforehand,
 * each recorded `total / 1,000` times). Returns the CPU time per row of this process and of
 * PostgreSQL; the rows are removed afterwards.
 */
async function logAlone(total: number, body: string, hookId: number, db: Client): Promise<{ rate: number; self: number; postgres: number }> {
  const dataSource = new DataSource({ type: 'postgres', url: `${SERVER}/${DATABASE}`, poolSize: 10 });
  await dataSource.initialize();
  const log = new HookDeliveryLog(new HookDeliveriesRepository(dataSource));
  const cpu = () => ({ self: ownCpuSeconds(), postgres: postgresCpuSeconds() });
  const row = (): NewHookDelivery => {
    const eventId = randomUUID();
    const idempotencyKey = randomUUID();
    const webhookUuid = randomUUID();
    const timestamp = Math.floor(Date.now() / 1000);
    const sent = deliveryHeaders({
      body,
      token: 'bench-token',
      idempotencyKey,
      webhookUuid,
      instanceUrl: `http://127.0.0.1:${GATEWAY_PORT}`,
      chainId: eventId,
      chainDepth: 1,
      timestamp,
    });
    return {
      hookId,
      eventId,
      trigger: LOG_ALONE_TRIGGER,
      url: `http://127.0.0.1:1/hook-${hookId}`,
      requestHeaders: redactHeaders(sent),
      // A fan-out's rows reference the event's body (stored once per event) instead of repeating it.
      requestBody: null,
      responseStatus: 200,
      responseHeaders: {
        'content-type': 'text/plain',
        date: new Date().toUTCString(),
        connection: 'keep-alive',
        'keep-alive': 'timeout=60',
        'content-length': '2',
      },
      responseBody: 'ok',
      status: 'successful',
      error: null,
      durationMs: 3,
      idempotencyKey,
      webhookUuid,
      attempt: 1,
      eventOccurredAt: new Date().toISOString(),
    };
  };
  // Built beforehand, so that the figures are the log's alone (not the headers' and signature's).
  const rows = Array.from({ length: 1_000 }, row);
  try {
    const before = cpu();
    const t0 = performance.now();
    const recorded: Array<Promise<void>> = [];
    for (let n = 0; n < total; n++) {
      recorded.push(log.record(rows[n % rows.length]));
      if (n % CONCURRENCY === CONCURRENCY - 1) await new Promise((r) => setImmediate(r));
    }
    await Promise.all(recorded);
    const seconds = (performance.now() - t0) / 1000;
    return { rate: total / seconds, ...cpuPerUnit(before, cpu(), total) };
  } finally {
    await dataSource.destroy();
    await db.query('DELETE FROM system_hook_deliveries WHERE trigger = $1', [LOG_ALONE_TRIGGER]);
  }
}

/** The physical limit: the same receiver, the same concurrency, no queue. */
async function plainLoop(url: string, total: number, body: string): Promise<number> {
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        next += 1;
        const res = await request(url, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json' }, body });
        await res.body.dump();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  await agent.close();
  return total / seconds;
}

/** Where the delay goes: commit → published by the outbox relay, and the POST itself (fan-out jobs leave no trace in Redis once done). */
async function breakdown(label: string, db: Client, since: number): Promise<void> {
  const relay = await db.query(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99
       FROM (SELECT extract(epoch FROM published_at - (payload->>'occurred_at')::timestamptz) * 1000 AS ms FROM outbox_events WHERE published_at IS NOT NULL AND created_at >= $1 ORDER BY seq DESC LIMIT 2000) t`,
    [new Date(since)],
  );
  write(
    `  ${label}: outbox relay commit→published p50 ${fixed(Number(relay.rows[0].p50))} / p99 ${fixed(Number(relay.rows[0].p99))} ms (last 2,000 events of the phase)`,
  );
  const post = await db.query(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY duration_ms) AS p99
       FROM (SELECT duration_ms FROM system_hook_deliveries WHERE created_at >= $1 ORDER BY id DESC LIMIT 10000) t`,
    [new Date(since)],
  );
  write(`  ${label}: POST to the receiver (delivery log duration) p50 ${fixed(Number(post.rows[0].p50))} / p99 ${fixed(Number(post.rows[0].p99))} ms`);
}

function summarize(receiver: Receiver): { rate: number; p50: number; p99: number; max: number } {
  const receipts = receiver.receipts;
  const first = Math.min(...receipts.map((r) => r.at));
  const last = Math.max(...receipts.map((r) => r.at));
  const delays = receipts
    .map((r) => r.delay)
    .filter((d) => !Number.isNaN(d))
    .sort((a, b) => a - b);
  return {
    rate: receipts.length / Math.max(0.001, (last - first) / 1000),
    p50: percentile(delays, 50),
    p99: percentile(delays, 99),
    max: delays[delays.length - 1] ?? 0,
  };
}

async function steady(db: Client, receiver: Receiver, subscribed: number, redis: Redis): Promise<void> {
  receiver.reset();
  const commandsBefore = await redisCommands(redis);
  const phaseStart = Date.now();
  const ticks = SECONDS * 20;
  const perTick = RATE / 20;
  const started = Date.now();
  let sent = 0;
  for (let tick = 0; tick < ticks; tick++) {
    const due = started + tick * 50;
    if (Date.now() < due) await sleep(due - Date.now());
    const count = Math.round(perTick * (tick + 1)) - sent;
    await commitEvents(db, 10_000_000 + subscribed * 1_000_000 + sent, count);
    sent += count;
  }
  const achieved = sent / ((Date.now() - started) / 1000);
  const expected = sent * subscribed;
  const complete = await receiver.waitFor(expected, 300_000);
  const s = summarize(receiver);
  write(
    `steady ${fixed(RATE)} events/s for ${SECONDS} s (${fixed(achieved)} committed/s), ${subscribed} hook(s) subscribed = ${fixed(RATE * subscribed)} deliveries/s: ` +
      `${complete ? 'all' : `ONLY ${receiver.receipts.length} of`} ${fixed(expected)} delivered; delay p50 ${fixed(s.p50)} ms, p99 ${fixed(s.p99)} ms, max ${fixed(s.max)} ms ` +
      `(target p99 < 500 ms: ${s.p99 < 500 && complete ? 'met' : 'NOT met'})`,
  );
  write(
    `  steady, ${subscribed} hook(s): Redis commands per delivery ${commandsPer(commandsBefore, await redisCommands(redis), Math.max(1, receiver.receipts.length))}`,
  );
  await breakdown(`steady, ${subscribed} hook(s)`, db, phaseStart);
}

async function main(): Promise<void> {
  const admin = new Client({ connectionString: `${SERVER}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.end();

  const receiver = new Receiver();
  await receiver.listen();
  const privateRedis = await startPrivateRedis();
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(GATEWAY_PORT),
    DATABASE_URL: `${SERVER}/${DATABASE}`,
    INITIAL_ROOT_TOKEN: ROOT_TOKEN,
    LOG_LEVEL: 'warn',
    KAFKA_TOPIC_PREFIX: PREFIX,
    REDIS_PREFIX: PREFIX,
    REDIS_URL,
    HOOK_WORKER_CONCURRENCY: String(CONCURRENCY),
  };
  const gateway: ChildProcess = spawn(process.execPath, [join(ROOT, 'dist/apps/gateway/src/main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const db = new Client({ connectionString: `${SERVER}/${DATABASE}` });
  const redis = new Redis(REDIS_URL);
  try {
    await waitForHttp(`http://127.0.0.1:${GATEWAY_PORT}/-/readiness`, 60_000);
    await db.connect();
    const base = `http://127.0.0.1:${GATEWAY_PORT}/api/v4`;
    const hookIds: number[] = [];
    for (let i = 0; i < HOOKS; i++) {
      const res = await fetch(`${base}/hooks`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({
          url: `http://127.0.0.1:${receiver.port}/hook-${i}`,
          token: `bench-token-${i}`,
          push_events: true,
          repository_update_events: false,
        }),
      });
      if (res.status !== 201) throw new Error(`cannot create a hook: ${res.status} ${await res.text()}`);
      hookIds.push(((await res.json()) as Array<{ id: number }>)[0].id);
    }
    write(
      `hooks bench: ${HOOKS} hooks on a loopback receiver, worker concurrency ${CONCURRENCY}, Redis ${privateRedis ? 'private (no persistence)' : REDIS_URL}, ${machine()}`,
    );

    // Warm-up: the dispatcher has joined its group, connections are open.
    await commitEvents(db, 0, 10);
    if (!(await receiver.waitFor(10 * HOOKS, 60_000))) throw new Error('warm-up deliveries did not arrive');
    await sleep(500);

    const sampleBody = JSON.stringify({ object_kind: 'push', event_name: 'push', ...pushData(0, Date.now()) });
    const beforePlain = await cpuNow(redis);
    const plainRate = await plainLoop(`http://127.0.0.1:${receiver.port}/plain`, BURST * HOOKS, sampleBody);
    const plainCost = cpuPerUnit(beforePlain, await cpuNow(redis), BURST * HOOKS).self;
    write(
      `plain undici loop (same receiver, concurrency ${CONCURRENCY}, ${fixed(BURST * HOOKS)} POSTs of ${sampleBody.length} bytes): ${fixed(plainRate)} requests/s, ` +
        `${fixed(plainCost)} µs CPU per request (client and receiver, one process)`,
    );
    const deliveriesPerJob = Math.max(1, Math.ceil(FAN_OUT_DELIVERIES / HOOKS)) * HOOKS;
    const fanOutJobs = Math.ceil((BURST * HOOKS) / deliveriesPerJob);
    let fanOutPerDelivery = { self: 0, redis: 0 };
    let logged = { rate: 0, self: 0, postgres: 0 };
    if (ALONE) {
      const fanOut = await queueAlone(fanOutJobs, sampleBody, redis, 'fan-out');
      fanOutPerDelivery = { self: fanOut.self / deliveriesPerJob, redis: fanOut.redis / deliveriesPerJob };
      write(
        `queue alone, fan-out jobs (${fixed(fanOutJobs)} BullMQ jobs of ${deliveriesPerJob} deliveries with their events' bodies, no-op processor): ${fixed(fanOut.rate)} jobs/s; ` +
          `CPU per job ${fixed(fanOut.self)} µs in Node.js + ${fixed(fanOut.redis)} µs in Redis = per delivery ${fixed(fanOutPerDelivery.self, 1)} + ${fixed(fanOutPerDelivery.redis, 1)} µs`,
      );
      const minimal = await queueAlone(BURST * HOOKS, sampleBody, redis, 'minimal');
      write(
        `queue alone, one minimal job per delivery (the former design's floor: no data, no options, removed once completed): ${fixed(minimal.rate)} jobs/s, ${fixed(minimal.self)} µs CPU per job in Node.js + ${fixed(minimal.redis)} µs in Redis`,
      );
      logged = await logAlone(BURST * HOOKS, sampleBody, hookIds[0], db);
      write(
        `delivery log alone (${fixed(BURST * HOOKS)} rows like the burst's, HookDeliveryLog): ${fixed(logged.rate)} rows/s, ${fixed(logged.self)} µs CPU per row in Node.js + ${fixed(logged.postgres)} µs in PostgreSQL`,
      );
    }

    receiver.reset();
    const burstStart = Date.now();
    const processCpu = async () => {
      const now = await cpuNow(redis);
      return { ...serviceCpuSeconds(gateway.pid!), redis: now.redis, receiver: now.self };
    };
    const commandsBefore = await redisCommands(redis);
    const memoryBefore = residentMb(gateway.pid!);
    let memoryPeak = memoryBefore;
    const sampler = setInterval(() => (memoryPeak = Math.max(memoryPeak, residentMb(gateway.pid!))), 100);
    const cpuBefore = await processCpu();
    await commitEvents(db, 100, BURST);
    const complete = await receiver.waitFor(BURST * HOOKS, 300_000);
    const cpuAfter = await processCpu();
    clearInterval(sampler);
    const commandsAfter = await redisCommands(redis);
    const burst = summarize(receiver);
    write(
      `burst of ${fixed(BURST)} events × ${HOOKS} hooks: ${complete ? 'all' : `ONLY ${receiver.receipts.length} of`} ${fixed(BURST * HOOKS)} delivered, ${fixed(burst.rate)} deliveries/s ` +
        `= ${fixed((100 * burst.rate) / plainRate, 1)} % of the plain loop (target ≥ 50 %: ${burst.rate >= plainRate / 2 ? 'met' : 'NOT met'}); ` +
        `delay from commit p50 ${fixed(burst.p50)} ms, p99 ${fixed(burst.p99)} ms`,
    );
    const cpu = cpuPerUnit(cpuBefore, cpuAfter, BURST * HOOKS);
    write(
      `  burst: CPU per delivery (/proc) ${fixed(cpu.gateway + cpu.postgres + cpu.kafka + cpu.redis + cpu.receiver)} µs: gateway ${fixed(cpu.gateway)}, PostgreSQL ${fixed(cpu.postgres)}, ` +
        `Redis ${fixed(cpu.redis)}, Kafka ${fixed(cpu.kafka)}, receiver and bench ${fixed(cpu.receiver)} (the plain loop: ${fixed(plainCost)} µs per request)`,
    );
    write(`  burst: Redis commands per delivery ${commandsPer(commandsBefore, commandsAfter, BURST * HOOKS)}`);
    write(`  burst: gateway resident memory ${fixed(memoryBefore)} MB before, at most ${fixed(memoryPeak)} MB during the burst (sampled every 100 ms)`);
    // What the target leaves for the rest of the pipeline once the least a queued, logged POST costs is paid.
    if (ALONE) {
      const budget = (cpus().length * 1e6) / (plainRate / 2);
      const queueCost = fanOutPerDelivery.self + fanOutPerDelivery.redis;
      const least = queueCost + plainCost + logged.self + logged.postgres;
      const burstCost = cpu.gateway + cpu.postgres + cpu.kafka + cpu.redis + cpu.receiver;
      write(
        `  budget: at 50 % of the plain loop (${fixed(plainRate / 2)} deliveries/s) ${cpus().length} CPUs give ${fixed(budget)} µs of CPU per delivery; the least a delivery costs ` +
          `(its share of a fan-out job ${fixed(queueCost, 1)} + the plain loop's POST ${fixed(plainCost)} + log row ${fixed(logged.self + logged.postgres)} = ${fixed(least)} µs) leaves ${fixed(budget - least)} µs ` +
          `for everything else (outbox relay, Kafka, dispatcher and the event record, signature and headers, bookkeeping); the burst spent ${fixed(burstCost - least)} µs on it`,
      );
    }
    await breakdown('burst', db, burstStart);
    await sleep(1_000);

    if (STEADY) {
      await steady(db, receiver, HOOKS, redis);
      await sleep(1_000);
      for (const id of hookIds.slice(1)) {
        await fetch(`${base}/hooks/${id}`, {
          method: 'PUT',
          headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'content-type': 'application/json' },
          body: JSON.stringify({ push_events: false }),
        });
      }
      await steady(db, receiver, 1, redis);
    }
    const failed = await db.query(`SELECT status, count(*)::int AS n FROM system_hook_deliveries GROUP BY status ORDER BY status`);
    write(`delivery log: ${failed.rows.map((r: { status: string; n: number }) => `${r.status} ${fixed(r.n)}`).join(', ')}`);
  } finally {
    await db.end().catch(() => undefined);
    redis.disconnect();
    gateway.kill('SIGTERM');
    await new Promise((r) => gateway.once('exit', r));
    receiver.server.closeAllConnections();
    receiver.server.close();
    privateRedis?.kill('SIGTERM');
    const cleanup = new Client({ connectionString: `${SERVER}/postgres` });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await cleanup.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
