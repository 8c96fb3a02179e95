import { AppConfig } from '@app/config';
import { createDataSource } from '@app/database';
import type { HookFanOutEvent } from '../core/hooks.jobs';
import { createTestDatabase } from '@app/testing';
import { Queue } from 'bullmq';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ENTITIES } from '@apps/entities';
import { HookDeliveriesRepository } from './hook-deliveries.repository';
import { HookDeliveryLog } from './hook-delivery-log';
import { HookDeliveryRecovery } from './hook-delivery-recovery';
import { HookEventsRepository } from './hook-events.repository';
import { fanOutJobId } from './hook-jobs';

const event = (hookIds: number[]): HookFanOutEvent => ({
  eventId: randomUUID(),
  trigger: 'group_create',
  body: '{"event_name":"group_create"}',
  occurredAt: new Date().toISOString(),
  chainId: randomUUID(),
  chainDepth: 1,
  hookIds,
});

/** The record of owed deliveries in PostgreSQL and the queue rebuilt from it, against the real PostgreSQL and Redis (own prefix). */
describe(HookDeliveryRecovery.name, () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let queue: Queue;
  let events: HookEventsRepository;
  let sut: HookDeliveryRecovery;
  // What was recorded less than the recovery interval (30 s) ago is too recent to be checked: a
  // wide margin, so that a loaded machine's pauses never make a fresh record look old.
  const later = () => Date.now() + 60_000;

  beforeAll(async () => {
    db = await createTestDatabase('hook_recovery');
    const config = AppConfig.fromEnvironment({
      DATABASE_URL: db.url,
      LOG_LEVEL: 'silent',
      HOOK_RECOVERY_INTERVAL_MS: '30000',
      HOOK_RETRY_SCHEDULE: '1s,2s,3s',
    });
    dataSource = await createDataSource(config, ENTITIES).initialize();
    queue = new Queue('hook-deliveries', { connection: { url: config.redis.url }, prefix: `t${randomBytes(4).toString('hex')}` });
    events = new HookEventsRepository(dataSource);
    sut = new HookDeliveryRecovery(config, events, new HookDeliveriesRepository(dataSource), queue);
  });
  afterAll(async () => {
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await dataSource?.destroy();
    await db?.drop();
  });

  it('records an event once, and enqueues again exactly the fan-outs whose job Redis lost, until they are done', async () => {
    const [a1, a2, b1] = [event([1, 2]), event([2]), event([1])];
    const jobA = fanOutJobId(a1.eventId);
    const jobB = fanOutJobId(b1.eventId);
    const recorded = await events.insert([...[a1, a2].map((e) => ({ ...e, jobId: jobA })), { ...b1, jobId: jobB }]);
    expect(recorded).toEqual(new Set([a1.eventId, a2.eventId, b1.eventId]));
    // Read again from the stream: recorded already, nothing to enqueue.
    await expect(events.insert([{ ...a1, jobId: 'fan-out_other' }])).resolves.toEqual(new Set());

    // Job A is in Redis, job B was lost.
    await queue.add('fan-out', { events: [a1, a2] }, { jobId: jobA });
    await expect(sut.rebuild(Date.now())).resolves.toEqual({ fanOuts: 0, retries: 0, resends: 0 }); // too recent to be checked
    await expect(sut.rebuild(later())).resolves.toEqual({ fanOuts: 1, retries: 0, resends: 0 });
    const rebuilt = await queue.getJob(jobB);
    expect(rebuilt?.data).toEqual({ events: [b1], recovered: true });
    await expect(sut.rebuild(later())).resolves.toEqual({ fanOuts: 0, retries: 0, resends: 0 });

    // Done fan-outs are owed nothing, whatever Redis holds.
    await events.markFannedOut([a1.eventId, a2.eventId, b1.eventId]);
    await queue.obliterate({ force: true });
    await expect(sut.rebuild(later())).resolves.toEqual({ fanOuts: 0, retries: 0, resends: 0 });
  });

  it('rebuilds a due retry under its job id with its attempt number, and forgets it at the final outcome', async () => {
    const e = event([7, 8]);
    await events.insert([{ ...e, jobId: fanOutJobId(e.eventId) }]);
    await events.markFannedOut([e.eventId]);
    await events.scheduleRetries([
      { eventId: e.eventId, hookId: 7, attempt: 3, dueAt: new Date(Date.now() - 45_000) },
      { eventId: e.eventId, hookId: 8, attempt: 2, dueAt: new Date(Date.now() + 3_600_000) },
    ]);
    // Only the due one: a retry lost with Redis is rebuilt when it comes due.
    await expect(sut.rebuild(Date.now())).resolves.toEqual({ fanOuts: 0, retries: 1, resends: 0 });
    const job = await queue.getJob(`${e.eventId}_7`);
    expect(job?.data).toMatchObject({ eventId: e.eventId, hookId: 7, body: e.body, firstAttempt: 3, bodyStored: true });
    // 4 attempts in all (schedule of 3): attempts 3 and 4 are left.
    expect(job?.opts.attempts).toBe(2);
    await expect(queue.getJob(`${e.eventId}_8`)).resolves.toBeUndefined();
    await expect(sut.rebuild(Date.now())).resolves.toEqual({ fanOuts: 0, retries: 0, resends: 0 });

    await events.finishRetry(e.eventId, 7);
    await queue.obliterate({ force: true });
    await expect(sut.rebuild(Date.now())).resolves.toEqual({ fanOuts: 0, retries: 0, resends: 0 });
  });

  it('tells which first attempts already have their outcome: a success or skip in the log, or a retry recorded', async () => {
    const e = event([1, 2, 3, 4]);
    await events.insert([{ ...e, jobId: fanOutJobId(e.eventId) }]);
    const log = new HookDeliveryLog(new HookDeliveriesRepository(dataSource));
    const row = {
      eventId: e.eventId,
      trigger: 'group_create',
      url: 'http://127.0.0.1:1/h',
      requestHeaders: {},
      requestBody: null,
      responseStatus: 200,
      responseHeaders: null,
      responseBody: null,
      error: null,
      durationMs: 1,
      idempotencyKey: randomUUID(),
      webhookUuid: null,
      attempt: 1,
      eventOccurredAt: e.occurredAt,
    };
    await log.recordMany([
      { ...row, hookId: 1, status: 'successful' },
      { ...row, hookId: 2, status: 'server_failure', responseStatus: 500 },
      { ...row, hookId: 3, status: 'skipped' },
    ]);
    await events.scheduleRetries([{ eventId: e.eventId, hookId: 2, attempt: 2, dueAt: new Date() }]);
    await expect(events.handled([e.eventId], new Date(Date.now() - 60_000))).resolves.toEqual(new Set([`${e.eventId}_1`, `${e.eventId}_2`, `${e.eventId}_3`]));
    // The log entry shows the event's body, stored once.
    const [entry] = await new HookDeliveriesRepository(dataSource).listQuery(1).getMany();
    expect(HookDeliveryLog.bodyOf(entry)).toBe(e.body);
  });

  it('rebuilds a resend lost with Redis from its log entry, and forgets it at its outcome or when its entry is gone', async () => {
    // What the tests above left owed is done.
    await dataSource.query(`UPDATE system_hook_events SET fanned_out_at = now()`);
    await dataSource.query(`DELETE FROM system_hook_retries`);
    const e = event([5]);
    await events.insert([{ ...e, jobId: fanOutJobId(e.eventId) }]);
    await events.markFannedOut([e.eventId]);
    const log = new HookDeliveryLog(new HookDeliveriesRepository(dataSource));
    const key = randomUUID();
    await log.recordMany([
      {
        eventId: e.eventId,
        hookId: 5,
        status: 'server_failure',
        trigger: 'group_create',
        url: 'http://127.0.0.1:1/h',
        requestHeaders: {},
        requestBody: null,
        responseStatus: 500,
        responseHeaders: null,
        responseBody: null,
        error: null,
        durationMs: 1,
        idempotencyKey: key,
        webhookUuid: null,
        attempt: 1,
        eventOccurredAt: e.occurredAt,
      },
    ]);
    const [entry] = await new HookDeliveriesRepository(dataSource).listQuery(5).getMany();
    const [kept, orphan] = [randomUUID(), randomUUID()];
    await events.recordResend({ id: kept, hookId: 5, deliveryId: entry.id, requestId: 'req-resend' });
    await events.recordResend({ id: orphan, hookId: 5, deliveryId: '999999999', requestId: null });

    await expect(sut.rebuild(Date.now())).resolves.toEqual({ fanOuts: 0, retries: 0, resends: 0 }); // too recent to be checked
    await expect(sut.rebuild(later())).resolves.toEqual({ fanOuts: 0, retries: 0, resends: 1 });
    const job = await queue.getJob(`resend_${entry.id}_${kept}`);
    expect(job?.data).toMatchObject({
      eventId: e.eventId,
      hookId: 5,
      resend: true,
      resendId: kept,
      body: e.body,
      idempotencyKey: key,
      requestId: 'req-resend',
    });
    expect(job?.opts.attempts).toBe(1);
    // The resend whose log entry is gone is dropped; the one in Redis is not queued twice.
    await expect(events.stillResending([kept, orphan])).resolves.toEqual(new Set([kept]));
    await expect(sut.rebuild(later())).resolves.toEqual({ fanOuts: 0, retries: 0, resends: 0 });

    await events.finishResend(kept);
    await queue.obliterate({ force: true });
    await expect(sut.rebuild(later())).resolves.toEqual({ fanOuts: 0, retries: 0, resends: 0 });
  });
});
