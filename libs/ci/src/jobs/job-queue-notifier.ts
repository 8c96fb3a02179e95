import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { EntityManager } from 'typeorm';

/** The PostgreSQL channel told when jobs become pending (never rename: every replica listens). */
export const JOB_QUEUE_CHANNEL = 'ci_job_queue';

/**
 * Wakes long-polling runners when jobs become pending. The transaction that enqueues jobs sends
 * `pg_notify` (delivered on commit, to every gateway replica); each replica holds one LISTEN
 * connection and releases its waiting requests. The queue `version` changes with every
 * notification: it is the runner protocol's `X-GitLab-Last-Update`, so a runner whose
 * `last_update` is current goes straight to waiting, without a query.
 */
@Injectable()
export class JobQueueNotifier implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(JobQueueNotifier.name);
  private readonly boot = randomBytes(4).toString('hex');
  private counter = 0;
  private readonly waiters = new Set<() => void>();
  private client: Client | null = null;
  private closed = false;

  constructor(private readonly config: AppConfig) {}

  get version(): string {
    return `${this.boot}-${this.counter}`;
  }

  get waiting(): number {
    return this.waiters.size;
  }

  async onModuleInit(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    this.wakeAll();
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString: this.config.database.url });
    client.on('notification', () => this.wakeAll());
    client.on('error', (error) => {
      this.logger.warn({ err: error }, 'job queue LISTEN connection lost; reconnecting');
      this.client = null;
      this.wakeAll();
      setTimeout(() => void this.connect().catch(() => undefined), 1000).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${JOB_QUEUE_CHANNEL}`);
      this.client = client;
    } catch (error) {
      this.logger.warn({ err: error }, 'job queue LISTEN connection failed; retrying');
      await client.end().catch(() => undefined);
      setTimeout(() => void this.connect().catch(() => undefined), 1000).unref();
    }
  }

  /** Tells every replica (on commit) that jobs became pending. */
  async notify(tx: EntityManager): Promise<void> {
    await tx.query('SELECT pg_notify($1, $2)', [JOB_QUEUE_CHANNEL, '']);
  }

  /** Wakes local waiters now (after a commit this process made, or when the connection drops). */
  wakeAll(): void {
    this.counter += 1;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  /** Resolves on the next notification, after `ms`, or when `signal` aborts; true when woken by a notification. */
  wait(ms: number, signal?: AbortSignal): Promise<boolean> {
    if (this.closed || signal?.aborted || ms <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (woken: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(onWake);
        signal?.removeEventListener('abort', onAbort);
        resolve(woken);
      };
      const onWake = () => done(true);
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      this.waiters.add(onWake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
