import { DynamicModule, Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { DiscoveryModule } from '@nestjs/core';
import { AppConfig } from '@app/config';
import type { QueueOptions } from 'bullmq';
import { DEFAULT_JOB_OPTIONS } from './default-job-options';
import { JobHandlerRegistry } from './job-handler.registry';
import { JobScheduleKeeper } from './job-schedule-keeper';

/** Longest wait between two reconnection attempts of a BullMQ connection, in milliseconds. */
export const REDIS_RECONNECT_MAX_DELAY_MS = 1_000;

/**
 * Delay before reconnection attempt `attempt` (1, 2, ...): short and capped at
 * `REDIS_RECONNECT_MAX_DELAY_MS`, so that workers take jobs again within a second of Redis
 * coming back. BullMQ's own default grows as e^attempt up to 20 s: after an outage of a few
 * seconds a worker stayed idle for up to 20 s, and a worker closed while it waited to
 * reconnect never finished closing (its connection emits no `end`), which hung shutdown.
 */
export function redisReconnectDelay(attempt: number): number {
  return Math.min(Math.max(attempt, 1) * 100, REDIS_RECONNECT_MAX_DELAY_MS);
}

/** BullMQ options shared by every queue and worker of the process. */
export function bullOptions(config: AppConfig): QueueOptions {
  return {
    // BullMQ opens (and closes) its own connections from these options; workers need
    // `maxRetriesPerRequest: null` on their blocking connection.
    connection: { url: config.redis.url, maxRetriesPerRequest: null, retryStrategy: redisReconnectDelay },
    prefix: config.redis.prefix,
    defaultJobOptions: DEFAULT_JOB_OPTIONS,
  };
}

/**
 * BullMQ root configuration: the connection from `AppConfig`, every key under
 * `REDIS_PREFIX`, and `DEFAULT_JOB_OPTIONS`; the `JobHandlerRegistry`, which checks the
 * `@QueueWorker`s against the `@OnJob` handlers before it starts the workers; and the
 * `JobScheduleKeeper`, which keeps the schedulers of the scheduled handlers in Redis. Import once in
 * the app module; feature modules then register their queues with
 * `BullModule.registerQueue({ name: MY_QUEUE.name })` (see docs/background-work.md).
 */
@Module({})
export class QueueModule {
  static forRoot(): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      imports: [
        DiscoveryModule,
        // Workers start only once the registry has checked them (`JobHandlerRegistry.onModuleInit`).
        BullModule.forRootAsync({ inject: [AppConfig], useFactory: bullOptions, extraOptions: { manualRegistration: true } }),
      ],
      providers: [JobHandlerRegistry, JobScheduleKeeper],
      exports: [BullModule, JobScheduleKeeper],
    };
  }
}
