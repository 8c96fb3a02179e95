import { applyDecorators, SetMetadata } from '@nestjs/common';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job, RepeatOptions, UnrecoverableError } from 'bullmq';

/** The worker options of `@Processor` (those of BullMQ's `Worker`, without the connection). */
type WorkerOptions = Exclude<Parameters<typeof Processor>[1], undefined>;

/** Job name → payload of one queue. Payloads are plain JSON (ids and strings, never class instances or dates). */
export type JobMap = object;

/**
 * One BullMQ queue of a lib: its name, its job names and (as a type) each job's payload.
 * Declared once per lib with `defineQueue` in `<lib>.jobs.ts`. Never rename a queue or a job:
 * the names are stored in Redis with every waiting, delayed and failed job.
 */
// `JobQueue` alone (M = any) means any queue.
export interface JobQueue<Q extends string = string, M extends JobMap = any, J extends Record<string, string> = Record<string, string>> {
  readonly name: Q;
  /** The job names under constant-style keys (`QUEUE.jobs.PRUNE_EVENTS`). */
  readonly jobs: Readonly<J>;
  /** Every job name of the queue: each must have exactly one `@OnJob` handler where the queue has a worker. */
  readonly jobNames: readonly (keyof M & string)[];
  /** Type carrier of the job map (never set at run time). */
  readonly jobMap?: M;
}

/** Job names of a queue. */
export type JobNameOf<T> = T extends JobQueue<string, infer M> ? keyof M & string : never;

/** Payload of one job of a queue. */
export type JobDataOf<T, N extends JobNameOf<T>> = T extends JobQueue<string, infer M> ? M[N & keyof M] : never;

type MissingJobs<M, J extends Record<string, string>> = Exclude<keyof M & string, J[keyof J]>;

/**
 * Declares a queue and its typed job map:
 *
 *     export const EVENTS_RETENTION = defineQueue<{ 'prune-events': PruneEventsPayload }>()('events-retention', { PRUNE_EVENTS: 'prune-events' });
 *
 * The constants must name every job of the map (a missing one fails to compile).
 */
export function defineQueue<M extends JobMap>() {
  return <const Q extends string, const J extends Record<string, keyof M & string>>(
    name: Q,
    jobs: J & ([MissingJobs<M, J>] extends [never] ? unknown : { [missing in MissingJobs<M, J>]: `job "${missing}" has no constant` }),
  ): JobQueue<Q, M, J> => ({ name, jobs, jobNames: [...new Set(Object.values(jobs) as (keyof M & string)[])] });
}

/** When a job runs by itself: a cron pattern (UTC) or a fixed interval. */
export type JobSchedule = { cron: string } | { everyMs: number };

/** Declares a handler as a scheduled maintenance job: one job per tick, whatever the number of replicas. */
export interface ScheduledJobOptions<T> {
  schedule: JobSchedule;
  /** The payload of every run. */
  data: T;
  /** Attempts of one run (default 3). */
  attempts?: number;
}

export interface OnJobMetadata {
  queue: JobQueue;
  name: string;
  scheduled?: ScheduledJobOptions<unknown>;
}

export const ON_JOB = Symbol('queue:on-job');
export const JOB_WORKER = Symbol('queue:job-worker');

/** The handler of one job: receives the payload and the BullMQ job; what it resolves to is stored as the job's result. */
export type JobHandler<T, N extends string = string> = (data: T, job: Job<T, unknown, N>) => Promise<unknown>;

/**
 * Marks a method as the handler of one job of a queue (found at boot by `JobHandlerRegistry`).
 * The payload type comes from the queue's job map. With `scheduled`, the job also runs by
 * itself on that schedule (a BullMQ job scheduler, upserted at boot: idempotent across replicas).
 */
export function OnJob<Q extends string, M extends JobMap, N extends keyof M & string>(queue: JobQueue<Q, M>, name: N, scheduled?: ScheduledJobOptions<M[N]>) {
  return <H extends JobHandler<M[N], N>>(_target: object, _key: string | symbol, descriptor: TypedPropertyDescriptor<H>): void => {
    Reflect.defineMetadata(ON_JOB, { queue, name, scheduled } satisfies OnJobMetadata, descriptor.value!);
  };
}

/**
 * Makes a `JobWorker` subclass the worker of `queue` in this process (`@Processor` with the
 * queue's name and the worker options). Boot fails unless each job name of the queue has
 * exactly one `@OnJob` handler among the providers.
 */
export const QueueWorker = (queue: JobQueue, options?: WorkerOptions): ClassDecorator =>
  applyDecorators(SetMetadata(JOB_WORKER, queue), options ? Processor(queue.name, options) : Processor(queue.name));

/**
 * Base class of the workers declared with `@QueueWorker`: each job is run by the `@OnJob`
 * handler of its name; a name without a handler fails the job without retry. The handlers are
 * bound by `JobHandlerRegistry` before the worker starts.
 */
export abstract class JobWorker extends WorkerHost {
  private handlers: ReadonlyMap<string, (job: Job) => Promise<unknown>> = new Map();

  /** Called by the registry at boot, before the worker takes its first job. */
  bindHandlers(handlers: ReadonlyMap<string, (job: Job) => Promise<unknown>>): void {
    this.handlers = handlers;
  }

  process(job: Job): Promise<unknown> {
    const handler = this.handlers.get(job.name);
    if (!handler) return Promise.reject(new UnknownJobError(job.queueName, job.name));
    return handler(job);
  }
}

/** A job whose name has no handler (a job enqueued by a newer or older version): not retried. */
export class UnknownJobError extends UnrecoverableError {
  constructor(queue: string, name: string) {
    super(`unknown job ${name} on ${queue}`);
  }
}

/** The BullMQ repeat options of a schedule (cron patterns in UTC). */
export const repeatOptionsOf = (schedule: JobSchedule): Omit<RepeatOptions, 'key'> =>
  'cron' in schedule ? { pattern: schedule.cron, tz: 'UTC' } : { every: schedule.everyMs };
