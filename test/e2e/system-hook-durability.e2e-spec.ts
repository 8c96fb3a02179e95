import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { NewDomainEvent, OutboxService } from '@app/messaging';
import { createTestDatabase, eventually } from '@app/testing';
import { DataSource } from 'typeorm';
import { createGateway } from '../../apps/gateway/src/bootstrap-gateway';
import { HookReceiver, startHookReceiver } from './support/hook-receiver';
import { api } from './support/test-gateway';

const BURST = 400;

/** One gateway process' worth of app on an existing database and prefixes (restartable). */
async function startGateway(env: Record<string, string>): Promise<{ app: NestFastifyApplication; baseUrl: string }> {
  const app = await createGateway(AppConfig.fromEnvironment({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', HOST: '127.0.0.1', PORT: '0', ...env }));
  await app.listen(0, '127.0.0.1');
  return { app, baseUrl: `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}` };
}

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A private Redis (never the machine's), persisting every write (AOF, fsync always) so queued jobs survive a restart. */
async function startRedis(port: number, dir: string): Promise<ChildProcess> {
  const redis = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--protected-mode', 'no'], { stdio: 'ignore' });
  await eventually(
    () =>
      new Promise<true | undefined>((resolve) => {
        const socket = require('node:net').connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(undefined));
      }),
    'redis to listen',
    10_000,
  );
  return redis;
}

const stopRedis = (redis: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    redis.once('exit', () => resolve());
    redis.kill('SIGTERM');
  });

function groupEvent(i: number): NewDomainEvent {
  return { type: 'group_create', actor: 1, groupId: 100_000 + i, target: { type: 'group', id: 100_000 + i, title: `g${i}` }, data: { name: `g${i}`, path: `g${i}`, full_path: `g${i}`, group_id: 100_000 + i, owner_name: null, owner_email: null } };
}

/** Counts at the receiver: every event delivered at least once, duplicates only with the same Idempotency-Key. */
function assertDeliveredOnce(receiver: HookReceiver, expected: number): { deliveries: number; duplicates: number } {
  const byKey = new Map<string, Set<string>>();
  for (const d of receiver.received) {
    const key = String(d.headers['idempotency-key']);
    const paths = byKey.get(key) ?? new Set<string>();
    paths.add(d.json.path);
    byKey.set(key, paths);
  }
  const groups = new Set(receiver.received.map((d) => d.json.path));
  expect(groups.size).toBe(expected);
  expect(byKey.size).toBe(expected);
  // One key per event: a duplicate is always the same event with the same key.
  for (const paths of byKey.values()) expect(paths.size).toBe(1);
  return { deliveries: receiver.received.length, duplicates: receiver.received.length - expected };
}

/** No delivery lost when the worker (the gateway) or Redis restarts in the middle of a burst. */
describe('System hook delivery durability', () => {
  let receiver: HookReceiver;
  beforeEach(async () => {
    // A little slow, so that the burst is still in flight when we restart things.
    receiver = await startHookReceiver({ reply: () => new Promise((resolve) => setTimeout(() => resolve({ status: 200 }), 5)) });
  });
  afterEach(async () => {
    await receiver?.close();
  });

  async function setUp(label: string, extraEnv: Record<string, string> = {}) {
    const db = await createTestDatabase(label);
    const prefix = `t${randomBytes(4).toString('hex')}`;
    const rootToken = `root-${randomBytes(16).toString('hex')}`;
    const env = { DATABASE_URL: db.url, KAFKA_TOPIC_PREFIX: prefix, REDIS_PREFIX: prefix, INITIAL_ROOT_TOKEN: rootToken, HOOK_RETRY_SCHEDULE: '200ms,500ms,1s,1s,1s,1s,1s', HOOK_WORKER_CONCURRENCY: '10', ...extraEnv };
    return { db, env, rootToken };
  }

  async function burst(app: NestFastifyApplication): Promise<void> {
    const outbox = app.get(OutboxService);
    const dataSource = app.get(DataSource);
    await dataSource.transaction((tx) => outbox.append(tx, Array.from({ length: BURST }, (_, i) => groupEvent(i))));
  }

  it('loses nothing when the gateway running the worker is stopped and started again mid-burst', async () => {
    const { db, env, rootToken } = await setUp('hook_restart');
    let gw = await startGateway(env);
    try {
      const hook = await api(gw.baseUrl, 'POST', '/api/v4/hooks', { token: rootToken, body: { url: `${receiver.url}/durable` } });
      expect(hook.status).toBe(201);
      await burst(gw.app);
      await eventually(() => (receiver.received.length >= 40 ? true : undefined), 'the burst to start', 30_000);
      await gw.app.close();
      const atStop = receiver.received.length;
      expect(atStop).toBeLessThan(BURST);
      gw = await startGateway(env);
      await eventually(() => (new Set(receiver.received.map((d) => d.json.path)).size >= BURST ? true : undefined), 'every event after the restart', 60_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const { deliveries, duplicates } = assertDeliveredOnce(receiver, BURST);
      // Every attempt is in the delivery log, those of the stopped process included.
      const dataSource = gw.app.get(DataSource);
      await eventually(async () => {
        const [{ count }] = await dataSource.query(`SELECT count(*)::int AS count FROM system_hook_deliveries WHERE status = 'successful'`);
        return count === deliveries ? true : undefined;
      }, 'one successful log row per delivery');
      process.stdout.write(`worker restart: ${atStop} delivered before the stop, ${deliveries} deliveries for ${BURST} events (${duplicates} duplicates, same Idempotency-Key)\n`);
    } finally {
      await gw.app.close();
      await db.drop();
    }
  }, 120_000);

  it('loses nothing when Redis restarts mid-burst (jobs persisted with appendonly)', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'hook-redis-'));
    let redis = await startRedis(port, dir);
    const { db, env, rootToken } = await setUp('hook_redis', { REDIS_URL: `redis://127.0.0.1:${port}` });
    let gw: Awaited<ReturnType<typeof startGateway>> | null = null;
    try {
      gw = await startGateway(env);
      const hook = await api(gw.baseUrl, 'POST', '/api/v4/hooks', { token: rootToken, body: { url: `${receiver.url}/durable` } });
      expect(hook.status).toBe(201);
      await burst(gw.app);
      await eventually(() => (receiver.received.length >= 40 ? true : undefined), 'the burst to start', 30_000);
      await stopRedis(redis);
      const atStop = receiver.received.length;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      redis = await startRedis(port, dir);
      await eventually(() => (new Set(receiver.received.map((d) => d.json.path)).size >= BURST ? true : undefined), 'every event after the Redis restart', 90_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const { deliveries, duplicates } = assertDeliveredOnce(receiver, BURST);
      process.stdout.write(`redis restart: ${atStop} delivered before the stop, ${deliveries} deliveries for ${BURST} events (${duplicates} duplicates, same Idempotency-Key)\n`);
    } finally {
      await gw?.app.close();
      await stopRedis(redis);
      rmSync(dir, { recursive: true, force: true });
      await db.drop();
    }
  }, 150_000);
});
