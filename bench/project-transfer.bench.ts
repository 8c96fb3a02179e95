/**
 * npm run bench:transfer — project export and import in GitLab's archive format, on this machine.
 *
 * Starts the gateway (its own process, its own database, which it migrates, its own DATA_DIR) on
 * loopback and creates two projects through the API, then fills them through the database and
 * git directly (the filling is not what is measured):
 * - project 1: BENCH_ISSUES issues (default 20,000; the issue's target is 100,000) with
 *   BENCH_NOTES_PER_ISSUE notes each (default 1), a label and a milestone on every tenth, in bulk
 *   (INSERT … SELECT generate_series);
 * - project 2: a repository of BENCH_REPO_MB MiB (default 300) of incompressible blobs (1 MiB of
 *   random bytes each, 8 per commit) written by `git fast-import` on `main`, with a branch and a tag.
 * Then, with the gateway's resident memory sampled every 100 ms (and that of its child processes,
 * git, summed):
 * 1. the floor: `git bundle create --all` of project 2's repository alone (wall time; peak RSS
 *    from /usr/bin/time);
 * 2. for each project: export (`POST /projects/:id/export` until `finished`: relations to NDJSON,
 *    the bundle, tar + gzip), the download, and the import of the downloaded archive under a new
 *    path (`POST /projects/import`, multipart streamed to disk, then the job until `finished`);
 * 3. figures per 1,000 issues and the repository's times against the floor; checks that every
 *    issue, note and ref arrived.
 * BENCH_GATEWAY_NODE_OPTIONS goes to the gateway (e.g. --max-old-space-size=400: is the memory
 * garbage or retained?). Smaller runs: e.g. BENCH_ISSUES=2000 BENCH_REPO_MB=20.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, openAsBlob, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { fixed, freePort, machine, sleep, waitForHttp, write } from './support';

const ROOT = resolve(__dirname, '../..');
const DATABASE = process.env.BENCH_DATABASE ?? 'service_api_bench_transfer';
const SERVER = 'postgres://postgres@127.0.0.1:5432';
const ROOT_TOKEN = 'bench-root-token-transfer-0123456789abcdef';
const ISSUES = Number(process.env.BENCH_ISSUES ?? 20_000);
const NOTES_PER_ISSUE = Number(process.env.BENCH_NOTES_PER_ISSUE ?? 1);
const REPO_MB = Number(process.env.BENCH_REPO_MB ?? 300);
const BLOB_BYTES = 1024 * 1024;
const BLOBS_PER_COMMIT = 8;
const PREFIX = `bench-transfer-${Date.now()}`;
let BASE = '';

const mb = (bytes: number) => bytes / (1024 * 1024);

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${BASE}/api/v4${path}`, {
    method,
    headers: { 'private-token': ROOT_TOKEN, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let json: unknown = text;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: response.status, json };
}

/** Resident memory of a process in MiB (`/proc/<pid>/status` VmRSS), 0 once gone. */
function residentMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Every descendant of `pid` (through `/proc/<pid>/task/<tid>/children`). */
function descendants(pid: number): number[] {
  const found: number[] = [];
  const visit = (parent: number) => {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${parent}/task`);
    } catch {
      return;
    }
    for (const tid of tasks) {
      let children = '';
      try {
        children = readFileSync(`/proc/${parent}/task/${tid}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const child of children.split(' ').filter(Boolean).map(Number)) {
        found.push(child);
        visit(child);
      }
    }
  };
  visit(pid);
  return found;
}

/** Samples the gateway's RSS and the summed RSS of its children (git) every 100 ms until stopped. */
function memorySampler(pid: number): { stop: () => { gateway: number; children: number; before: number } } {
  const before = residentMb(pid);
  let gateway = before;
  let children = 0;
  const timer = setInterval(() => {
    gateway = Math.max(gateway, residentMb(pid));
    children = Math.max(
      children,
      descendants(pid).reduce((sum, child) => sum + residentMb(child), 0),
    );
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return { gateway, children, before };
    },
  };
}

/** Issues, notes, a label and a milestone, in bulk through the database. */
async function seedIssues(db: Client, projectId: number, authorId: number): Promise<void> {
  await db.query(`INSERT INTO labels (project_id, title, color) VALUES ($1, 'bench', '#ff0000')`, [projectId]);
  await db.query(`INSERT INTO milestones (project_id, iid, title, state) VALUES ($1, 1, 'v1.0', 'active')`, [projectId]);
  const milestone = (await db.query(`SELECT id FROM milestones WHERE project_id = $1`, [projectId])).rows[0].id as number;
  for (let from = 1; from <= ISSUES; from += 10_000) {
    const to = Math.min(ISSUES, from + 9_999);
    await db.query(
      `INSERT INTO issues (iid, project_id, title, description, state, author_id, labels, milestone_id, created_at, updated_at)
       SELECT i, $1, 'Issue number ' || i, repeat('Some description of issue ' || i || '. ', 8), CASE WHEN i % 3 = 0 THEN 'closed' ELSE 'opened' END, $2,
              CASE WHEN i % 10 = 0 THEN ARRAY['bench'] ELSE '{}'::text[] END, CASE WHEN i % 10 = 0 THEN $3::int END,
              now() - (i || ' minutes')::interval, now()
         FROM generate_series($4::int, $5::int) AS i`,
      [projectId, authorId, milestone, from, to],
    );
  }
  if (NOTES_PER_ISSUE > 0) {
    await db.query(
      `INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, created_at, updated_at)
       SELECT 'Issue', issues.id, $1, $2, 'A comment on issue ' || issues.iid || ', number ' || n || '.', issues.created_at, issues.created_at
         FROM issues, generate_series(1, $3::int) AS n WHERE issues.project_id = $1`,
      [projectId, authorId, NOTES_PER_ISSUE],
    );
  }
  await db.query(
    `INSERT INTO internal_ids (scope_type, scope_id, usage, last_value) VALUES ('project', $1, 'issues', $2)
     ON CONFLICT (scope_type, scope_id, usage) DO UPDATE SET last_value = EXCLUDED.last_value`,
    [projectId, ISSUES],
  );
  await db.query(`UPDATE projects SET open_issues_count = (SELECT count(*) FROM issues WHERE project_id = $1 AND state = 'opened') WHERE id = $1`, [projectId]);
}

/** `REPO_MB` MiB of random 1 MiB blobs on `main` (8 per commit) with `git fast-import`, plus a branch and a tag. */
async function fillRepository(gitDir: string): Promise<void> {
  const child = spawn('git', ['--git-dir', gitDir, 'fast-import', '--quiet'], { stdio: ['pipe', 'ignore', 'inherit'] });
  const exited = new Promise<number>((r) => child.on('close', (code) => r(code ?? -1)));
  const commits = Math.ceil(REPO_MB / BLOBS_PER_COMMIT);
  async function* stream(): AsyncGenerator<Buffer> {
    let blob = 0;
    const when = Math.floor(Date.now() / 1000);
    for (let c = 0; c < commits; c++) {
      const message = `Data ${c}\n`;
      let header = `commit refs/heads/main\ncommitter Bench <bench@example.com> ${when + c} +0000\ndata ${Buffer.byteLength(message)}\n${message}`;
      if (c === 0) header += `from refs/heads/main^0\n`;
      yield Buffer.from(header);
      for (let b = 0; b < BLOBS_PER_COMMIT && blob < REPO_MB; b++, blob++) {
        yield Buffer.from(`M 100644 inline data/${String(blob).padStart(5, '0')}.bin\ndata ${BLOB_BYTES}\n`);
        yield randomBytes(BLOB_BYTES);
        yield Buffer.from('\n');
      }
      yield Buffer.from('\n');
      if (c === Math.floor(commits / 2)) yield Buffer.from(`reset refs/heads/feature\nfrom refs/heads/main\n\nreset refs/tags/v1.0\nfrom refs/heads/main\n\n`);
    }
  }
  await pipeline(Readable.from(stream()), child.stdin);
  const code = await exited;
  if (code !== 0) throw new Error(`git fast-import exited with ${code}`);
}

function refsOf(gitDir: string): string {
  const result = spawnSync('git', ['--git-dir', gitDir, 'for-each-ref', '--format=%(objectname) %(refname)'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git for-each-ref: ${result.stderr}`);
  return result.stdout.trim();
}

const dirBytes = (dir: string): number => {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  return total;
};

/** Polls `read` every 250 ms until `done` says so (or fails), for at most `timeoutMs`. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not finish within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await sleep(250);
  }
}

interface Transfer {
  exportSeconds: number;
  importSeconds: number;
  importedId: number;
}

/** Exports `projectId` (request → finished), downloads the archive, imports it under `path` (request → finished); prints the figures. */
async function transfer(projectId: number, path: string, scratch: string): Promise<Transfer> {
  const gatewayPid = GATEWAY_PID;
  let sampler = memorySampler(gatewayPid);
  let t0 = performance.now();
  const requested = await api('POST', `/projects/${projectId}/export`);
  if (requested.status !== 202) throw new Error(`export not accepted: ${requested.status} ${JSON.stringify(requested.json)}`);
  const exported = await until(
    () => api('GET', `/projects/${projectId}/export`),
    (r) => ['finished', 'failed'].includes(r.json?.export_status),
    3_600_000,
    'export',
  );
  const exportSeconds = (performance.now() - t0) / 1000;
  const exportMemory = sampler.stop();
  if (exported.json.export_status !== 'finished') throw new Error(`export failed: ${JSON.stringify(exported.json)}`);
  const archive = join(scratch, `${path}.tar.gz`);
  t0 = performance.now();
  const download = await fetch(`${BASE}/api/v4/projects/${projectId}/export/download`, { headers: { 'private-token': ROOT_TOKEN } });
  if (download.status !== 200 || !download.body) throw new Error(`download: ${download.status}`);
  await pipeline(Readable.fromWeb(download.body as never), createWriteStream(archive));
  const downloadSeconds = (performance.now() - t0) / 1000;
  write(
    `project ${projectId} export: ${fixed(exportSeconds, 1)} s (request → finished), archive ${fixed(mb(statSync(archive).size), 1)} MiB, download ${fixed(downloadSeconds, 1)} s; ` +
      `gateway RSS ${fixed(exportMemory.before)} MiB before, peak ${fixed(exportMemory.gateway)} MiB; git children peak ${fixed(exportMemory.children)} MiB`,
  );

  await sleep(1_000);
  sampler = memorySampler(gatewayPid);
  t0 = performance.now();
  const form = new FormData();
  form.set('path', path);
  form.set('file', await openAsBlob(archive, { type: 'application/gzip' }), 'export.tar.gz');
  const upload = await fetch(`${BASE}/api/v4/projects/import`, { method: 'POST', headers: { 'private-token': ROOT_TOKEN }, body: form });
  const answer = (await upload.json()) as { id: number };
  const uploadSeconds = (performance.now() - t0) / 1000;
  if (upload.status !== 201) throw new Error(`import not accepted: ${upload.status} ${JSON.stringify(answer)}`);
  const imported = await until(
    () => api('GET', `/projects/${answer.id}/import`),
    (r) => ['finished', 'failed'].includes(r.json?.import_status),
    3_600_000,
    'import',
  );
  const importSeconds = (performance.now() - t0) / 1000;
  const importMemory = sampler.stop();
  if (imported.json.import_status !== 'finished') throw new Error(`import failed: ${JSON.stringify(imported.json)}`);
  const failed = (imported.json.failed_relations as unknown[]).length;
  write(
    `project ${projectId} import as ${answer.id}: ${fixed(importSeconds, 1)} s (request → finished; the multipart upload alone ${fixed(uploadSeconds, 1)} s); ` +
      `gateway RSS ${fixed(importMemory.before)} MiB before, peak ${fixed(importMemory.gateway)} MiB; git children peak ${fixed(importMemory.children)} MiB; failed relations ${failed}`,
  );
  rmSync(archive);
  return { exportSeconds, importSeconds, importedId: answer.id };
}

let GATEWAY_PID = 0;

async function main(): Promise<void> {
  const admin = new Client({ connectionString: `${SERVER}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.end();

  const port = Number(process.env.BENCH_GATEWAY_PORT ?? (await freePort()));
  BASE = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-transfer-'));
  const scratch = mkdtempSync(join(tmpdir(), 'bench-transfer-files-'));
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
    // e.g. --max-old-space-size=300: does the transfer run in a bounded heap (garbage, not retained memory)?
    ...(process.env.BENCH_GATEWAY_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_GATEWAY_NODE_OPTIONS } : {}),
  };
  const gateway: ChildProcess = spawn(process.execPath, [join(ROOT, 'dist/apps/gateway/src/main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  process.on('exit', () => gateway.kill('SIGTERM'));
  GATEWAY_PID = gateway.pid!;
  const db = new Client({ connectionString: `${SERVER}/${DATABASE}` });
  try {
    await waitForHttp(`${BASE}/-/readiness`, 120_000);
    await db.connect();
    write(
      `bench:transfer — ${fixed(ISSUES)} issues with ${NOTES_PER_ISSUE} note(s) each, a repository of ${REPO_MB} MiB of incompressible blobs; gateway NODE_OPTIONS ${process.env.BENCH_GATEWAY_NODE_OPTIONS ?? '(none)'}; ${machine()}`,
    );
    const newProject = async (name: string) => {
      const created = await api('POST', '/projects', { name, initialize_with_readme: true });
      if (created.status !== 201) throw new Error(`project not created: ${created.status} ${JSON.stringify(created.json)}`);
      return created.json.id as number;
    };
    const issuesProject = await newProject('bench-issues');
    const repoProject = await newProject('bench-repository');
    const rootId = (await db.query(`SELECT id FROM users WHERE username = 'root'`)).rows[0].id as number;

    let t0 = performance.now();
    await seedIssues(db, issuesProject, rootId);
    write(
      `seeded ${fixed(ISSUES)} issues and ${fixed(ISSUES * NOTES_PER_ISSUE)} notes in project ${issuesProject} through the database in ${fixed((performance.now() - t0) / 1000, 1)} s`,
    );
    const gitDir = join(dataDir, 'repositories', `${repoProject}.git`);
    if (!existsSync(gitDir)) throw new Error(`no repository at ${gitDir}`);
    t0 = performance.now();
    await fillRepository(gitDir);
    write(
      `repository of project ${repoProject} written with git fast-import in ${fixed((performance.now() - t0) / 1000, 1)} s: ${fixed(mb(dirBytes(gitDir)))} MiB on disk, ` +
        `refs ${refsOf(gitDir)
          .split('\n')
          .map((l) => l.split(' ')[1])
          .join(', ')}`,
    );

    // The floor: git bundle create --all of the same repository alone.
    const floorFile = join(scratch, 'floor.bundle');
    t0 = performance.now();
    const floor = spawnSync('/usr/bin/time', ['-f', '%M', 'git', '--git-dir', gitDir, 'bundle', 'create', '--quiet', floorFile, '--all'], { encoding: 'utf8' });
    const floorSeconds = (performance.now() - t0) / 1000;
    if (floor.status !== 0) throw new Error(`git bundle create: ${floor.stderr}`);
    const floorPeakMb = Number(floor.stderr.trim().split('\n').pop()) / 1024;
    const bundleBytes = statSync(floorFile).size;
    rmSync(floorFile);
    write(
      `floor: git bundle create --all of that repository alone ${fixed(floorSeconds, 1)} s, bundle ${fixed(mb(bundleBytes))} MiB, git peak RSS ${fixed(floorPeakMb)} MiB`,
    );

    const issues = await transfer(issuesProject, 'issues-import', scratch);
    const repo = await transfer(repoProject, 'repository-import', scratch);
    const perThousand = (seconds: number) => fixed((seconds * 1000) / Math.max(1, ISSUES), 2);
    write(
      `per 1,000 issues (with ${NOTES_PER_ISSUE} note(s) each): export ${perThousand(issues.exportSeconds)} s, import ${perThousand(issues.importSeconds)} s; ` +
        `repository: export ${fixed(repo.exportSeconds / Math.max(0.001, floorSeconds), 1)}× and import ${fixed(repo.importSeconds / Math.max(0.001, floorSeconds), 1)}× the floor's time`,
    );
    const check = (
      await db.query(
        `SELECT (SELECT count(*) FROM issues WHERE project_id = $1)::int AS issues, (SELECT count(*) FROM notes WHERE project_id = $1 AND noteable_type = 'Issue')::int AS notes, (SELECT count(*) FROM issues WHERE project_id = $1 AND milestone_id IS NOT NULL)::int AS with_milestone`,
        [issues.importedId],
      )
    ).rows[0] as { issues: number; notes: number; with_milestone: number };
    const sameRefs = refsOf(join(dataDir, 'repositories', `${repo.importedId}.git`)) === refsOf(gitDir);
    write(
      `imported: ${fixed(check.issues)} issues, ${fixed(check.notes)} notes, ${fixed(check.with_milestone)} with a milestone; repository refs ${sameRefs ? 'identical' : 'DIFFERENT'}`,
    );
    if (check.issues !== ISSUES || check.notes !== ISSUES * NOTES_PER_ISSUE || !sameRefs) throw new Error('an imported project differs from the exported one');
  } catch (error) {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    throw error;
  } finally {
    await db.end().catch(() => undefined);
    gateway.kill('SIGTERM');
    await new Promise((r) => (gateway.exitCode !== null ? r(null) : gateway.once('exit', r)));
    rmSync(scratch, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
    const cleanup = new Client({ connectionString: `${SERVER}/postgres` });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await cleanup.end();
  }
}

main().then(
  () => process.exit(0),
  () => process.exit(1),
);
