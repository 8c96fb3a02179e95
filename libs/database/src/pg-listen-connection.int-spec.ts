import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:net';
import { createTestDatabase, eventually } from '@app/testing';
import { Client } from 'pg';
import { PgListenConnection } from './pg-listen-connection';

describe(PgListenConnection.name, () => {
  let db: { url: string; drop: () => Promise<void> };
  let admin: Client;

  beforeAll(async () => {
    db = await createTestDatabase('pg_listen');
    admin = new Client({ connectionString: db.url });
    admin.on('error', () => undefined);
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await db?.drop();
  });

  const connectionsOf = async (applicationName: string): Promise<number> =>
    (
      await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [
        applicationName,
      ])
    ).rows[0].n;
  const terminate = async (applicationName: string): Promise<number> =>
    (
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [
        applicationName,
      ])
    ).rowCount ?? 0;

  it('holds one connection across repeated backend kills and still receives notifications', async () => {
    const applicationName = `service-api-listen-test-${randomBytes(3).toString('hex')}`;
    const received: string[] = [];
    const listens: boolean[] = [];
    const losses: number[] = [];
    const sut = new PgListenConnection({
      url: db.url,
      channels: ['listen_test_a', 'listen_test_b'],
      applicationName,
      onNotification: (channel, payload) => received.push(`${channel}:${payload}`),
      onListening: (reconnected) => listens.push(reconnected),
      onLost: (_error, failures) => losses.push(failures),
      retryDelayMs: () => 20,
    });
    try {
      await sut.start();
      expect(sut.listening).toBe(true);
      expect(listens).toEqual([false]);
      expect(await connectionsOf(applicationName)).toBe(1);

      for (let round = 1; round <= 5; round++) {
        expect(await terminate(applicationName)).toBe(1);
        await eventually(
          async () => (listens.length === round + 1 && sut.listening && (await connectionsOf(applicationName)) === 1 ? true : undefined),
          `reconnection ${round}`,
        );
      }
      // One reconnection per kill: the connections never doubled.
      expect(listens).toEqual([false, true, true, true, true, true]);
      expect(losses).toEqual([1, 1, 1, 1, 1]);
      expect(await connectionsOf(applicationName)).toBe(1);

      await admin.query("SELECT pg_notify('listen_test_a', 'one'), pg_notify('listen_test_b', 'two')");
      await eventually(() => (received.length === 2 ? true : undefined), 'the notifications after the kills');
      expect(received).toEqual(['listen_test_a:one', 'listen_test_b:two']);
    } finally {
      await sut.close();
    }
    expect(sut.listening).toBe(false);
    await eventually(async () => ((await connectionsOf(applicationName)) === 0 ? true : undefined), 'the connection to close');
    // Closed: it hears nothing more.
    await admin.query("SELECT pg_notify('listen_test_a', 'late')");
    expect(received).toHaveLength(2);
  });

  it('retries with back-off while the server is unreachable, never throws, and stops retrying once closed', async () => {
    // A port that accepts and at once closes connections: every attempt fails.
    const server: Server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const delays: number[] = [];
    const losses: number[] = [];
    const sut = new PgListenConnection({
      url: `postgres://postgres@127.0.0.1:${port}/nowhere`,
      channels: ['listen_test_a'],
      applicationName: 'service-api-listen-test-down',
      onNotification: () => undefined,
      onLost: (_error, failures) => losses.push(failures),
      retryDelayMs: (failures) => {
        delays.push(failures);
        return 10;
      },
    });
    try {
      await expect(sut.start()).resolves.toBeUndefined();
      expect(sut.listening).toBe(false);
      await eventually(() => (losses.length >= 3 ? true : undefined), 'three failed attempts');
      // Failures count up (so the caller's back-off grows), one attempt at a time.
      expect(losses.slice(0, 3)).toEqual([1, 2, 3]);
      expect(delays.slice(0, 3)).toEqual([1, 2, 3]);
    } finally {
      await sut.close();
    }
    const after = losses.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(losses.length).toBe(after);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
