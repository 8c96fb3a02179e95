import type { INestApplicationContext } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import { CI_MAINTENANCE } from '@app/ci';
import { EVENTS_RETENTION } from '@app/events';
import { HOOK_MAINTENANCE } from '@app/hooks';
import { PROJECT_TRANSFER } from '@app/project-transfer';
import { DeclaredSchedule, JobScheduleKeeper, SCHEDULE_CHECK_INTERVAL_MS } from '@app/queue';
import { deleteRedisKeys, eventually } from '@app/testing';
import type { Queue } from 'bullmq';
import { startProjector } from '../../apps/projector/src/main';
import { startTestGateway, TestGateway } from './support/test-gateway';

/** `queue/name` of the schedulers BullMQ holds for the queues of `schedules`. */
async function schedulersInRedis(app: INestApplicationContext, schedules: readonly DeclaredSchedule[]): Promise<string[]> {
  const queues = [...new Set(schedules.map(({ queue }) => queue.name))];
  const listed = await Promise.all(
    queues.map(async (name) =>
      (await app.get<Queue>(getQueueToken(name), { strict: false }).getJobSchedulers()).map((scheduler) => `${name}/${scheduler.key}`),
    ),
  );
  return listed.flat().sort();
}

const names = (schedules: readonly DeclaredSchedule[]): string[] => schedules.map(({ queue, name }) => `${queue.name}/${name}`).sort();

/**
 * The repeatable jobs declared by `@OnJob(..., { schedule })` come back by themselves after Redis
 * lost its keys (FLUSHDB, a restart without persistence): without a restart of the processes.
 */
describe('Job schedules after Redis lost its keys', () => {
  let gw: TestGateway;
  let projector: INestApplicationContext;

  beforeAll(async () => {
    gw = await startTestGateway('job_schedules');
    projector = await startProjector(gw.config);
  });
  afterAll(async () => {
    await projector?.close();
    await gw?.close();
  });

  it('declares every scheduled handler of the gateway and the projector at boot', async () => {
    const declared = [...gw.app.get(JobScheduleKeeper).declared(), ...projector.get(JobScheduleKeeper).declared()];
    expect(names(declared)).toEqual(
      [
        `${CI_MAINTENANCE.name}/${CI_MAINTENANCE.jobs.DROP_STUCK_JOBS}`,
        `${CI_MAINTENANCE.name}/${CI_MAINTENANCE.jobs.EXPIRE_ARTIFACTS}`,
        `${CI_MAINTENANCE.name}/${CI_MAINTENANCE.jobs.PROCESS_UNPROCESSED_PIPELINES}`,
        `${CI_MAINTENANCE.name}/${CI_MAINTENANCE.jobs.START_DUE_SCHEDULED_JOBS}`,
        `${EVENTS_RETENTION.name}/${EVENTS_RETENTION.jobs.PRUNE_EVENTS}`,
        `${HOOK_MAINTENANCE.name}/${HOOK_MAINTENANCE.jobs.PRUNE_HOOK_LOGS}`,
        `${PROJECT_TRANSFER.name}/${PROJECT_TRANSFER.jobs.PRUNE_EXPORTS}`,
      ].sort(),
    );
    expect(await schedulersInRedis(gw.app, gw.app.get(JobScheduleKeeper).declared())).toEqual(names(gw.app.get(JobScheduleKeeper).declared()));
    expect(await schedulersInRedis(projector, projector.get(JobScheduleKeeper).declared())).toEqual(names(projector.get(JobScheduleKeeper).declared()));
  });

  it('puts every schedule back within a minute after the keys are gone, in every process', async () => {
    const lostAt = Date.now();
    const deleted = await deleteRedisKeys(gw.config.redis.url, gw.config.redis.prefix);
    // The schedulers were among the keys lost (each queue's `repeat` set).
    expect(deleted).toEqual(
      expect.arrayContaining([`${gw.config.redis.prefix}:${CI_MAINTENANCE.name}:repeat`, `${gw.config.redis.prefix}:${EVENTS_RETENTION.name}:repeat`]),
    );
    for (const app of [gw.app, projector]) {
      const declared = app.get(JobScheduleKeeper).declared();
      await eventually(
        async () => {
          const inRedis = await schedulersInRedis(app, declared);
          return inRedis.join() === names(declared).join() ? inRedis : undefined;
        },
        'every declared scheduler back in Redis',
        60_000,
        250,
      );
    }
    const took = Date.now() - lostAt;
    // One check interval, with room for a busy machine.
    expect(took).toBeLessThan(SCHEDULE_CHECK_INTERVAL_MS + 30_000);
    // With its schedule and payload of the declaration: an `everyMs` one and a cron one.
    const ci = gw.app.get<Queue>(getQueueToken(CI_MAINTENANCE.name), { strict: false });
    expect(await ci.getJobScheduler(CI_MAINTENANCE.jobs.DROP_STUCK_JOBS)).toMatchObject({ every: 60_000, template: { data: { batchSize: 500 } } });
    expect(await ci.getJobScheduler(CI_MAINTENANCE.jobs.EXPIRE_ARTIFACTS)).toMatchObject({ pattern: '7-59/10 * * * *', tz: 'UTC' });
    process.stdout.write(`schedules back ${took} ms after Redis lost its keys\n`);
  }, 90_000);

  it('puts back nothing that is still there', async () => {
    await expect(gw.app.get(JobScheduleKeeper).restoreMissing()).resolves.toEqual([]);
  });
});
