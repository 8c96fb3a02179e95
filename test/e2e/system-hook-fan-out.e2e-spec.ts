import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { NewDomainEvent, OutboxService } from '@app/messaging';
import { createTestDatabase, eventually } from '@app/testing';
import { HookReceiver, startHookReceiver } from './support/hook-receiver';
import { api, startTestGateway } from './support/test-gateway';

const ROOT = resolve(__dirname, '../..');

function groupEvent(i: number): NewDomainEvent {
  return {
    type: 'group_create',
    actor: 1,
    groupId: 200_000 + i,
    target: { type: 'group', id: 200_000 + i, title: `f${i}` },
    data: {
      event_name: 'group_create',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      name: `f${i}`,
      path: `f${i}`,
      full_path: `f${i}`,
      group_id: 200_000 + i,
      owner_name: null,
      owner_email: null,
    },
  };
}

/** The distinct groups created (group_create deliveries) a receiver path got. */
const eventsAt = (receiver: HookReceiver, path: string): Set<string> =>
  new Set(
    receiver
      .at(path)
      .filter((d) => d.json.event_name === 'group_create')
      .map((d) => d.json.path),
  );

/** Every delivery to `path` of one event carries one `webhook-id`, the same for its duplicates. */
function expectDuplicatesShareWebhookId(receiver: HookReceiver, path: string): number {
  const keys = new Map<string, Set<string>>();
  for (const d of receiver.at(path)) {
    const event = `${d.json.event_name} ${d.json.path ?? d.json.group_path}`;
    const set = keys.get(event) ?? new Set<string>();
    set.add(String(d.headers['webhook-id']));
    keys.set(event, set);
  }
  for (const set of keys.values()) expect(set.size).toBe(1);
  return receiver.at(path).length - keys.size;
}

/** The fan-out: first attempts of one event to every hook at once, what a crash in the middle leaves, and a slow hook among fast ones. */
describe('System hook fan-out', () => {
  it('delivers the rest of an event fan-out after the worker process is killed in the middle of it (duplicates only with the same webhook-id)', async () => {
    // The gateway as its own process (compiled like `npm run build`), so that it can be killed for real.
    const dist = join(ROOT, '.cache', `e2e-fan-out-${randomBytes(4).toString('hex')}`);
    execFileSync(join(ROOT, 'node_modules/.bin/swc'), ['apps', 'libs', '-d', dist, '-q'], { cwd: ROOT, stdio: 'ignore' });
    const db = await createTestDatabase('hook_fan_out_crash');
    const prefix = `t${randomBytes(4).toString('hex')}`;
    const rootToken = `root-${randomBytes(16).toString('hex')}`;
    // The stuck hook answers nothing until the first process is dead: its attempts are in flight when it dies.
    let stuck = true;
    const receiver = await startHookReceiver({ reply: (d) => (d.path === '/stuck' && stuck ? new Promise(() => undefined) : { status: 200 }) });
    const env = {
      ...process.env,
      DATABASE_URL: db.url,
      KAFKA_TOPIC_PREFIX: prefix,
      REDIS_PREFIX: prefix,
      INITIAL_ROOT_TOKEN: rootToken,
      LOG_LEVEL: 'error',
      HOST: '127.0.0.1',
      HOOK_WORKER_CONCURRENCY: '10',
      HOOK_TIMEOUT_MS: '60000',
      HOOK_RECOVERY_INTERVAL_MS: '1000',
    };
    const start = async (): Promise<{ child: ChildProcess; baseUrl: string }> => {
      const port = 20_000 + Math.floor(Math.random() * 20_000);
      const child = spawn(process.execPath, [join(dist, 'apps/gateway/src/main.js')], {
        env: { ...env, PORT: String(port) },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const baseUrl = `http://127.0.0.1:${port}`;
      await eventually(
        async () => ((await fetch(`${baseUrl}/-/readiness`).catch(() => null))?.ok ? true : undefined),
        'the gateway process to be ready',
        120_000,
        200,
      );
      return { child, baseUrl };
    };
    const kill = (child: ChildProcess): Promise<void> =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGKILL');
      });
    let gateway = await start();
    try {
      for (const path of ['/fast', '/stuck'])
        expect((await api(gateway.baseUrl, 'POST', '/api/v4/hooks', { token: rootToken, body: { url: `${receiver.url}${path}` } })).status).toBe(201);
      const EVENTS = 12;
      for (let i = 0; i < EVENTS; i++)
        expect((await api(gateway.baseUrl, 'POST', '/api/v4/groups', { token: rootToken, body: { name: `Fan ${i}`, path: `fan-${i}` } })).status).toBe(201);
      // Every fast first attempt done, the stuck ones in flight: the fan-outs are in the middle.
      await eventually(
        () => (eventsAt(receiver, '/fast').size >= EVENTS && receiver.at('/stuck').length >= 1 ? true : undefined),
        'the fan-outs under way',
        60_000,
      );
      // The stuck hook holds 8 of the 10 attempt slots; the rest of its attempts wait in its line.
      expect(eventsAt(receiver, '/stuck').size).toBeLessThan(EVENTS);
      // Every event of every group (its group_create and the owner's user_add_to_group) reached the fast hook, and its log rows are written.
      const log = new Client({ connectionString: db.url });
      await log.connect();
      await eventually(
        async () => {
          const { rows } = await log.query(`SELECT count(*)::int AS n FROM system_hook_deliveries WHERE url LIKE '%/fast' AND status = 'successful'`);
          return rows[0].n >= 2 * EVENTS ? true : undefined;
        },
        "the fast hook's deliveries logged",
        30_000,
      );
      await log.end();
      const fastBefore = receiver.at('/fast').length;
      expect(fastBefore).toBe(2 * EVENTS);
      await kill(gateway.child);
      stuck = false;
      gateway = await start();
      // Taken up again once the dead worker's lock ran out: the stuck hook gets every event; the fast one nothing new.
      await eventually(() => (eventsAt(receiver, '/stuck').size >= EVENTS ? true : undefined), 'the rest of the fan-outs after the restart', 90_000, 200);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(eventsAt(receiver, '/fast').size).toBe(EVENTS);
      const fastDuplicates = expectDuplicatesShareWebhookId(receiver, '/fast');
      const stuckDuplicates = expectDuplicatesShareWebhookId(receiver, '/stuck');
      // The fast hook's attempts had their outcome recorded before the crash: the fan-outs run again leave it out.
      expect(receiver.at('/fast').length).toBe(fastBefore);
      expect(stuckDuplicates).toBeGreaterThan(0);
      process.stdout.write(
        `crash mid-fan-out: fast hook ${receiver.at('/fast').length} deliveries (${fastDuplicates} duplicates), stuck hook ${receiver.at('/stuck').length} (${stuckDuplicates} resent after the crash, same webhook-id)\n`,
      );
    } finally {
      await kill(gateway.child);
      await receiver.close();
      await db.drop();
      rmSync(dist, { recursive: true, force: true });
    }
  }, 240_000);

  it("does not hold the other hooks' first attempts behind a slow hook", async () => {
    const EVENTS = 40;
    const TIMEOUT_MS = 30_000;
    // The slow hook answers nothing until released: without its limited share, it would take every attempt slot.
    let slow = true;
    const held: Array<() => void> = [];
    const receiver = await startHookReceiver({
      reply: (d) => (d.path === '/slow' && slow ? new Promise((r) => held.push(() => r({ status: 200 }))) : { status: 200 }),
    });
    // 40 attempts at a time: the slow hook may hold 30 of them; its other attempts are handed over to jobs of their own.
    const gw = await startTestGateway('hook_fan_out_slow', { HOOK_WORKER_CONCURRENCY: '40', HOOK_TIMEOUT_MS: String(TIMEOUT_MS) });
    try {
      for (const path of ['/slow', '/fast-1', '/fast-2', '/fast-3'])
        expect((await api(gw.baseUrl, 'POST', '/api/v4/hooks', { token: gw.rootToken, body: { url: `${receiver.url}${path}` } })).status).toBe(201);
      const outbox = gw.app.get(OutboxService);
      await gw.dataSource.transaction((tx) =>
        outbox.append(
          tx,
          Array.from({ length: EVENTS }, (_, i) => groupEvent(i)),
        ),
      );
      const fast = ['/fast-1', '/fast-2', '/fast-3'];
      // The pipeline is under way (relay, Kafka, dispatcher) once the slow hook has its first attempt; from then on, the fast hooks get every event before it could time out.
      await eventually(() => (receiver.at('/slow').length > 0 ? true : undefined), "the slow hook's first attempt", 60_000);
      await eventually(() => (fast.every((path) => eventsAt(receiver, path).size >= EVENTS) ? true : undefined), "the fast hooks' deliveries", TIMEOUT_MS);
      // Every fast first attempt was made while the slow hook had answered nothing, before any of its attempts could time out.
      const firstSlow = Math.min(...receiver.at('/slow').map((d) => d.at));
      const lastFast = Math.max(...fast.flatMap((path) => receiver.at(path).map((d) => d.at)));
      expect(lastFast - firstSlow).toBeLessThan(TIMEOUT_MS);
      expect(held.length).toBeLessThanOrEqual(30);
      slow = false;
      for (const release of held.splice(0)) release();
      // The attempts handed over reach the slow hook once it answers.
      await eventually(() => (eventsAt(receiver, '/slow').size >= EVENTS ? true : undefined), "the slow hook's deliveries", 60_000);
      expectDuplicatesShareWebhookId(receiver, '/slow');
      const slowDone = Math.max(...receiver.at('/slow').map((d) => d.at));
      process.stdout.write(
        `slow hook: fast hooks served ${lastFast - firstSlow} ms after the slow hook's first attempt, with ${receiver.at('/slow').length} of its attempts unanswered; all of its deliveries ${slowDone - firstSlow} ms after\n`,
      );
    } finally {
      for (const release of held.splice(0)) release();
      await receiver.close();
      await gw.close();
    }
  }, 150_000);
});
