import 'reflect-metadata';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { AppConfig, ConfigModule } from '@app/config';
import { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { randomBytes, randomUUID } from 'node:crypto';
import { DEFAULT_JOB_OPTIONS } from './default-job-options';
import { JobDataOf, defineQueue } from './job-queue';
import { QueueModule, bullOptions } from './queue.module';
import { REDIS } from './redis.constants';
import { RedisModule } from './redis.module';

const MAINTENANCE = defineQueue<{ 'prune-hook-logs': { olderThanDays: number } }>()('maintenance', { PRUNE_HOOK_LOGS: 'prune-hook-logs' });

describe('QueueModule and RedisModule', () => {
  const prefix = `queue-it-${randomBytes(4).toString('hex')}`;
  const config = AppConfig.fromEnvironment({ REDIS_PREFIX: prefix });
  let app: INestApplicationContext;
  let queue: Queue;
  let redis: Redis;

  beforeAll(async () => {
    @Module({ imports: [ConfigModule.forRoot(config), RedisModule, QueueModule.forRoot(), BullModule.registerQueue({ name: MAINTENANCE.name })] })
    class TestModule {}
    app = await NestFactory.createApplicationContext(TestModule, { logger: ['error'] });
    queue = app.get<Queue>(getQueueToken(MAINTENANCE.name));
    redis = app.get<Redis>(REDIS);
  });

  afterAll(async () => {
    if (app) {
      await queue.obliterate({ force: true });
      await app.close();
    }
  });

  it('stores jobs under the configured prefix with the default job options', async () => {
    const data: JobDataOf<typeof MAINTENANCE, 'prune-hook-logs'> = { olderThanDays: 90 };
    const job = await queue.add(MAINTENANCE.jobs.PRUNE_HOOK_LOGS, data, { jobId: `prune-${randomUUID()}` });
    expect(job.opts).toMatchObject({
      attempts: DEFAULT_JOB_OPTIONS.attempts,
      backoff: DEFAULT_JOB_OPTIONS.backoff,
      removeOnComplete: DEFAULT_JOB_OPTIONS.removeOnComplete,
      removeOnFail: false,
    });
    await expect(redis.exists(`${prefix}:${MAINTENANCE.name}:${job.id}`)).resolves.toBe(1);
    await expect(redis.exists(`bull:${MAINTENANCE.name}:${job.id}`)).resolves.toBe(0);
  });

  it('keeps a job that failed its last attempt', async () => {
    const job = await queue.add(MAINTENANCE.jobs.PRUNE_HOOK_LOGS, { olderThanDays: 1 }, { jobId: `fail-${randomUUID()}`, attempts: 1 });
    const events = new QueueEvents(MAINTENANCE.name, bullOptions(config));
    const worker = new Worker(
      MAINTENANCE.name,
      async () => {
        throw new Error('receiver is down');
      },
      { ...bullOptions(config), autorun: false },
    );
    try {
      await events.waitUntilReady();
      const failed = job.waitUntilFinished(events, 10_000);
      void worker.run();
      await expect(failed).rejects.toThrow('receiver is down');
      await expect(queue.getJobState(job.id!)).resolves.toBe('failed');
      await expect(redis.exists(`${prefix}:${MAINTENANCE.name}:${job.id}`)).resolves.toBe(1);
    } finally {
      await worker.close();
      await events.close();
    }
  });

  it('shares one Redis connection that answers and is closed with the application', async () => {
    await expect(redis.ping()).resolves.toBe('PONG');
    const own = await NestFactory.createApplicationContext(
      (() => {
        @Module({ imports: [ConfigModule.forRoot(config), RedisModule] })
        class OwnModule {}
        return OwnModule;
      })(),
      { logger: ['error'] },
    );
    const connection = own.get<Redis>(REDIS);
    await connection.ping();
    expect(connection.status).toBe('ready');
    await own.close();
    expect(connection.status).toBe('end');
  });
});
