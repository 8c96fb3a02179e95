import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createTestDatabase, eventually } from '@app/testing';
import { POOL_MAX_CONNECTIONS } from '@app/database';
import { cloneUrl, GitClient } from './support/git-client';
import { api } from './support/test-gateway';

const ROOT = resolve(__dirname, '../..');

/** The gateway's connections: its pool, the outbox relay's LISTEN and the CI job queue's LISTEN (docs/background-work.md). */
const CONNECTION_BOUND = POOL_MAX_CONNECTIONS + 2;
const OUTBOX_LISTEN = 'service-api-outbox-relay';
const CI_LISTEN = 'service-api-ci-job-queue';

const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });

const RUNNER_INFO = { name: 'gitlab-runner', version: '17.5.0', revision: 'abc', platform: 'linux', architecture: 'amd64', executor: 'shell' };

/**
 * PostgreSQL cutting the gateway's connections (what a restart or a failover does: every backend
 * terminated), several times, with and without load: the process stays up, its connections come
 * back to their bound (never one more per cut), the LISTEN wake-ups work again, readiness comes
 * back by itself, and nothing it acknowledged is lost. The gateway runs as a real process from a
 * private build, so that a crash is seen as one.
 */
describe('PostgreSQL connections cut under the gateway', () => {
  let outDir: string;
  let db: { url: string; drop: () => Promise<void> };
  let admin: Client;
  let gateway: ChildProcess;
  let exited: string | null = null;
  let output = '';
  let base: string;
  let rootToken: string;
  let git: GitClient;
  let project: { id: number; path_with_namespace: string };
  let runner: { id: number; token: string };

  /**
   * What PostgreSQL does to the service on a restart or failover: every backend of its database
   * terminated. Returns their pids (a terminated backend may still be listed for a moment).
   */
  const terminateAll = async (): Promise<Set<number>> =>
    new Set(
      (
        await admin.query<{ pid: number }>(
          'SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        )
      ).rows.map((r) => r.pid),
    );

  /** The gateway's connections to its database, by `application_name` (every connection but the test's own), except `gone` ones. */
  const connections = async (gone = new Set<number>()): Promise<{ total: number; outbox: number; ci: number; pool: number }> => {
    const { rows } = await admin.query<{ name: string; pid: number }>(
      "SELECT coalesce(application_name, '') AS name, pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
    );
    const live = rows.filter((r) => !gone.has(r.pid));
    const of = (name: string) => live.filter((r) => r.name === name).length;
    return { total: live.length, outbox: of(OUTBOX_LISTEN), ci: of(CI_LISTEN), pool: of('service-api') };
  };

  /** Both LISTEN connections are back (new backends, not the `killed` ones), one each, and the total is within the bound. */
  const settled =
    (killed = new Set<number>()) =>
    async () => {
      if (exited) throw new Error(`the gateway ended (${exited})`);
      const c = await connections(killed);
      const all = await connections();
      return c.outbox === 1 && c.ci === 1 && all.total <= CONNECTION_BOUND ? all : undefined;
    };

  const ready = async (): Promise<boolean> => (await fetch(`${base}/-/readiness`).catch(() => null))?.status === 200;

  /** A runner's long poll (`signal` ends it early: the load's runners stop with the load). */
  const requestJob = async (lastUpdate?: string, signal?: AbortSignal): Promise<{ status: number; body: { id: number } | undefined; headers: Headers }> => {
    try {
      const res = await fetch(`${base}/api/v4/jobs/request`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: runner.token, last_update: lastUpdate, info: RUNNER_INFO }),
        signal,
      });
      const text = await res.text();
      return { status: res.status, body: res.status === 201 ? (JSON.parse(text) as { id: number }) : undefined, headers: res.headers };
    } catch {
      return { status: 0, body: undefined, headers: new Headers() };
    }
  };

  const createPipeline = () => api(base, 'POST', `/api/v4/projects/${project.id}/pipeline`, { token: rootToken, body: { ref: 'main' } });

  beforeAll(async () => {
    mkdirSync(join(ROOT, '.cache'), { recursive: true });
    outDir = mkdtempSync(join(ROOT, '.cache', 'pg-faults-build-'));
    const built = spawnSync(join(ROOT, 'node_modules/.bin/swc'), ['apps', 'libs', '-d', outDir, '-q'], { cwd: ROOT, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
    db = await createTestDatabase('pg-faults');
    admin = new Client({ connectionString: db.url, application_name: 'pg-faults-test' });
    admin.on('error', () => undefined);
    await admin.connect();

    const port = await freePort();
    rootToken = `root-${randomBytes(16).toString('hex')}`;
    const prefix = `t${randomBytes(4).toString('hex')}`;
    gateway = spawn(process.execPath, [join(outDir, 'apps/gateway/src/main.js')], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: db.url,
        INITIAL_ROOT_TOKEN: rootToken,
        LOG_LEVEL: 'error',
        KAFKA_TOPIC_PREFIX: prefix,
        REDIS_PREFIX: prefix,
        DATA_DIR: join(outDir, 'data'),
        // The relay publishes when woken by NOTIFY (or when its LISTEN connection comes back),
        // not by polling: a publication proves the LISTEN works.
        OUTBOX_POLL_MS: '600000',
        CI_LONG_POLL_SECONDS: '30',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Its last error logs, shown if it ends.
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
    gateway.stdout?.on('data', keep);
    gateway.stderr?.on('data', keep);
    gateway.on('exit', (code, signal) => (exited = `exit code ${code}, signal ${signal}`));
    base = `http://127.0.0.1:${port}`;
    await eventually(async () => ((await ready()) ? true : undefined), 'the gateway to be ready', 90_000, 200);

    const created = await api(base, 'POST', '/api/v4/projects', { token: rootToken, body: { name: 'faults', initialize_with_readme: true } });
    if (created.status !== 201) throw new Error(created.text);
    project = created.body;
    const registered = await api(base, 'POST', '/api/v4/user/runners', {
      token: rootToken,
      body: { runner_type: 'project_type', project_id: project.id, description: 'shell' },
    });
    if (registered.status !== 201) throw new Error(registered.text);
    runner = registered.body;
    git = new GitClient();
    const work = git.dir('faults');
    await git.ok(['clone', '-q', cloneUrl(base, project.path_with_namespace, { username: 'root', token: rootToken }), work]);
    await git.commitFile(work, '.gitlab-ci.yml', 'build:\n  script: [make]\n', 'CI');
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/main'], { cwd: work });
  }, 240_000);

  afterAll(async () => {
    gateway?.kill('SIGKILL');
    await admin?.end().catch(() => undefined);
    await db?.drop();
    git?.cleanup();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  afterEach(() => {
    if (exited) console.log(`gateway ended (${exited}); its last output:\n${output}`);
  });

  it('keeps one LISTEN connection each through five rounds of killed backends, and is woken by them afterwards', async () => {
    const before = await eventually(settled(), 'the connections to settle', 30_000);
    const rounds: Array<{ killed: number; recoveryMs: number; total: number }> = [];
    for (let round = 1; round <= 5; round++) {
      const killedAt = performance.now();
      const killed = await terminateAll();
      expect(killed.size).toBeGreaterThanOrEqual(2);
      const after = await eventually(settled(killed), `the LISTEN connections to come back after round ${round}`, 30_000);
      rounds.push({ killed: killed.size, recoveryMs: Math.round(performance.now() - killedAt), total: after.total });
    }
    console.log(`connections before: ${JSON.stringify(before)}; kill rounds: ${JSON.stringify(rounds)}`);
    expect(exited).toBeNull();
    // The old notifier doubled its connections on each kill (1, 2, 4, 8, 16): one each, always.
    const after = await eventually(settled(), 'the connections to settle after the kills', 30_000);
    expect(after).toMatchObject({ outbox: 1, ci: 1 });
    expect(after.total).toBeLessThanOrEqual(CONNECTION_BOUND);
    await eventually(async () => ((await ready()) ? true : undefined), 'readiness after the kills', 30_000, 100);

    // The CI job queue's LISTEN wakes a waiting runner. First the runner takes the job of the
    // push's pipeline (made from the push event, through Kafka), so that no job is pending.
    const pendingJobs = async () => (await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM ci_jobs WHERE status = 'pending'")).rows[0].n;
    await eventually(async () => ((await pendingJobs()) > 0 ? true : undefined), "the push's pipeline job", 60_000, 100);
    while ((await pendingJobs()) > 0) expect((await requestJob()).status).toBe(201);
    // Paused, the runner is told the queue's version at once; with that version as its
    // `last_update` it waits without asking, so only the notification of the new job can answer
    // it with a job before its long poll (30 s) ends.
    expect((await api(base, 'PUT', `/api/v4/runners/${runner.id}`, { token: rootToken, body: { paused: true } })).status).toBe(200);
    const paused = await requestJob();
    expect(paused.status).toBe(204);
    const version = paused.headers.get('x-gitlab-last-update') ?? '';
    expect(version).not.toBe('');
    expect((await api(base, 'PUT', `/api/v4/runners/${runner.id}`, { token: rootToken, body: { paused: false } })).status).toBe(200);
    const waiting = requestJob(version);
    const startedAt = performance.now();
    const pipeline = await createPipeline();
    expect(pipeline.status).toBe(201);
    const woken = await waiting;
    console.log(`runner woken ${Math.round(performance.now() - startedAt)} ms after the pipeline request`);
    expect(woken.status).toBe(201);

    // The outbox relay's LISTEN: an event committed now is published without polling (poll: 10 min).
    // The first write may be published by the relay's recovery from the kills; the second only by a NOTIFY.
    const published = async (title: string) => {
      const { rows } = await admin.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NOT NULL AND payload->'target'->>'title' = $1",
        [title],
      );
      return rows[0].n > 0 ? true : undefined;
    };
    for (const title of ['after the kills', 'woken by NOTIFY']) {
      const issue = await api(base, 'POST', `/api/v4/projects/${project.id}/issues`, { token: rootToken, body: { title } });
      expect(issue.status).toBe(201);
      const { rows } = await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox_events WHERE payload->'target'->>'title' = $1", [title]);
      expect(rows[0].n).toBeGreaterThan(0);
      await eventually(() => published(title), `the event of "${title}" to be published`, 30_000, 100);
    }
    expect(exited).toBeNull();
  }, 180_000);

  it('stays up under alert, API and runner load while its backends are killed, and loses nothing it acknowledged', async () => {
    const integration = await api(base, 'POST', `/api/v4/projects/${project.id}/alert_management/http_integrations`, {
      token: rootToken,
      body: { name: 'faults', active: true },
    });
    expect(integration.status).toBe(201);
    const notifyUrl = `${base}${new URL(integration.body.url).pathname}`;

    const statuses: Record<string, Record<string, number>> = { notify: {}, issues: {}, pipelines: {}, jobs: {} };
    const count = (kind: string, status: number) => (statuses[kind][status] = (statuses[kind][status] ?? 0) + 1);
    const FINGERPRINTS = 20;
    const alertAcked = new Array<number>(FINGERPRINTS).fill(0);
    const alertFailed = new Array<number>(FINGERPRINTS).fill(0);
    const issuesAcked: string[] = [];
    const pipelinesAcked: number[] = [];
    const jobsAcked: number[] = [];
    let stop = false;
    // Paces the load (a few hundred requests in all), not a wait for a condition.
    const pace = (ms: number) => new Promise((r) => setTimeout(r, ms));

    const alertWorker = async (worker: number) => {
      for (let n = 0; !stop; n++) {
        const f = (worker * 7 + n) % FINGERPRINTS;
        try {
          const res = await fetch(notifyUrl, {
            method: 'POST',
            headers: { authorization: `Bearer ${integration.body.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ title: `fault ${f}`, fingerprint: `fault-${f}` }),
          });
          await res.arrayBuffer();
          count('notify', res.status);
          if (res.status === 200) alertAcked[f] += 1;
          else alertFailed[f] += 1;
        } catch {
          count('notify', 0);
          alertFailed[f] += 1;
        }
        await pace(30);
      }
    };
    const issueWorker = async () => {
      for (let n = 0; !stop; n++) {
        const title = `load issue ${n}`;
        const res = await api(base, 'POST', `/api/v4/projects/${project.id}/issues`, { token: rootToken, body: { title } }).catch(() => ({ status: 0 }));
        count('issues', res.status);
        if (res.status === 201) issuesAcked.push(title);
        await pace(60);
      }
    };
    const pipelineWorker = async () => {
      while (!stop) {
        const res = await createPipeline().catch(() => ({ status: 0, body: undefined }));
        count('pipelines', res.status);
        if (res.status === 201) pipelinesAcked.push((res.body as { id: number }).id);
        await pace(300);
      }
    };
    const stopRunners = new AbortController();
    const runnerWorker = async () => {
      let lastUpdate: string | undefined;
      while (!stop) {
        const res = await requestJob(lastUpdate, stopRunners.signal);
        if (stop && res.status === 0) break;
        count('jobs', res.status);
        if (res.status === 201 && res.body) jobsAcked.push(res.body.id);
        lastUpdate = res.status === 204 ? (res.headers.get('x-gitlab-last-update') ?? undefined) : undefined;
        if (res.status !== 201 && res.status !== 204) await pace(100);
      }
    };
    const acked = () => alertAcked.reduce((a, b) => a + b, 0);
    const load = [alertWorker(0), alertWorker(1), alertWorker(2), issueWorker(), pipelineWorker(), runnerWorker(), runnerWorker()];

    const rounds: Array<{ killed: number; settledAfterMs: number; readyAfterMs: number }> = [];
    try {
      await eventually(() => (acked() >= 20 ? true : undefined), 'the load to run', 30_000);
      for (let round = 1; round <= 5; round++) {
        const ackedBefore = acked();
        const killedAt = performance.now();
        const killed = await terminateAll();
        await eventually(settled(killed), `the connections to settle after round ${round}`, 30_000, 20);
        const settledAfterMs = Math.round(performance.now() - killedAt);
        await eventually(async () => ((await ready()) ? true : undefined), `readiness after round ${round}`, 30_000, 20);
        const readyAfterMs = Math.round(performance.now() - killedAt);
        rounds.push({ killed: killed.size, settledAfterMs, readyAfterMs });
        // The load goes on across the cut before the next one.
        await eventually(() => (acked() >= ackedBefore + 30 ? true : undefined), `alerts acknowledged after round ${round}`, 30_000);
      }
    } finally {
      stop = true;
      stopRunners.abort();
      await Promise.all(load);
    }
    const after = await eventually(settled(), 'the connections to settle after the load', 30_000);
    console.log(`kill rounds under load: ${JSON.stringify(rounds)}`);
    console.log(`answers by status: ${JSON.stringify(statuses)}; connections after: ${JSON.stringify(after)} (bound ${CONNECTION_BOUND})`);

    expect(exited).toBeNull();
    expect(gateway.exitCode).toBeNull();
    expect(after.total).toBeLessThanOrEqual(CONNECTION_BOUND);
    for (const round of rounds) expect(round.readyAfterMs).toBeLessThan(30_000);
    expect(acked()).toBeGreaterThan(50);
    // A request caught by a cut fails alone, with a 5xx the client retries (503 as a rule): never
    // a dropped connection (status 0: the process died) nor a 4xx.
    const unexpected = Object.entries(statuses).flatMap(([kind, byStatus]) =>
      Object.keys(byStatus)
        .filter((s) => Number(s) < 200 || (Number(s) >= 300 && Number(s) < 500))
        .map((s) => `${kind} ${s}`),
    );
    expect(unexpected).toEqual([]);

    // Every acknowledged notify counted: each fingerprint's alert has at least its 200s, and no
    // more events than were sent (an unanswered request may have committed; none twice).
    const { rows: alerts } = await admin.query<{ title: string; event_count: number }>(
      "SELECT title, event_count FROM alerts WHERE project_id = $1 AND title LIKE 'fault %'",
      [project.id],
    );
    for (let f = 0; f < FINGERPRINTS; f++) {
      if (alertAcked[f] === 0 && alertFailed[f] === 0) continue;
      const alert = alerts.find((a) => a.title === `fault ${f}`) ?? null;
      if (alertAcked[f] > 0) expect({ f, stored: alert !== null }).toEqual({ f, stored: true });
      const events = alert?.event_count ?? 0;
      expect({ f, atLeastAcked: events >= alertAcked[f], atMostSent: events <= alertAcked[f] + alertFailed[f] }).toEqual({
        f,
        atLeastAcked: true,
        atMostSent: true,
      });
    }

    // Every acknowledged API write is there.
    const { rows: issues } = await admin.query<{ title: string }>('SELECT title FROM issues WHERE project_id = $1', [project.id]);
    const stored = new Set(issues.map((i) => i.title));
    expect(issuesAcked.filter((t) => !stored.has(t))).toEqual([]);
    const { rows: pipelines } = await admin.query<{ id: number }>('SELECT id FROM ci_pipelines WHERE project_id = $1', [project.id]);
    const storedPipelines = new Set(pipelines.map((p) => p.id));
    expect(pipelinesAcked.filter((id) => !storedPipelines.has(id))).toEqual([]);
    // Every job handed to the runner is its, and running.
    if (jobsAcked.length > 0) {
      const { rows: jobs } = await admin.query<{ id: number; status: string; runner_id: number }>(
        'SELECT id, status, runner_id FROM ci_jobs WHERE id = ANY($1::int[])',
        [jobsAcked],
      );
      expect(jobs.map((j) => ({ id: j.id, status: j.status, runner: j.runner_id })).sort((a, b) => a.id - b.id)).toEqual(
        [...jobsAcked].sort((a, b) => a - b).map((id) => ({ id, status: 'running', runner: runner.id })),
      );
    }
    expect(jobsAcked.length).toBeGreaterThan(0);
  }, 240_000);
});
