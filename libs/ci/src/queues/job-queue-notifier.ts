import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { PgListenConnection, SERVICE_APPLICATION_NAME } from '@app/database';
import { randomBytes } from 'node:crypto';

/** The PostgreSQL channel told when jobs become pending (never rename: every replica listens). */
export const JOB_QUEUE_CHANNEL = 'ci_job_queue';

/** `application_name` of the LISTEN connection. */
export const JOB_QUEUE_APPLICATION_NAME = `${SERVICE_APPLICATION_NAME}-ci-job-queue`;

/** A long poll waiting for jobs. */
interface Waiter {
  wake: () => void;
  /** The wake-up round in which this runner last asked for a job and found none. */
  triedRound: number;
}

/**
 * Wakes long-polling runners when jobs become pending. The transaction that enqueues jobs sends
 * `pg_notify` (`JobQueueRepository.notifyPending`) with the number of jobs (delivered on commit, to every gateway replica); each
 * replica holds one LISTEN connection (a `PgListenConnection`: one connection at most, reconnected
 * with back-off when cut) and wakes that many of its waiting requests, oldest first,
 * rather than every idle runner (each woken runner asks PostgreSQL once). A woken runner that
 * finds nothing it may run (another runner was faster, or the job's tags or scope are not its)
 * hands the wake-up on to a runner that has not asked in this round, so a job that only some
 * runners may take still reaches one of them; each runner asks at most once per round. The queue
 * `version` changes with every notification: it is the runner protocol's `X-GitLab-Last-Update`,
 * so a runner whose `last_update` is current goes straight to waiting, without a query.
 */
@Injectable()
export class JobQueueNotifier implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(JobQueueNotifier.name);
  private readonly boot = randomBytes(4).toString('hex');
  private counter = 0;
  /** Insertion order is the waiting order. */
  private readonly waiters = new Set<Waiter>();
  private closed = false;
  private connection: PgListenConnection | null = null;

  constructor(private readonly config: AppConfig) {}

  get version(): string {
    return `${this.boot}-${this.counter}`;
  }

  /** The current wake-up round (changes with every notification). */
  get round(): number {
    return this.counter;
  }

  get waiting(): number {
    return this.waiters.size;
  }

  /** Whether the LISTEN connection is up. */
  get listening(): boolean {
    return this.connection?.listening ?? false;
  }

  async onModuleInit(): Promise<void> {
    this.connection ??= new PgListenConnection({
      url: this.config.database.url,
      channels: [JOB_QUEUE_CHANNEL],
      applicationName: JOB_QUEUE_APPLICATION_NAME,
      onNotification: (_channel, payload) => this.notified(payload),
      onListening: (reconnected) => {
        if (reconnected) this.logger.log('job queue LISTEN connection is back');
        // Jobs enqueued while the connection was down woke nobody.
        this.wakeAll();
      },
      onLost: (error, failures) => {
        if (failures === 1) this.logger.warn({ err: error }, 'job queue LISTEN connection lost; reconnecting');
        // Notifications may be lost while it is down: every waiter looks for itself.
        this.wakeAll();
      },
    });
    await this.connection.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    this.wakeAll();
    await this.connection?.close();
  }

  /** A notification: the payload is the number of new jobs (anything else wakes every waiter). */
  notified(payload: string | undefined): void {
    const count = payload && /^\d{1,9}$/.test(payload) ? Number(payload) : Number.POSITIVE_INFINITY;
    this.counter += 1;
    this.wake(count, () => true);
  }

  /** Wakes every waiter now (shutdown, or when the connection drops: notifications may be lost). */
  wakeAll(): void {
    this.counter += 1;
    this.wake(Number.POSITIVE_INFINITY, () => true);
  }

  /** A woken runner found no job: the oldest waiter that has not asked in this round asks instead. */
  handOn(): void {
    const round = this.counter;
    this.wake(1, (waiter) => waiter.triedRound !== round);
  }

  private wake(count: number, eligible: (waiter: Waiter) => boolean): void {
    let left = count;
    for (const waiter of this.waiters) {
      if (left <= 0) break;
      if (!eligible(waiter)) continue;
      this.waiters.delete(waiter);
      waiter.wake();
      left -= 1;
    }
  }

  /**
   * Resolves when this waiter is woken (true), after `ms`, or when `signal` aborts (false).
   * `triedRound`: the round in which the runner last found no job (it is not handed a wake-up
   * of that round again).
   */
  wait(ms: number, signal?: AbortSignal, triedRound = -1): Promise<boolean> {
    if (this.closed || signal?.aborted || ms <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = { wake: () => done(true), triedRound };
      const done = (woken: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        signal?.removeEventListener('abort', onAbort);
        resolve(woken);
      };
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      this.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
