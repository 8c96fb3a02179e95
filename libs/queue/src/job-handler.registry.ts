import { Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { BullRegistrar } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { JobHandlerMismatchError, findJobHandlerProblems } from './job-handlers';
import { JOB_WORKER, JobQueue, JobWorker, ON_JOB, OnJobMetadata } from './job-queue';
import { JobScheduleKeeper } from './job-schedule-keeper';

interface FoundHandler extends OnJobMetadata {
  /** `Class.method`, for the error messages. */
  where: string;
  run: (job: Job) => Promise<unknown>;
}

/** Thrown at boot when the workers and the `@OnJob` handlers of the process do not match. */
export class JobWiringError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobWiringError';
  }
}

/**
 * Finds, at boot, the `@QueueWorker` classes and the `@OnJob` methods of every provider, and
 * stops the boot when they do not match: for each queue with a worker in this process, every
 * job name of its job map has exactly one handler and no handler claims an undeclared name; a
 * handler whose queue has no worker here, or a queue with two workers, is an error too. Then it
 * binds the handlers to their worker, starts the workers (BullMQ's registration is manual so
 * that no worker takes a job before the check), and hands the schedules of the scheduled
 * handlers to the `JobScheduleKeeper`, which keeps their job schedulers in Redis.
 */
@Injectable()
export class JobHandlerRegistry implements OnModuleInit {
  private readonly logger = new Logger(JobHandlerRegistry.name);

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly schedules: JobScheduleKeeper,
    @Optional() private readonly registrar?: BullRegistrar,
  ) {}

  onModuleInit(): void {
    const workers = this.findWorkers();
    const handlers = this.findHandlers();
    const problems: string[] = [];
    for (const [name, found] of workers) {
      if (found.length > 1) problems.push(`Queue "${name}": several workers (${found.map((w) => w.instance.constructor.name).join(', ')})`);
    }
    for (const [name, [worker]] of workers) {
      const mine = handlers.filter((handler) => handler.queue.name === name);
      const check = findJobHandlerProblems(
        worker!.queue.jobNames,
        mine.map((handler) => handler.name),
      );
      if (check.missing.length || check.duplicated.length || check.unknown.length) {
        const duplicates = check.duplicated.map(
          (job) =>
            `${job} (${mine
              .filter((h) => h.name === job)
              .map((h) => h.where)
              .join(', ')})`,
        );
        problems.push(new JobHandlerMismatchError(name, { ...check, duplicated: duplicates }).message);
      }
      worker!.instance.bindHandlers(new Map(mine.map((handler) => [handler.name, handler.run])));
    }
    for (const handler of handlers) {
      if (!workers.has(handler.queue.name))
        problems.push(`Queue "${handler.queue.name}": ${handler.where} handles ${handler.name} but the queue has no @QueueWorker in this process`);
    }
    if (problems.length) throw new JobWiringError(problems.join('\n'));
    this.schedules.declare(handlers.flatMap(({ queue, name, scheduled }) => (scheduled ? [{ queue, name, scheduled }] : [])));
    // Only now may the workers take jobs (`QueueModule` registers BullMQ's workers manually).
    this.registrar?.register();
    if (this.registrar) for (const [name, [worker]] of workers) this.logWorkerErrors(name, worker!.instance);
  }

  /**
   * A BullMQ worker emits `error` for what fails outside a job (Redis away, a job's keys lost with
   * Redis when it finishes): logged as a warning, unless the worker listens itself. Without any
   * listener BullMQ prints them with `console.error`.
   */
  private logWorkerErrors(queue: string, instance: JobWorker): void {
    const worker = instance.worker;
    worker.on('error', (error: Error) => {
      if (worker.listenerCount('error') === 1) this.logger.warn(`worker of ${queue}: ${error.message}`);
    });
  }

  private findWorkers(): Map<string, Array<{ queue: JobQueue; instance: JobWorker }>> {
    const workers = new Map<string, Array<{ queue: JobQueue; instance: JobWorker }>>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object') continue;
      const queue = this.reflector.get<JobQueue | undefined>(JOB_WORKER, instance.constructor);
      if (!queue) continue;
      if (!(instance instanceof JobWorker)) throw new JobWiringError(`${instance.constructor.name} is a @QueueWorker but does not extend JobWorker`);
      workers.set(queue.name, [...(workers.get(queue.name) ?? []), { queue, instance }]);
    }
    return workers;
  }

  private findHandlers(): FoundHandler[] {
    const found: FoundHandler[] = [];
    const seen = new Set<unknown>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      // The same instance can be registered under several tokens (`useExisting`): scan it once.
      if (!instance || typeof instance !== 'object' || seen.has(instance)) continue;
      seen.add(instance);
      const prototype = Object.getPrototypeOf(instance) as object | null;
      if (!prototype) continue;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const fn = instance[method];
        if (typeof fn !== 'function') continue;
        const meta = this.reflector.get<OnJobMetadata | undefined>(ON_JOB, fn);
        if (!meta) continue;
        const handler = fn as (data: unknown, job: Job) => Promise<unknown>;
        found.push({ ...meta, where: `${instance.constructor.name}.${method}`, run: (job) => handler.call(instance, job.data, job) });
      }
    }
    return found;
  }
}
