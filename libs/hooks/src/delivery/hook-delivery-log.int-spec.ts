import { AppConfig } from '@app/config';
import { createDataSource } from '@app/database';
import { createTestDatabase } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SystemHooksRepository } from '../core/system-hooks.repository';
import { HookDeliveriesRepository } from './hook-deliveries.repository';
import { HookDeliveryLog, NewHookDelivery } from './hook-delivery-log';
import { HookHealthService } from '../core/hook-health';
import { ENTITIES } from '@apps/entities';

const row = (hookId: number, over: Partial<NewHookDelivery> = {}): NewHookDelivery => ({
  hookId,
  eventId: randomUUID(),
  trigger: 'project_create',
  url: 'http://receiver.example/hook',
  requestHeaders: { 'X-Service-Token': '[REDACTED]' },
  requestBody: '{"event_name":"project_create"}',
  responseStatus: 200,
  responseHeaders: { 'content-type': 'text/plain' },
  responseBody: 'ok\u0000',
  status: 'successful',
  error: null,
  durationMs: 12,
  idempotencyKey: randomUUID(),
  webhookUuid: randomUUID(),
  attempt: 1,
  eventOccurredAt: new Date().toISOString(),
  ...over,
});

/** The delivery log and the hook health against the real PostgreSQL. */
describe(HookDeliveryLog.name, () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let sut: HookDeliveryLog;
  let deliveries: HookDeliveriesRepository;

  beforeAll(async () => {
    db = await createTestDatabase('hook_log');
    dataSource = await createDataSource(AppConfig.fromEnvironment({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' }), ENTITIES).initialize();
    deliveries = new HookDeliveriesRepository(dataSource);
    sut = new HookDeliveryLog(deliveries);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('stores rows written concurrently (grouped COPYs), every promise resolving once its row is stored', async () => {
    await Promise.all(Array.from({ length: 1_234 }, (_, i) => sut.record(row(1, { attempt: 1 + (i % 3) }))));
    await expect(deliveries.listQuery(1).getCount()).resolves.toBe(1_234);
    const [newest] = await deliveries.listQuery(1).take(1).getMany();
    expect(newest.responseBody).toBe('ok');
    await expect(deliveries.listQuery(1, 'client_failure').getCount()).resolves.toBe(0);
  });

  it('stores every character a receiver may answer: tabs, newlines, backslashes, quotes, non-ASCII; NUL dropped; nulls as NULL', async () => {
    const awkward = 'a\tb\nc\r\nd \\N \\. \\\\ "q" \'s\' é 漢 😀 \u0000end';
    const fields = {
      eventId: null,
      trigger: 'push\tevent',
      requestHeaders: { 'X-Odd': 'tab\there "quoted" \\ back' },
      requestBody: '{"message":"line 1\\nline 2","path":"C:\\\\dir"}\n',
      responseStatus: null,
      responseHeaders: null,
      error: 'ECONNRESET:\tsocket hang up\n\\',
      webhookUuid: null,
      eventOccurredAt: null,
    };
    await sut.record(row(3, { ...fields, responseBody: awkward, status: 'server_failure' }));
    const [stored] = await deliveries.listQuery(3).getMany();
    expect(stored).toMatchObject({ ...fields, responseBody: awkward.replace('\u0000', '') });
  });

  it('rejects the rows of a batch PostgreSQL refuses, and keeps writing the next ones', async () => {
    await expect(sut.record(row(4, { idempotencyKey: 'not-a-uuid' }))).rejects.toThrow(/uuid/);
    await sut.record(row(4));
    await expect(deliveries.listQuery(4).getCount()).resolves.toBe(1);
  });

  it('prunes rows older than the retention, newer ones stay', async () => {
    await sut.recordMany([row(2), row(2), row(2)]);
    await dataSource.query(`UPDATE system_hook_deliveries SET created_at = now() - interval '15 days' WHERE hook_id = 2`);
    await sut.record(row(2));
    await expect(deliveries.prune(14)).resolves.toBe(3);
    await expect(deliveries.listQuery(2).getCount()).resolves.toBe(1);
    await expect(deliveries.prune(14)).resolves.toBe(0);
  });

  it('counts consecutive failures atomically under concurrency and resets on success', async () => {
    const [{ id }] = await dataSource.query(`INSERT INTO system_hooks (url) VALUES ('http://receiver.example/') RETURNING id`);
    const health = new HookHealthService(new SystemHooksRepository(dataSource));
    await Promise.all(Array.from({ length: 10 }, () => health.recordFailure(id)));
    const [after] = await dataSource.query(`SELECT alert_status, recent_failures, backoff_count, disabled_until FROM system_hooks WHERE id = $1`, [id]);
    expect(after).toMatchObject({ alert_status: 'temporarily_disabled', recent_failures: 10, backoff_count: 1 });
    await health.recordSuccess(id);
    const [reset] = await dataSource.query(`SELECT alert_status, recent_failures, backoff_count, disabled_until FROM system_hooks WHERE id = $1`, [id]);
    expect(reset).toEqual({ alert_status: 'executable', recent_failures: 0, backoff_count: 0, disabled_until: null });
    await expect(health.recordFailure(999_999)).resolves.toBeNull();
  });
});
