import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase } from '@app/testing';
import { api } from './support/test-gateway';

const ROOT = resolve(__dirname, '../..');

const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('timed out');
}

/**
 * A gateway process killed with SIGKILL in the middle of an alert load: every payload it
 * acknowledged with 200 is in PostgreSQL (the 200 is sent only after the commit).
 */
describe('Alert ingestion survives a crash', () => {
  let outDir: string;
  let db: { url: string; drop: () => Promise<void> };
  let gateway: ChildProcess | undefined;

  beforeAll(async () => {
    // The gateway runs as a real process from a private build, so this test can kill it.
    // Inside the checkout, so that the build resolves node_modules like dist/ does.
    mkdirSync(join(ROOT, '.cache'), { recursive: true });
    outDir = mkdtempSync(join(ROOT, '.cache', 'crash-build-'));
    const built = spawnSync(join(ROOT, 'node_modules/.bin/swc'), ['apps', 'libs', '-d', outDir, '-q'], { cwd: ROOT, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
    db = await createTestDatabase('alert-crash');
  });
  afterAll(async () => {
    gateway?.kill('SIGKILL');
    await db?.drop();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged alert when killed mid-load', async () => {
    const port = await freePort();
    const rootToken = `root-${randomBytes(16).toString('hex')}`;
    const prefix = `t${randomBytes(4).toString('hex')}`;
    gateway = spawn(process.execPath, [join(outDir, 'apps/gateway/src/main.js')], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: db.url,
        INITIAL_ROOT_TOKEN: rootToken,
        LOG_LEVEL: 'silent',
        KAFKA_TOPIC_PREFIX: prefix,
        REDIS_PREFIX: prefix,
        DATA_DIR: join(outDir, 'data'),
      },
      stdio: 'ignore',
    });
    const base = `http://127.0.0.1:${port}`;
    await waitUntil(async () => (await fetch(`${base}/-/readiness`)).ok, 60_000);
    const project = await api(base, 'POST', '/api/v4/projects', { token: rootToken, body: { name: 'crash' } });
    const integration = await api(base, 'POST', `/api/v4/projects/${project.body.id}/alert_management/http_integrations`, {
      token: rootToken,
      body: { name: 'crash', active: true },
    });
    expect(integration.status).toBe(201);
    const path = new URL(integration.body.url).pathname;

    const acknowledged: Array<{ fingerprint: string; iid: number }> = [];
    let sent = 0;
    let stop = false;
    let killed = false;
    const worker = async () => {
      while (!stop) {
        const fingerprint = `crash-${sent++}`;
        try {
          const res = await fetch(`${base}${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${integration.body.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ title: `alert ${fingerprint}`, fingerprint }),
          });
          if (res.status === 200) acknowledged.push({ fingerprint, iid: ((await res.json()) as Array<{ iid: number }>)[0].iid });
          else await res.arrayBuffer();
        } catch {
          // The connection died with the process: not acknowledged. The workers go on until one
          // request after the kill has failed, so that the load surely met the dead process (a
          // response written just before the kill may still be read).
          if (killed) stop = true;
        }
      }
    };
    const workers = Array.from({ length: 16 }, worker);
    await waitUntil(async () => acknowledged.length >= 200, 30_000);
    gateway.kill('SIGKILL');
    killed = true;
    await Promise.all(workers);

    expect(acknowledged.length).toBeGreaterThanOrEqual(200);
    expect(sent).toBeGreaterThan(acknowledged.length);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ iid: number; title: string }>('SELECT iid, title FROM alerts WHERE project_id = $1', [project.body.id]);
      // Every 200 has its row, under the iid the answer gave.
      const stored = new Set(rows.map((r) => `${r.iid} ${r.title}`));
      const missing = acknowledged.filter((a) => !stored.has(`${a.iid} alert ${a.fingerprint}`));
      expect(missing).toEqual([]);
      // Batches cut short by the kill left no hole in the iids.
      expect(rows.map((r) => r.iid).sort((x, y) => x - y)).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
      // Each stored alert's domain event committed with it.
      const [{ events }] = (
        await client.query(
          "SELECT count(*)::int AS events FROM outbox_events WHERE payload->>'type' = 'alert.created' AND (payload->>'project_id')::int = $1",
          [project.body.id],
        )
      ).rows;
      expect(events).toBe(rows.length);
    } finally {
      await client.end();
    }
  }, 120_000);
});
