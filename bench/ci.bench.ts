/**
 * npm run bench:ci — runners taking jobs through the runner protocol.
 *
 * Starts the services and the gateway (its own process and database), pushes a `.gitlab-ci.yml`
 * of 20 jobs in one stage with git over smart HTTP, measures the idle cost first (below), then
 * registers BENCH_RUNNERS (default 50)
 * instance runners that long-poll `POST /jobs/request` and report every job they get as
 * `success` at once, and creates BENCH_PIPELINES_PER_SECOND (default 10, so 200 jobs/s) API
 * pipelines, first for BENCH_WARMUP_SECONDS (default 10) from a cold process ("cold start":
 * code not yet optimized, caches and pools empty), then for BENCH_SECONDS (default 20) on the
 * warmed service ("steady", the figures the target is read on). Prints, for each:
 * - jobs assigned per second;
 * - the pick-up delay from `pending` to `running` (the database's `started_at - queued_at`),
 *   p50 and p99;
 * - the CPU per job of the gateway and PostgreSQL;
 * - first, on the quiet service, the cost of BENCH_IDLE_RUNNERS (default 200) runners polling
 *   with nothing to do for BENCH_IDLE_SECONDS (default 20): percent of one CPU (gateway +
 *   the PostgreSQL sessions of its database) above the service's own background work, and
 *   requests.
 * Target: pick-up p99 under 100 ms at 200 jobs/s, idle runners under 2 % of one CPU.
 * BENCH_CPU_PROF=<dir> runs the gateway with `--cpu-prof` into that directory (the profile is
 * written when the bench ends it).
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { Agent, request } from 'undici';
import { cpuSecondsOf, freePort, machine, percentile, postgresCpuSeconds, postgresSessions, sleep, waitForHttp, write } from './support';

const ROOT = resolve(__dirname, '../..');
const DATABASE = process.env.BENCH_DATABASE ?? 'service_api_bench_ci';
const SERVER = 'postgres://postgres@127.0.0.1:5432';
const ROOT_TOKEN = 'bench-root-token-ci-0123456789abcdef';
const RUNNERS = Number(process.env.BENCH_RUNNERS ?? 50);
const IDLE_RUNNERS = Number(process.env.BENCH_IDLE_RUNNERS ?? 200);
const RATE = Number(process.env.BENCH_PIPELINES_PER_SECOND ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
const JOBS_PER_PIPELINE = 20;
const LONG_POLL_SECONDS = 10;
const PREFIX = `bench-ci-${Date.now()}`;
const CPU_PROF = process.env.BENCH_CPU_PROF;
let BASE = '';

const agent = new Agent({
  connections: IDLE_RUNNERS + RUNNERS + 20,
  keepAliveTimeout: 60_000,
  headersTimeout: (LONG_POLL_SECONDS + 30) * 1000,
  bodyTimeout: (LONG_POLL_SECONDS + 30) * 1000,
});

async function call(
  method: string,
  path: string,
  body?: unknown,
  token: string | null = ROOT_TOKEN,
): Promise<{ status: number; json: any; headers: Record<string, string | string[] | undefined> }> {
  const response = await request(`${BASE}${path}`, {
    method: method as 'GET',
    dispatcher: agent,
    headers: { ...(token ? { 'private-token': token } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.body.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: response.statusCode, json, headers: response.headers };
}

/** One runner: long-polls and reports each job it gets as done; counts its requests. */
class BenchRunner {
  requests = 0;
  jobs = 0;
  private stopped = false;
  private lastUpdate: string | undefined;

  constructor(private readonly token: string) {}

  async run(): Promise<void> {
    while (!this.stopped) {
      this.requests++;
      const answer = await call(
        'POST',
        '/api/v4/jobs/request',
        { token: this.token, last_update: this.lastUpdate, info: { name: 'bench-runner', version: '17.5.0' } },
        null,
      ).catch(() => null);
      if (!answer) {
        await sleep(100);
        continue;
      }
      if (answer.status === 201) {
        this.jobs++;
        await call('PUT', `/api/v4/jobs/${answer.json.id}`, { token: answer.json.token, state: 'success', exit_code: 0 }, null).catch(() => null);
      } else {
        const header = answer.headers['x-gitlab-last-update'];
        this.lastUpdate = typeof header === 'string' ? header : this.lastUpdate;
      }
    }
  }

  stop(): void {
    this.stopped = true;
  }
}

async function registerRunners(count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await call('POST', '/api/v4/user/runners', { runner_type: 'instance_type', description: `bench-${i}` });
    if (created.status !== 201) throw new Error(`runner not created: ${created.status} ${JSON.stringify(created.json)}`);
    tokens.push(created.json.token);
  }
  return tokens;
}

async function main(): Promise<void> {
  spawnSync('bash', [join(ROOT, 'scripts/services.sh'), 'up'], { stdio: 'inherit' });
  const admin = new Client({ connectionString: `${SERVER}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.end();

  const port = Number(process.env.BENCH_GATEWAY_PORT ?? (await freePort()));
  BASE = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-ci-'));
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    EXTERNAL_URL: BASE,
    DATA_DIR: dataDir,
    DATABASE_URL: `${SERVER}/${DATABASE}`,
    INITIAL_ROOT_TOKEN: ROOT_TOKEN,
    LOG_LEVEL: 'warn',
    KAFKA_TOPIC_PREFIX: PREFIX,
    REDIS_PREFIX: PREFIX,
    CI_LONG_POLL_SECONDS: String(LONG_POLL_SECONDS),
    ...(CPU_PROF ? { BENCH_EXIT_ON_SIGHUP: '1' } : {}),
  };
  const flags = CPU_PROF ? ['--require', join(ROOT, 'dist/bench/instrument.js'), '--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [];
  const gateway: ChildProcess = spawn(process.execPath, [...flags, join(ROOT, 'dist/apps/gateway/src/main.js')], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.on('exit', () => gateway.kill('SIGTERM'));
  const db = new Client({ connectionString: `${SERVER}/${DATABASE}` });
  const work = mkdtempSync(join(tmpdir(), 'bench-ci-repo-'));
  const runners: BenchRunner[] = [];
  try {
    await waitForHttp(`${BASE}/-/readiness`, 60_000);
    await db.connect();
    write(
      `bench:ci — ${IDLE_RUNNERS} idle runners for ${IDLE_SECONDS} s, then ${RUNNERS} runners, ${RATE} pipelines of ${JOBS_PER_PIPELINE} jobs per second for ${SECONDS} s; ${machine()}`,
    );
    const project = await call('POST', '/api/v4/projects', { name: 'bench-ci', initialize_with_readme: true });
    // Pipelines through the API only: the push itself creates none.
    const config = [
      `workflow: { rules: [{ if: '$CI_PIPELINE_SOURCE == "api"' }] }`,
      'stages: [test]',
      ...Array.from({ length: JOBS_PER_PIPELINE }, (_, i) => `job${i}: { stage: test, script: [echo ${i}] }`),
    ].join('\n');
    const remote = `http://root:${ROOT_TOKEN}@127.0.0.1:${port}/${project.json.path_with_namespace}.git`;
    const git = (args: string[]) => {
      const result = spawnSync('git', args, { cwd: work, encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
      if (result.status !== 0) throw new Error(`git ${args[0]}: ${result.stderr}`);
    };
    git(['clone', '-q', remote, '.']);
    writeFileSync(join(work, '.gitlab-ci.yml'), config);
    git(['add', '.gitlab-ci.yml']);
    git(['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'CI']);
    git(['push', '-q', 'origin', 'HEAD:refs/heads/main']);

    // Idle first, on a quiet service: the busy phase leaves work behind it (events to consume,
    // autovacuum) that would blur a measure taken after it.
    const gatewayPid = gateway.pid!;
    // The push's own aftermath (languages, events) settles first.
    await sleep(10_000);
    const sessions = () => postgresSessions.read(DATABASE);
    // The service's own background work with no runner at all (outbox relay, sweeps, schedulers), the baseline of the idle figure.
    const baseBefore = { gateway: cpuSecondsOf([gatewayPid]), postgres: sessions() };
    await sleep(IDLE_SECONDS * 1000);
    const baseAfter = { gateway: cpuSecondsOf([gatewayPid]), postgres: sessions() };
    const idle = (await registerRunners(IDLE_RUNNERS)).map((token) => new BenchRunner(token));
    const idleLoops = idle.map((runner) => runner.run());
    await sleep(3000); // every runner made its first (non-waiting) request and holds a long poll
    const idleBefore = { gateway: cpuSecondsOf([gatewayPid]), postgres: sessions(), requests: idle.reduce((s, r) => s + r.requests, 0) };
    await sleep(IDLE_SECONDS * 1000);
    const idleAfter = { gateway: cpuSecondsOf([gatewayPid]), postgres: sessions(), requests: idle.reduce((s, r) => s + r.requests, 0) };
    const percentOf = (from: number, to: number) => ((to - from) / IDLE_SECONDS) * 100;
    const postgresPercent = (from: Map<number, number>, to: Map<number, number>) => (postgresSessions.secondsBetween(from, to) / IDLE_SECONDS) * 100;
    const baseGateway = percentOf(baseBefore.gateway, baseAfter.gateway);
    const basePostgres = postgresPercent(baseBefore.postgres, baseAfter.postgres);
    const idleGateway = Math.max(0, percentOf(idleBefore.gateway, idleAfter.gateway) - baseGateway);
    const idlePostgres = Math.max(0, postgresPercent(idleBefore.postgres, idleAfter.postgres) - basePostgres);
    write(
      `no runner for ${IDLE_SECONDS} s (the service's background work, subtracted below): CPU gateway ${baseGateway.toFixed(2)} % + PostgreSQL ${basePostgres.toFixed(2)} % of one CPU (its sessions)`,
    );
    write(
      `${IDLE_RUNNERS} idle runners for ${IDLE_SECONDS} s: ${idleAfter.requests - idleBefore.requests} requests; CPU gateway ${idleGateway.toFixed(2)} % + PostgreSQL ${idlePostgres.toFixed(2)} % of one CPU above that (PostgreSQL: the service's sessions)`,
    );
    // They finish their current long poll before the busy phase, which they would otherwise join.
    for (const runner of idle) runner.stop();
    await Promise.race([Promise.all(idleLoops), sleep((LONG_POLL_SECONDS + 2) * 1000)]);

    for (const token of await registerRunners(RUNNERS)) runners.push(new BenchRunner(token));
    const loops = runners.map((runner) => runner.run());
    await sleep(1000);

    /** Creates RATE pipelines a second for `seconds`, waits until their jobs ran, and measures them. */
    const phase = async (seconds: number) => {
      const [{ last }] = (await db.query('SELECT COALESCE(max(id), 0)::int AS last FROM ci_jobs')).rows as { last: number }[];
      const cpuBefore = { gateway: cpuSecondsOf([gatewayPid]), postgres: postgresCpuSeconds() };
      const jobsBefore = runners.reduce((sum, runner) => sum + runner.jobs, 0);
      const started = Date.now();
      let created = 0;
      let refused = 0;
      const creations: Promise<void>[] = [];
      for (let tick = 0; tick < seconds * RATE; tick++) {
        const due = started + (tick * 1000) / RATE;
        const wait = due - Date.now();
        if (wait > 0) await sleep(wait);
        creations.push(
          call('POST', `/api/v4/projects/${project.json.id}/pipeline`, { ref: 'main' }).then((answer) => {
            if (answer.status === 201) created++;
            else refused++;
          }),
        );
      }
      await Promise.all(creations);
      const expected = created * JOBS_PER_PIPELINE;
      const deadline = Date.now() + 120_000;
      let done = 0;
      while (Date.now() < deadline) {
        done = runners.reduce((sum, runner) => sum + runner.jobs, 0) - jobsBefore;
        if (done >= expected) break;
        await sleep(100);
      }
      const elapsed = (Date.now() - started) / 1000;
      const cpuAfter = { gateway: cpuSecondsOf([gatewayPid]), postgres: postgresCpuSeconds() };
      const delays = (
        (
          await db.query(
            `SELECT extract(epoch FROM (started_at - queued_at)) * 1000 AS ms FROM ci_jobs WHERE id > $1 AND started_at IS NOT NULL AND queued_at IS NOT NULL ORDER BY 1`,
            [last],
          )
        ).rows as { ms: string }[]
      ).map((row) => Number(row.ms));
      return { created, refused, expected, done, elapsed, delays, cpuBefore, cpuAfter };
    };
    const report = (title: string, r: Awaited<ReturnType<typeof phase>>) => {
      write(
        `${title}: pipelines created ${r.created} (refused ${r.refused}), jobs run ${r.done} of ${r.expected} in ${r.elapsed.toFixed(1)} s: ${(r.done / r.elapsed).toFixed(0)} jobs assigned per second`,
      );
      write(
        `${title}: pick-up delay pending → running   p50 ${percentile(r.delays, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(r.delays, 99).toFixed(1).padStart(7)} ms   max ${(r.delays[r.delays.length - 1] ?? 0).toFixed(1)} ms`,
      );
      write(
        `${title}: CPU per job: gateway ${(((r.cpuAfter.gateway - r.cpuBefore.gateway) * 1e3) / Math.max(1, r.done)).toFixed(2)} ms, PostgreSQL ${(((r.cpuAfter.postgres - r.cpuBefore.postgres) * 1e3) / Math.max(1, r.done)).toFixed(2)} ms`,
      );
    };
    // From cold: the first pipelines of a fresh process (code not yet optimized, caches and connections empty).
    report('cold start', await phase(WARMUP_SECONDS));
    const measured = await phase(SECONDS);
    report('steady', measured);
    const p99 = percentile(measured.delays, 99);
    write(
      `target pick-up p99 < 100 ms at ${RATE * JOBS_PER_PIPELINE} jobs/s: ${p99 < 100 ? 'met' : 'NOT met'}; idle < 2 % of one CPU: ${idleGateway + idlePostgres < 2 ? 'met' : 'NOT met'}`,
    );
  } catch (error) {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    throw error;
  } finally {
    for (const runner of runners) runner.stop();
    await db.end().catch(() => undefined);
    if (CPU_PROF) {
      gateway.kill('SIGHUP');
      await new Promise((done) => gateway.once('exit', done));
    }
    gateway.kill('SIGTERM');
    await agent.close().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
