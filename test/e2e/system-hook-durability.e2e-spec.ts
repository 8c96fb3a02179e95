import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { NewDomainEvent, OutboxService } from '@app/messaging';
import { HOOK_DELIVERIES } from '@app/hooks';
import { createTestDatabase, eventually } from '@app/testing';
import type { Queue } from 'bullmq';
import Redis from 'ioredis';
import { Webhook } from 'standardwebhooks';
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

/**
 * A private Redis (never the machine's). `persistent`: every write persisted (AOF, fsync always)
 * so queued jobs survive a restart; otherwise nothing is (no RDB, no AOF, as scripts/services.sh
 * runs it): a restart starts empty.
 */
async function startRedis(port: number, dir: string, persistent = true): Promise<ChildProcess> {
  const persistence = persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const redis = spawn(
    '/usr/bin/redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, ...persistence, '--save', '', '--protected-mode', 'no'],
    { stdio: 'ignore' },
  );
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

const stopRedis = (redis: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> =>
  new Promise((resolve) => {
    if (redis.exitCode !== null || redis.signalCode !== null) return resolve();
    redis.once('exit', () => resolve());
    redis.kill(signal);
  });

function groupEvent(i: number): NewDomainEvent {
  return {
    type: 'group_create',
    actor: 1,
    groupId: 100_000 + i,
    target: { type: 'group', id: 100_000 + i, title: `g${i}` },
    data: {
      event_name: 'group_create',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      name: `g${i}`,
      path: `g${i}`,
      full_path: `g${i}`,
      group_id: 100_000 + i,
      owner_name: null,
      owner_email: null,
    },
  };
}

/**
 * Counts at the receiver: every event delivered at least once to each hook (receiver path), duplicates only with
 * the same `webhook-id` (= Idempotency-Key).
 */
function assertDeliveredOnce(receiver: HookReceiver, expected: number, hooks = 1): { deliveries: number; duplicates: number } {
  const byKey = new Map<string, Set<string>>();
  for (const d of receiver.received) {
    expect(d.headers['webhook-id']).toBe(d.headers['idempotency-key']);
    const key = String(d.headers['webhook-id']);
    const deliveries = byKey.get(key) ?? new Set<string>();
    deliveries.add(`${d.path} ${d.json.path}`);
    byKey.set(key, deliveries);
  }
  const delivered = new Set(receiver.received.map((d) => `${d.path} ${d.json.path}`));
  expect(delivered.size).toBe(expected * hooks);
  expect(byKey.size).toBe(expected * hooks);
  // One key per (event, hook): a duplicate is always the same delivery with the same key.
  for (const deliveries of byKey.values()) expect(deliveries.size).toBe(1);
  return { deliveries: receiver.received.length, duplicates: receiver.received.length - expected * hooks };
}

const distinctDeliveries = (receiver: HookReceiver): number => new Set(receiver.received.map((d) => `${d.path} ${d.json.path}`)).size;

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
    const env = {
      DATABASE_URL: db.url,
      KAFKA_TOPIC_PREFIX: prefix,
      REDIS_PREFIX: prefix,
      INITIAL_ROOT_TOKEN: rootToken,
      HOOK_RETRY_SCHEDULE: '200ms,500ms,1s,1s,1s,1s,1s',
      HOOK_WORKER_CONCURRENCY: '10',
      ...extraEnv,
    };
    return { db, env, rootToken };
  }

  async function burst(app: NestFastifyApplication): Promise<void> {
    const outbox = app.get(OutboxService);
    const dataSource = app.get(DataSource);
    await dataSource.transaction((tx) =>
      outbox.append(
        tx,
        Array.from({ length: BURST }, (_, i) => groupEvent(i)),
      ),
    );
  }

  it('loses nothing when the gateway running the worker is stopped and started again mid-burst', async () => {
    // Two attempts at a time and two hooks: a stop finishes the fan-outs under way (graceful shutdown), the waiting ones are left.
    const { db, env, rootToken } = await setUp('hook_restart', { HOOK_WORKER_CONCURRENCY: '2' });
    let gw = await startGateway(env);
    try {
      for (const path of ['/durable-a', '/durable-b'])
        expect((await api(gw.baseUrl, 'POST', '/api/v4/hooks', { token: rootToken, body: { url: `${receiver.url}${path}` } })).status).toBe(201);
      await burst(gw.app);
      await eventually(() => (receiver.received.length >= 40 ? true : undefined), 'the burst to start', 30_000);
      await gw.app.close();
      const atStop = receiver.received.length;
      expect(atStop).toBeLessThan(2 * BURST);
      gw = await startGateway(env);
      await eventually(() => (distinctDeliveries(receiver) >= 2 * BURST ? true : undefined), 'every delivery after the restart', 60_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const { deliveries, duplicates } = assertDeliveredOnce(receiver, BURST, 2);
      // Every attempt is in the delivery log, those of the stopped process included.
      const dataSource = gw.app.get(DataSource);
      await eventually(async () => {
        const [{ count }] = await dataSource.query(`SELECT count(*)::int AS count FROM system_hook_deliveries WHERE status = 'successful'`);
        return count === deliveries ? true : undefined;
      }, 'one successful log row per delivery');
      process.stdout.write(
        `worker restart: ${atStop} delivered before the stop, ${deliveries} deliveries for ${2 * BURST} (${duplicates} duplicates, same Idempotency-Key)\n`,
      );
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
      await eventually(
        () => (new Set(receiver.received.map((d) => d.json.path)).size >= BURST ? true : undefined),
        'every event after the Redis restart',
        90_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      const { deliveries, duplicates } = assertDeliveredOnce(receiver, BURST);
      process.stdout.write(
        `redis restart: ${atStop} delivered before the stop, ${deliveries} deliveries for ${BURST} events (${duplicates} duplicates, same Idempotency-Key)\n`,
      );
    } finally {
      await gw?.app.close();
      await stopRedis(redis);
      rmSync(dir, { recursive: true, force: true });
      await db.drop();
    }
  }, 150_000);

  it('loses nothing when Redis is killed with deliveries waiting and restarts EMPTY (no RDB, no AOF): the queue is rebuilt from PostgreSQL', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'hook-redis-'));
    let redis = await startRedis(port, dir, false);
    // Two attempts at a time and a slow receiver: most fan-out jobs are still waiting in Redis when it dies.
    const { db, env, rootToken } = await setUp('hook_redis_empty', {
      REDIS_URL: `redis://127.0.0.1:${port}`,
      HOOK_WORKER_CONCURRENCY: '2',
      HOOK_RECOVERY_INTERVAL_MS: '500',
    });
    receiver.setReply(() => new Promise((resolve) => setTimeout(() => resolve({ status: 200 }), 10)));
    let gw: Awaited<ReturnType<typeof startGateway>> | null = null;
    try {
      gw = await startGateway(env);
      for (const path of ['/empty-a', '/empty-b']) {
        const hook = await api(gw.baseUrl, 'POST', '/api/v4/hooks', { token: rootToken, body: { url: `${receiver.url}${path}`, token: `secret${path}` } });
        expect(hook.status).toBe(201);
      }
      const queue = gw.app.get<Queue>(getQueueToken(HOOK_DELIVERIES.name));
      const dataSource = gw.app.get(DataSource);
      await burst(gw.app);
      await eventually(() => (receiver.received.length >= 40 ? true : undefined), 'the burst to start', 30_000);
      const waiting = await queue.getWaitingCount();
      expect(waiting).toBeGreaterThan(0);
      // A key written beside the queue just before the kill: gone after the restart means that
      // nothing of the old Redis survived. (Not "the database is empty": by the time the test
      // looks, the gateway has reconnected and written its keys again.)
      const client = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 });
      await client.connect();
      const sentinel = `${env.REDIS_PREFIX}:durability-test:before-the-kill`;
      await client.set(sentinel, String(waiting));
      client.disconnect();
      await stopRedis(redis, 'SIGKILL');
      const atStop = receiver.received.length;
      redis = await startRedis(port, dir, false);
      const restarted = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 });
      await restarted.connect();
      expect(await restarted.exists(sentinel)).toBe(0);
      restarted.disconnect();
      expect(atStop).toBeLessThan(2 * BURST);
      await eventually(() => (distinctDeliveries(receiver) >= 2 * BURST ? true : undefined), 'every delivery after Redis restarted empty', 90_000);
      // Nothing is owed any more.
      await eventually(
        async () => {
          const [{ pending }] = await dataSource.query(`SELECT count(*)::int AS pending FROM system_hook_events WHERE fanned_out_at IS NULL`);
          return pending === 0 ? true : undefined;
        },
        'every fan-out recorded as done',
        30_000,
      );
      const { deliveries, duplicates } = assertDeliveredOnce(receiver, BURST, 2);
      // Every delivery signed as usual (the rebuilt jobs carry the same body, signed per hook).
      const sample = receiver.received.at(-1)!;
      const verified = new Webhook(`whsec_${Buffer.from(`secret${sample.path}`).toString('base64')}`).verify(
        sample.body,
        sample.headers as Record<string, string>,
      );
      expect(verified).toEqual(sample.json);
      process.stdout.write(
        `redis restarted empty: ${waiting} fan-out jobs waiting, ${atStop} delivered before the kill, ${deliveries} deliveries for ${2 * BURST} (${duplicates} duplicates, same webhook-id)\n`,
      );
    } finally {
      await gw?.app.close();
      await stopRedis(redis);
      rmSync(dir, { recursive: true, force: true });
      await db.drop();
    }
  }, 150_000);
});
