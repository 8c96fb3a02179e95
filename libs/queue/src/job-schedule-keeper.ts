import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { JobQueue, ScheduledJobOptions, repeatOptionsOf } from './job-queue';

/** One repeatable job of a queue, as its `@OnJob(queue, name, { schedule, data })` declares it. */
export interface DeclaredSchedule {
  queue: JobQueue;
  name: string;
  scheduled: ScheduledJobOptions<unknown>;
}

/**
 * How often the job schedulers declared in this process are compared with Redis. A Redis that
 * lost its keys (FLUSHALL, a restart without persistence) has them back within this time; an
 * `everyMs` schedule put back runs at once, so the work it guards (delayed CI jobs, lost
 * pipeline processing) is at most this late on top of its own period.
 */
export const SCHEDULE_CHECK_INTERVAL_MS = 15_000;

/**
 * Keeps the BullMQ job schedulers of the scheduled `@OnJob` handlers of the process in Redis:
 * upserts every one at boot (so that a changed schedule or payload takes effect), then every
 * `SCHEDULE_CHECK_INTERVAL_MS` puts back the ones Redis no longer has. A scheduler that exists
 * is never upserted again after boot: for a cron schedule whose job is waiting that would
 * replace the waiting run by the next tick. Across a fleet the check is idempotent: two
 * processes putting the same scheduler back at once leave one scheduler and one next job (the
 * second upsert replaces the first one's next job by the same one). A check costs one small
 * script per schedule; checks never overlap (while Redis is away a check waits for it).
 * Provided by `QueueModule.forRoot()`; `JobHandlerRegistry` declares the schedules.
 */
@Injectable()
export class JobScheduleKeeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(JobScheduleKeeper.name);
  private schedules: readonly DeclaredSchedule[] = [];
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<string[]> | null = null;
  private stopped = false;

  constructor(private readonly moduleRef: ModuleRef) {}

  /** Called by the registry once the handlers are checked, before the application bootstraps. */
  declare(schedules: readonly DeclaredSchedule[]): void {
    this.schedules = schedules;
  }

  /** The schedules of this process (`queue`, job `name`, its schedule and payload). */
  declared(): readonly DeclaredSchedule[] {
    return this.schedules;
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const schedule of this.schedules) {
      await this.upsert(schedule);
      this.logger.debug(`scheduled ${schedule.queue.name}/${schedule.name}`);
    }
    if (this.schedules.length === 0) return;
    this.timer = setInterval(() => void this.restoreMissing(), SCHEDULE_CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Puts back the declared schedulers Redis does not have; resolves with them (`queue/name`).
   * A check already under way is joined, not doubled. Failures are logged, never thrown.
   */
  restoreMissing(): Promise<string[]> {
    this.checking ??= this.compareWithRedis().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async compareWithRedis(): Promise<string[]> {
    try {
      const missing = await Promise.all(
        this.schedules.map(async (schedule) => ((await this.queueOf(schedule).getJobScheduler(schedule.name)) ? null : schedule)),
      );
      const restored: string[] = [];
      for (const schedule of missing) {
        if (!schedule || this.stopped) continue;
        await this.upsert(schedule);
        restored.push(`${schedule.queue.name}/${schedule.name}`);
      }
      if (restored.length > 0) this.logger.warn(`job schedulers missing from Redis put back: ${restored.join(', ')}`);
      return restored;
    } catch (error) {
      if (!this.stopped) this.logger.warn(`job schedulers not compared with Redis: ${(error as Error).message}`);
      return [];
    }
  }

  private upsert({ queue, name, scheduled }: DeclaredSchedule): Promise<unknown> {
    return this.queueOf({ queue }).upsertJobScheduler(name, repeatOptionsOf(scheduled.schedule), {
      name,
      data: scheduled.data,
      opts: { attempts: scheduled.attempts ?? 3 },
    });
  }

  private queueOf({ queue }: Pick<DeclaredSchedule, 'queue'>): Queue {
    return this.moduleRef.get<Queue>(getQueueToken(queue.name), { strict: false });
  }
}
