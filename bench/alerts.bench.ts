/**
 * npm run bench:alerts — the notify endpoint against Prometheus Alertmanager, side by side.
 *
 * Starts the services, the gateway (its own process, its own database) and Alertmanager
 * (Debian package `prometheus-alertmanager`, installed when missing and run as root) on
 * loopback, then drives both with the same realistic stream — repeats of a pool of
 * fingerprints, new alerts, resolutions — one alert per request, at increasing concurrency.
 * Prints alerts/s and p50/p99 latency for both and the ratio (and the 1-, 4- and 32-connection
 * figures on their own lines), then an Alertmanager-shaped stream — webhooks of 1–50 alerts to
 * the Prometheus integration, as Alertmanager sends them, against Alertmanager receiving the
 * same alerts on /api/v2/alerts — with alerts/s and CPU per alert, then the p99 of each at half
 * its own maximum rate (open loop). Finally checks that every alert the service acknowledged
 * is committed in PostgreSQL.
 *
 * Around each run it reads the CPU time of every process involved (`/proc`): the gateway,
 * PostgreSQL (all its processes), Kafka, Alertmanager and this load client, and prints the CPU
 * per alert of each side.
 *
 * For reference, it also drives a bare Node.js HTTP server (its own process: reads the body and
 * answers `[]` at once, no parsing, no storage) with the service's stream at the highest
 * concurrency: what any Node.js endpoint could serve to this client on these CPUs.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { LoadRequest, LoadResult, runLoad } from './load';
import { cpuPerUnit, cpuSecondsOf, machine, ownCpuSeconds, serviceCpuSeconds, waitForHttp } from './support';

const ROOT = resolve(__dirname, '../..');
const GATEWAY_PORT = Number(process.env.BENCH_GATEWAY_PORT ?? 3901);
const ALERTMANAGER_PORT = Number(process.env.BENCH_ALERTMANAGER_PORT ?? 19093);
const DATABASE = process.env.BENCH_DATABASE ?? 'service_api_bench';
const SERVER = 'postgres://postgres@127.0.0.1:5432';
const ROOT_TOKEN = 'bench-root-token-0123456789abcdef';
const LEVELS = (process.env.BENCH_CONCURRENCY ?? '1,4,32,256').split(',').map(Number);
/** Connections of the Alertmanager-shaped stream (webhooks of 1–50 alerts), and its requests per level. */
const WEBHOOK_LEVELS = (process.env.BENCH_WEBHOOK_CONCURRENCY ?? '4,32').split(',').map(Number);
const WEBHOOK_REQUESTS = Number(process.env.BENCH_WEBHOOK_REQUESTS ?? 400);
/** Alert groups of the Alertmanager-shaped stream; group g holds 1 + (37 g mod 50) alerts. */
const GROUPS = 100;
const groupSize = (g: number): number => 1 + ((g * 37) % 50);
const ZERO_TIME = '0001-01-01T00:00:00Z';
const PER_LEVEL = Number(process.env.BENCH_REQUESTS ?? 4000);
const POOL = 200;
const BARE_PORT = Number(process.env.BENCH_BARE_PORT ?? 3909);
/** Kafka topic and Redis key prefix of the bench's gateway (several benches can share the services). */
const PREFIX = process.env.BENCH_PREFIX ?? 'bench';

/** The reference server: node:http, keep-alive, reads the whole body, answers `[]`. */
const BARE_SERVER = `require('node:http').createServer((req, res) => { req.on('data', () => {}); req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('[]')); }).listen(${BARE_PORT}, '127.0.0.1');`;

/**
 * The stream: 70 % repeats of a pool fingerprint, 20 % new alerts, 10 % resolutions of a pool
 * fingerprint (a subset of the pool that is also repeated, so recoveries resolve open alerts
 * and later repeats open new ones).
 */
function streamEvent(i: number, run: string): { fingerprint: string; resolve: boolean; title: string } {
  const r = (i * 7919) % 100;
  if (r < 20) return { fingerprint: `${run}-new-${i}`, resolve: false, title: `Disk almost full on host-${i % 50}` };
  const resolve = r >= 90;
  const pool = resolve ? (i * 13) % POOL : (i * 31) % POOL;
  return { fingerprint: `${run}-pool-${pool}`, resolve, title: `High latency on service-${pool}` };
}

function serviceRequest(path: string, key: string, run: string) {
  return (i: number): LoadRequest => {
    const e = streamEvent(i, run);
    const now = new Date().toISOString();
    const payload: Record<string, unknown> = {
      title: e.title,
      description: 'p99 above the objective for 5 minutes',
      severity: ['critical', 'high', 'medium', 'low'][i % 4],
      service: 'checkout',
      monitoring_tool: 'prometheus',
      hosts: [`host-${i % 50}`],
      start_time: now,
      fingerprint: e.fingerprint,
      region: 'eu-west-1',
    };
    if (e.resolve) payload.end_time = now;
    return { path, headers: { authorization: `Bearer ${key}` }, body: JSON.stringify(payload) };
  };
}

function alertmanagerRequest(run: string) {
  return (i: number): LoadRequest => {
    const e = streamEvent(i, run);
    const now = new Date();
    const alert: Record<string, unknown> = {
      labels: {
        alertname: e.title,
        fingerprint: e.fingerprint,
        service: 'checkout',
        severity: ['critical', 'high', 'medium', 'low'][i % 4],
        instance: `host-${i % 50}`,
      },
      annotations: { description: 'p99 above the objective for 5 minutes', region: 'eu-west-1' },
      startsAt: now.toISOString(),
    };
    if (e.resolve) alert.endsAt = now.toISOString();
    return { path: '/api/v2/alerts', headers: {}, body: JSON.stringify([alert]) };
  };
}

/**
 * The Alertmanager-shaped stream: request i re-sends group (31 i mod 100) — its 1–50 alerts, one
 * per instance — as Alertmanager does every group_interval; one request in ten reports the whole
 * group resolved (later requests open its alerts again). Most alerts are repeats of open ones.
 */
function groupEvent(i: number): { g: number; resolve: boolean } {
  return { g: (i * 31) % GROUPS, resolve: (i * 7919) % 100 >= 90 };
}

function groupAlerts(i: number, run: string) {
  const { g, resolve } = groupEvent(i);
  const now = new Date().toISOString();
  return Array.from({ length: groupSize(g) }, (_, j) => ({
    labels: { alertname: `${run}-Group${g}`, instance: `host-${j}:9100`, job: 'checkout', severity: ['critical', 'warning', 'info'][j % 3] },
    annotations: { summary: `Group ${g} firing on host-${j}`, description: 'p99 above the objective for 5 minutes' },
    startsAt: now,
    endsAt: resolve ? now : undefined,
    generatorURL: `http://prometheus.example:9090/graph?g0.expr=group${g}`,
    fingerprint: `${run}-${g}-${j}`,
    resolve,
  }));
}

/** Alerts carried by the first `requests` requests of the Alertmanager-shaped stream. */
const webhookAlertCount = (requests: number): number => Array.from({ length: requests }, (_, i) => groupSize(groupEvent(i).g)).reduce((a, b) => a + b, 0);

function webhookRequest(path: string, key: string, run: string) {
  return (i: number): LoadRequest => {
    const alerts = groupAlerts(i, run);
    const status = alerts[0].resolve ? 'resolved' : 'firing';
    const alertname = alerts[0].labels.alertname;
    const body = {
      version: '4',
      groupKey: `{}:{alertname="${alertname}"}`,
      truncatedAlerts: 0,
      status,
      receiver: 'service-api',
      groupLabels: { alertname },
      commonLabels: { alertname, job: 'checkout' },
      commonAnnotations: { description: 'p99 above the objective for 5 minutes' },
      externalURL: 'http://alertmanager.example:9093',
      alerts: alerts.map(({ resolve, endsAt, ...a }) => ({ ...a, status: resolve ? 'resolved' : 'firing', endsAt: endsAt ?? ZERO_TIME })),
    };
    return { path, headers: { authorization: `Bearer ${key}` }, body: JSON.stringify(body) };
  };
}

/** The same alerts, as a client (or a Prometheus server) posts them to Alertmanager's API. */
function alertmanagerGroupRequest(run: string) {
  return (i: number): LoadRequest => {
    const alerts = groupAlerts(i, run).map(({ labels, annotations, startsAt, endsAt, generatorURL }) => ({
      labels,
      annotations,
      startsAt,
      ...(endsAt ? { endsAt } : {}),
      generatorURL,
    }));
    return { path: '/api/v2/alerts', headers: {}, body: JSON.stringify(alerts) };
  };
}

/** The `_sum` and `_count` of the gateway's histograms (and its gauges), by series, from `/-/metrics`. */
async function scrapeMetrics(): Promise<Map<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${GATEWAY_PORT}/-/metrics`)).text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('alert_') && !line.startsWith('nodejs_eventloop_lag')) continue;
    const space = line.lastIndexOf(' ');
    values.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return values;
}

/**
 * Where a request's wall time went during a run, from the gateway's ingestion histograms
 * (means per request or per batch attempt, ms) and its event-loop delay (collected since the
 * previous scrape).
 */
function timeBreakdown(before: Map<string, number>, after: Map<string, number>): string {
  const delta = (series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
  const mean = (name: string, labels = '') => {
    const count = delta(`${name}_count${labels}`);
    return count > 0 ? delta(`${name}_sum${labels}`) / count : NaN;
  };
  const stage = (s: string) => (mean('alert_ingest_stage_seconds', `{stage="${s}"}`) * 1000).toFixed(2);
  const batches = delta('alert_ingest_batch_payloads_count');
  // prom-client samples the delay with a 10 ms timer (monitorEventLoopDelay): its values include the 10 ms.
  const lag = (stat: string) => ((after.get(`nodejs_eventloop_lag_${stat}_seconds`) ?? NaN) * 1000 - 10).toFixed(2);
  return (
    `request ${(mean('alert_ingestion_duration_seconds') * 1000).toFixed(2)} ms = rate limit ${stage('rate_limit')} + queued ${stage('queued')} + in batch ${stage('batch')} + rest; ` +
    `per batch attempt: connect ${stage('connect')}, lock+read ${stage('lock')}, plan ${stage('plan')}, write+COMMIT ${stage('write_commit')}; ` +
    `${batches} batches of ${mean('alert_ingest_batch_payloads').toFixed(1)} payloads, ${mean('alert_ingest_batches_in_flight').toFixed(2)} in flight, ` +
    `${delta('alert_ingest_batch_retries_total{reason="open_alert_created"}')} run again after another created an open alert; ` +
    `event-loop delay beyond its 10 ms sampling interval: mean ${lag('mean')} ms, p99 ${lag('p99')} ms`
  );
}

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

function startAlertmanager(): ChildProcess {
  // Installs Debian's package when missing (as root).
  const found = spawnSync('bash', [join(ROOT, 'scripts/alertmanager.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (found.status !== 0) throw new Error('could not install prometheus-alertmanager (run as root, or install it first)');
  const binary = found.stdout.trim();
  const dir = mkdtempSync(join(tmpdir(), 'bench-am-'));
  writeFileSync(join(dir, 'alertmanager.yml'), "route:\n  receiver: 'null'\nreceivers:\n  - name: 'null'\n");
  return spawn(
    binary,
    [
      `--config.file=${join(dir, 'alertmanager.yml')}`,
      `--storage.path=${dir}`,
      `--web.listen-address=127.0.0.1:${ALERTMANAGER_PORT}`,
      '--cluster.listen-address=',
      '--log.level=warn',
    ],
    { stdio: 'ignore' },
  );
}

/** CPU seconds so far of the service's processes, Alertmanager and this load client. */
const cpuReading = (gatewayPid: number, alertmanagerPid: number) => ({
  ...serviceCpuSeconds(gatewayPid),
  alertmanager: cpuSecondsOf([alertmanagerPid]),
  client: ownCpuSeconds(),
});

const row = (name: string, c: number | string, r: LoadResult) =>
  `${name.padEnd(13)} ${String(c).padStart(11)} ${r.rate.toFixed(0).padStart(9)} ${r.p50.toFixed(2).padStart(9)} ${r.p99.toFixed(2).padStart(9)} ${String(r.failures).padStart(8)}`;

async function main(): Promise<void> {
  spawnSync('bash', [join(ROOT, 'scripts/services.sh'), 'up'], { stdio: 'inherit' });
  const admin = new Client({ connectionString: `${SERVER}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.end();

  const gateway = spawn(process.execPath, [join(ROOT, 'dist/apps/gateway/src/main.js')], {
    env: {
      ...process.env,
      PORT: String(GATEWAY_PORT),
      HOST: '127.0.0.1',
      DATABASE_URL: `${SERVER}/${DATABASE}`,
      INITIAL_ROOT_TOKEN: ROOT_TOKEN,
      LOG_LEVEL: 'warn',
      KAFKA_TOPIC_PREFIX: PREFIX,
      REDIS_PREFIX: PREFIX,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const alertmanager = startAlertmanager();
  const stop = () => {
    gateway.kill('SIGTERM');
    alertmanager.kill('SIGTERM');
  };
  process.on('exit', stop);
  try {
    await waitForHttp(`http://127.0.0.1:${GATEWAY_PORT}/-/readiness`, 60_000);
    await waitForHttp(`http://127.0.0.1:${ALERTMANAGER_PORT}/-/ready`, 30_000);

    const project = await api('POST', '/projects', { name: `bench-${Date.now()}` });
    const integration = await api('POST', `/projects/${project.id}/alert_management/http_integrations`, { name: 'bench', active: true });
    const notifyPath = new URL(integration.url).pathname;

    const ok: Record<string, number> = { service: 0 };
    process.stdout.write(`\n${machine()}: figures vary with what else runs; compare the ratios within one run\n`);
    process.stdout.write(`\nstream: ${PER_LEVEL} alerts per level, pool ${POOL} fingerprints (70 % repeats, 20 % new, 10 % resolutions)\n`);
    process.stdout.write(
      `${'target'.padEnd(13)} ${'concurrency'.padStart(11)} ${'alerts/s'.padStart(9)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} ${'failures'.padStart(8)}\n`,
    );
    let bestService = 0;
    let bestAm = 0;
    const cpuLines: string[] = [];
    let topCost = { service: 0, alertmanager: 0, serviceClient: 0, amClient: 0 };
    const levelRates = new Map<number, { service: number; am: number; p50: number }>();
    const breakdowns: string[] = [];
    for (const c of LEVELS) {
      const run = `c${c}`;
      const beforeMetrics = await scrapeMetrics();
      const beforeService = cpuReading(gateway.pid!, alertmanager.pid!);
      const s = await runLoad(`http://127.0.0.1:${GATEWAY_PORT}`, serviceRequest(notifyPath, integration.token, run), { total: PER_LEVEL, concurrency: c });
      const serviceCpu = cpuPerUnit(beforeService, cpuReading(gateway.pid!, alertmanager.pid!), PER_LEVEL);
      breakdowns.push(`c=${c}: ${timeBreakdown(beforeMetrics, await scrapeMetrics())}`);
      ok.service += s.statuses['200'] ?? 0;
      const beforeAm = cpuReading(gateway.pid!, alertmanager.pid!);
      const a = await runLoad(`http://127.0.0.1:${ALERTMANAGER_PORT}`, alertmanagerRequest(run), { total: PER_LEVEL, concurrency: c });
      const amCpu = cpuPerUnit(beforeAm, cpuReading(gateway.pid!, alertmanager.pid!), PER_LEVEL);
      process.stdout.write(`${row('service', c, s)}\n${row('alertmanager', c, a)}\n`);
      levelRates.set(c, { service: s.rate, am: a.rate, p50: s.p50 });
      const serviceTotal = serviceCpu.gateway + serviceCpu.postgres + serviceCpu.kafka;
      cpuLines.push(
        `c=${c}: service ${serviceTotal.toFixed(0)} µs (gateway ${serviceCpu.gateway.toFixed(0)} + PostgreSQL ${serviceCpu.postgres.toFixed(0)} + Kafka ${serviceCpu.kafka.toFixed(0)}), ` +
          `Alertmanager ${amCpu.alertmanager.toFixed(0)} µs; load client ${serviceCpu.client.toFixed(0)} / ${amCpu.client.toFixed(0)} µs`,
      );
      if (s.rate > bestService) topCost = { ...topCost, service: serviceTotal, serviceClient: serviceCpu.client };
      if (a.rate > bestAm) topCost = { ...topCost, alertmanager: amCpu.alertmanager, amClient: amCpu.client };
      bestService = Math.max(bestService, s.rate);
      bestAm = Math.max(bestAm, a.rate);
    }
    process.stdout.write(`\nmax alerts/s: service ${bestService.toFixed(0)}, alertmanager ${bestAm.toFixed(0)}, ratio ${(bestService / bestAm).toFixed(2)}\n`);
    for (const c of [1, 4, 32]) {
      const at = levelRates.get(c);
      if (at)
        process.stdout.write(
          `  ${c} connection${c === 1 ? '' : 's'}: service ${at.service.toFixed(0)} alerts/s (p50 ${at.p50.toFixed(1)} ms), alertmanager ${at.am.toFixed(0)}, ratio ${(at.service / at.am).toFixed(2)}\n`,
        );
    }
    process.stdout.write(`where the service's time goes (gateway metrics, means):\n${breakdowns.map((l) => `  ${l}`).join('\n')}\n`);
    process.stdout.write(`CPU per alert (all CPUs; /proc):\n${cpuLines.map((l) => `  ${l}`).join('\n')}\n`);
    const cores = cpus().length;
    process.stdout.write(
      `at each side's maximum: the service spends ${topCost.service.toFixed(0)} µs of CPU per alert, Alertmanager ${topCost.alertmanager.toFixed(0)} µs (${(topCost.service / Math.max(1, topCost.alertmanager)).toFixed(1)}×); ` +
        `with the load client's share, ${cores} CPUs allow at most ${((cores * 1e6) / (topCost.service + topCost.serviceClient)).toFixed(0)} service alerts/s\n`,
    );

    // The Alertmanager-shaped stream: webhooks of 1–50 alerts to the Prometheus integration of a
    // project of its own, against Alertmanager receiving the same alerts on /api/v2/alerts.
    const webhookProject = await api('POST', '/projects', { name: `bench-webhooks-${Date.now()}` });
    const prometheus = await api('POST', `/projects/${webhookProject.id}/alert_management/http_integrations`, { name: 'alertmanager', type: 'prometheus' });
    const webhookPath = new URL(prometheus.url).pathname;
    const perLevelAlerts = webhookAlertCount(WEBHOOK_REQUESTS);
    let webhookAcknowledged = 0;
    let webhookFailures = 0;
    process.stdout.write(
      `\nAlertmanager-shaped stream: ${WEBHOOK_REQUESTS} webhooks of 1–50 alerts (${perLevelAlerts} alerts) per level, ${GROUPS} groups re-sent, 10 % resolved\n` +
        `${'target'.padEnd(13)} ${'connections'.padStart(11)} ${'alerts/s'.padStart(9)} ${'requests/s'.padStart(10)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} ${'failures'.padStart(8)} ${'CPU µs/alert'.padStart(13)}\n`,
    );
    const webhookRow = (name: string, c: number, r: LoadResult, cpu: number) =>
      `${name.padEnd(13)} ${String(c).padStart(11)} ${((r.rate * perLevelAlerts) / WEBHOOK_REQUESTS).toFixed(0).padStart(9)} ${r.rate.toFixed(0).padStart(10)} ${r.p50.toFixed(2).padStart(9)} ${r.p99.toFixed(2).padStart(9)} ${String(r.failures).padStart(8)} ${cpu.toFixed(0).padStart(13)}`;
    for (const c of WEBHOOK_LEVELS) {
      const run = `w${c}`;
      const beforeMetrics = await scrapeMetrics();
      const beforeService = cpuReading(gateway.pid!, alertmanager.pid!);
      const s = await runLoad(`http://127.0.0.1:${GATEWAY_PORT}`, webhookRequest(webhookPath, prometheus.token, run), {
        total: WEBHOOK_REQUESTS,
        concurrency: c,
      });
      const serviceCpu = cpuPerUnit(beforeService, cpuReading(gateway.pid!, alertmanager.pid!), perLevelAlerts);
      const webhookBreakdown = timeBreakdown(beforeMetrics, await scrapeMetrics());
      if (s.failures === 0) webhookAcknowledged += perLevelAlerts;
      webhookFailures += s.failures;
      const beforeAm = cpuReading(gateway.pid!, alertmanager.pid!);
      const a = await runLoad(`http://127.0.0.1:${ALERTMANAGER_PORT}`, alertmanagerGroupRequest(run), { total: WEBHOOK_REQUESTS, concurrency: c });
      const amCpu = cpuPerUnit(beforeAm, cpuReading(gateway.pid!, alertmanager.pid!), perLevelAlerts);
      process.stdout.write(
        `${webhookRow('service', c, s, serviceCpu.gateway + serviceCpu.postgres + serviceCpu.kafka)}\n${webhookRow('alertmanager', c, a, amCpu.alertmanager)}\n`,
      );
      process.stdout.write(
        `  ratio ${(s.rate / a.rate).toFixed(2)}; service CPU per alert: gateway ${serviceCpu.gateway.toFixed(0)} + PostgreSQL ${serviceCpu.postgres.toFixed(0)} + Kafka ${serviceCpu.kafka.toFixed(0)} µs\n` +
          `  ${webhookBreakdown}\n`,
      );
    }

    const bare = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: 'ignore' });
    try {
      await waitForHttp(`http://127.0.0.1:${BARE_PORT}/`, 10_000);
      const top = Math.max(...LEVELS);
      const b = await runLoad(`http://127.0.0.1:${BARE_PORT}`, serviceRequest(notifyPath, integration.token, 'bare'), { total: PER_LEVEL, concurrency: top });
      process.stdout.write(`${row('bare node', top, b)}\n`);
      process.stdout.write(
        `reference: a bare Node.js HTTP server (no parsing, no storage) serves ${b.rate.toFixed(0)} requests/s to this client = ${(b.rate / bestAm).toFixed(2)} of Alertmanager\n`,
      );
    } finally {
      bare.kill('SIGTERM');
    }

    // Half the maximum rate is a steady state: first let the relay publish what the runs at the
    // maximum rate left in the outbox (it would otherwise compete with the measured requests).
    const drainStart = Date.now();
    const db = new Client({ connectionString: `${SERVER}/${DATABASE}` });
    await db.connect();
    while (Date.now() - drainStart < 120_000) {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL`);
      if (rows[0].n === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    process.stdout.write(`outbox backlog of the maximum-rate runs published in ${((Date.now() - drainStart) / 1000).toFixed(1)} s\n`);
    const halfS = await runLoad(`http://127.0.0.1:${GATEWAY_PORT}`, serviceRequest(notifyPath, integration.token, 'half'), {
      total: PER_LEVEL,
      concurrency: 256,
      ratePerSecond: bestService / 2,
    });
    ok.service += halfS.statuses['200'] ?? 0;
    const halfA = await runLoad(`http://127.0.0.1:${ALERTMANAGER_PORT}`, alertmanagerRequest('half'), {
      total: PER_LEVEL,
      concurrency: 256,
      ratePerSecond: bestAm / 2,
    });
    process.stdout.write(`${row('service', `${(bestService / 2).toFixed(0)}/s`, halfS)}\n${row('alertmanager', `${(bestAm / 2).toFixed(0)}/s`, halfA)}\n`);
    process.stdout.write(`p99 at half the maximum rate: service ${halfS.p99.toFixed(2)} ms (target < 50 ms), alertmanager ${halfA.p99.toFixed(2)} ms\n`);

    // Each acknowledged payload is exactly one of: a new alert (event_count 1), a repeat
    // (event_count + 1), a resolution (the alert resolved: recoveries do not count events), or an
    // unmatched recovery (a row of its own).
    const committed = async (projectId: number): Promise<number> =>
      Number(
        (
          await db.query(
            `SELECT (SELECT coalesce(sum(event_count), 0) FROM alerts WHERE project_id = $1)
                  + (SELECT count(*) FROM alerts WHERE project_id = $1 AND status = 'resolved')
                  + (SELECT count(*) FROM alert_unmatched_recoveries WHERE project_id = $1) AS received`,
            [projectId],
          )
        ).rows[0].received,
      );
    const received = await committed(project.id);
    const webhookReceived = await committed(webhookProject.id);
    // What the relay, Kafka and every consumer then handle: outbox rows per acknowledged alert.
    const outboxRows = async (projectId: number): Promise<number> =>
      Number((await db.query(`SELECT count(*)::int AS n FROM outbox_events WHERE payload->>'project_id' = $1`, [String(projectId)])).rows[0].n);
    const [serviceRows, webhookRows] = [await outboxRows(project.id), await outboxRows(webhookProject.id)];
    await db.end();
    process.stdout.write(
      `durability: ${ok.service} payloads acknowledged with 200, ${received} committed in PostgreSQL${received === ok.service ? ' (all, none extra)' : ' — MISMATCH'}\n`,
    );
    process.stdout.write(
      `outbox rows (domain events) per acknowledged alert: one alert per request ${(serviceRows / Math.max(1, ok.service)).toFixed(3)}, webhooks ${(webhookRows / Math.max(1, webhookAcknowledged)).toFixed(3)}\n`,
    );
    process.stdout.write(
      webhookFailures === 0
        ? `durability (webhooks): ${webhookAcknowledged} alerts acknowledged with 200, ${webhookReceived} committed${webhookReceived === webhookAcknowledged ? ' (all, none extra)' : ' — MISMATCH'}\n`
        : `durability (webhooks): ${webhookFailures} webhooks failed; ${webhookReceived} alerts committed\n`,
    );
  } finally {
    stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
