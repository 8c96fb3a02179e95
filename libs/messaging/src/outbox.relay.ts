import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { AppConfig } from '@app/config';
import type { Producer } from 'kafkajs';
import { DataSource, QueryRunner } from 'typeorm';
import { BackoffOptions, computeBackoff, DEFAULT_BACKOFF } from './backoff';
import { KafkaClient } from './kafka.factory';
import { OutboxListener } from './outbox-listener';
import { errorMessage, hasErrorType, OutboxRow, produceRequestsOf } from './outbox-messages';

/** Injection token of `OutboxRelayOptions` (set by `MessagingModule.forRoot`). */
export const OUTBOX_RELAY_OPTIONS = Symbol('OUTBOX_RELAY_OPTIONS');

export interface OutboxRelayOptions {
  /** Start on application bootstrap (and stop on shutdown). Default false. */
  autoStart?: boolean;
  /** Rows claimed per transaction. Default 500. */
  batchSize?: number;
  /** Upper bound of the serialized size of one produce request, in bytes. Default 512 KiB. */
  maxRequestBytes?: number;
  /** Fallback poll interval when idle and no notification arrives. Default `config.outboxPollMs`. */
  pollMs?: number;
  /**
   * How long the relay, woken from idle by a notification, waits before it claims, so that the
   * events committed meanwhile go out in the same batch. Default `config.outboxLingerMs`.
   */
  lingerMs?: number;
  /** Delay between attempts while publishing fails. Default 100 ms doubling to 5 s. */
  backoff?: BackoffOptions;
  /** LISTEN for `pg_notify` from `OutboxService.append` (low latency). Default true. */
  listen?: boolean;
}

/** Point-in-time state of a relay, for metrics and health checks. */
export interface OutboxRelaySnapshot {
  running: boolean;
  /** Events this relay published since it was created. */
  publishedTotal: number;
  /** Unpublished rows in the outbox (all relays), or null when PostgreSQL did not answer. */
  pending: number | null;
  /** True between a failed attempt and the next successful one. */
  failing: boolean;
  consecutiveFailures: number;
  lastError: { message: string; at: string } | null;
  lastPublishedAt: string | null;
  /** Whether the LISTEN connection is up (otherwise the relay polls). */
  listening: boolean;
}

/** TypeORM's PostgreSQL runner can hand its connection back to the pool as broken (pg-pool then destroys it). */
type ReleasableQueryRunner = QueryRunner & { releasePostgresConnection(error?: Error): Promise<void> };

/**
 * The oldest unpublished rows that no other relay holds. `SKIP LOCKED` lets several relays
 * run side by side (each row is claimed by one transaction at a time).
 */
const CLAIM_SQL = `
  SELECT seq::text AS seq, id, topic, message_key, payload, headers
  FROM outbox_events
  WHERE published_at IS NULL
  ORDER BY outbox_events.seq -- the bigint column, not the text alias
  LIMIT $1
  FOR UPDATE SKIP LOCKED`;

/**
 * For the keys we claimed, the oldest unpublished row that we did not claim (another relay
 * holds it, or its transaction committed after our claim). Our later rows of such a key
 * must wait, otherwise they could overtake it and break the per-key order.
 */
const BLOCKING_SQL = `
  SELECT message_key, min(seq)::text AS seq
  FROM outbox_events
  WHERE published_at IS NULL
    AND message_key = ANY($1::varchar[])
    AND seq <= $2::bigint
    AND NOT (id = ANY($3::uuid[]))
  GROUP BY message_key`;

const MARK_PUBLISHED_SQL = 'UPDATE outbox_events SET published_at = now() WHERE id = ANY($1::uuid[])';
const BUMP_ATTEMPTS_SQL = 'UPDATE outbox_events SET attempts = attempts + 1 WHERE id = ANY($1::uuid[]) AND published_at IS NULL';
const PENDING_SQL = 'SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL';

/**
 * Serializes the claim statements of concurrent relays (session advisory lock, released right
 * after the claim, so publishing still runs in parallel). Without it, two concurrent
 * `SKIP LOCKED` scans interleave row by row and each relay's rows end up blocked behind the
 * other's. Arbitrary fixed key; never change.
 */
export const OUTBOX_CLAIM_LOCK_KEY = 7_305_142_002;
/** Delay before looking again at rows held back behind another relay's batch. */
const BLOCKED_RETRY_MS = 50;

/** Kafka errors after which the idempotent producer's sequence state is unusable. */
const PRODUCER_STATE_ERRORS = new Set([
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'DUPLICATE_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'INVALID_PRODUCER_EPOCH',
  'INVALID_PRODUCER_ID_MAPPING',
]);
/** The topic was deleted (or never created): run `ensureTopics` again before the next attempt. */
const MISSING_TOPIC_ERRORS = new Set(['UNKNOWN_TOPIC_OR_PARTITION']);
/** Recreate the producer after this many failures in a row, whatever the cause. */
const PRODUCER_RESET_EVERY = 10;

/**
 * Transactional outbox relay: publishes the rows of `outbox_events` to Kafka in `seq` order.
 *
 * One loop per relay: claim up to `batchSize` rows (`FOR UPDATE SKIP LOCKED`), send them with
 * one idempotent producer (awaiting every request), mark them published, commit. If anything
 * fails the transaction rolls back, `attempts` is bumped, and the loop retries with exponential
 * backoff; it never gives up and never crashes. It sleeps until `pg_notify` (sent by
 * `OutboxService.append`, delivered at commit, received by its `OutboxListener`) or the poll
 * interval wakes it; woken from idle by a notification, it lingers `lingerMs` first, so that
 * the events committed meanwhile go out with it. The messages are built by the pure functions
 * of `outbox-messages.ts`.
 *
 * Delivery is exactly-once when Kafka is simply unreachable (nothing is sent, nothing is
 * marked) and at-least-once in the ambiguous cases (the broker stored a request whose
 * acknowledgement was lost, or the final COMMIT failed): consumers de-duplicate by event id.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly batchSize: number;
  private readonly maxRequestBytes: number;
  private readonly pollMs: number;
  private readonly lingerMs: number;
  private readonly backoff: BackoffOptions;

  private loop: Promise<void> | null = null;
  private stopping = false;
  private producer: Producer | null = null;
  private topicsReady = false;

  private wakeRequested = false;
  private waiter: { resolve: () => void; onNotify: boolean } | null = null;

  private readonly listener: OutboxListener | null;

  private publishedTotal = 0;
  private consecutiveFailures = 0;
  private failingSince: number | null = null;
  private lastError: { message: string; at: string } | null = null;
  private lastPublishedAt: string | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly kafka: KafkaClient,
    private readonly config: AppConfig,
    @Optional() @Inject(OUTBOX_RELAY_OPTIONS) private readonly options: OutboxRelayOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.maxRequestBytes = options.maxRequestBytes ?? 512 * 1024;
    this.pollMs = options.pollMs ?? config.outboxPollMs;
    this.lingerMs = options.lingerMs ?? config.outboxLingerMs;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.listener =
      (options.listen ?? true)
        ? new OutboxListener({ databaseUrl: config.database.url, backoff: this.backoff, pollMs: this.pollMs, onNotify: () => this.wake() })
        : null;
  }

  get running(): boolean {
    return this.loop !== null;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.options.autoStart) await this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** Starts the loop (idempotent). Does not wait for Kafka: an unreachable broker is retried. */
  async start(): Promise<void> {
    if (this.loop) return;
    this.stopping = false;
    await this.listener?.start();
    this.loop = this.run().catch((error: unknown) => {
      // Unreachable by design (run() catches everything); kept so a bug cannot go unnoticed.
      this.logger.error(`outbox relay loop ended unexpectedly: ${errorMessage(error)}`);
    });
    this.logger.log(`outbox relay started (batch ${this.batchSize}, poll ${this.pollMs} ms)`);
  }

  /** Lets the batch in progress finish, then closes the producer and the LISTEN connection. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.resolveWaiter(true);
    const loop = this.loop;
    if (loop) {
      await loop;
      this.loop = null;
    }
    await this.listener?.close();
    await this.resetProducer();
    if (loop) this.logger.log('outbox relay stopped');
  }

  /** Wakes the loop now (as a notification would). */
  wake(): void {
    this.wakeRequested = true;
    this.resolveWaiter(false);
  }

  async snapshot(): Promise<OutboxRelaySnapshot> {
    let pending: number | null = null;
    try {
      pending = (await this.dataSource.query(PENDING_SQL))[0].n;
    } catch {
      pending = null;
    }
    return {
      running: this.running,
      publishedTotal: this.publishedTotal,
      pending,
      failing: this.failingSince !== null,
      consecutiveFailures: this.consecutiveFailures,
      lastError: this.lastError,
      lastPublishedAt: this.lastPublishedAt,
      listening: this.listener?.listening ?? false,
    };
  }

  /**
   * Publishes at most one batch. Returns how many rows it claimed (0 = nothing to do).
   * Throws when the batch could not be published (the transaction is rolled back).
   */
  async publishBatch(): Promise<{ claimed: number; published: number }> {
    const runner = this.dataSource.createQueryRunner() as unknown as ReleasableQueryRunner;
    let claimLocked = false;
    let attempted: string[] = [];
    let broken: unknown = undefined;
    try {
      await runner.connect();
      await runner.query('SELECT pg_advisory_lock($1)', [OUTBOX_CLAIM_LOCK_KEY]);
      claimLocked = true;
      await runner.startTransaction();
      const claimed: OutboxRow[] = await runner.query(CLAIM_SQL, [this.batchSize]);
      await runner.query('SELECT pg_advisory_unlock($1)', [OUTBOX_CLAIM_LOCK_KEY]);
      claimLocked = false;
      const publishable = await this.withoutBlockedKeys(runner, claimed);
      if (publishable.length > 0) {
        attempted = publishable.map((row) => row.id);
        await this.send(publishable);
        await runner.query(MARK_PUBLISHED_SQL, [attempted]);
      }
      await runner.commitTransaction();
      if (publishable.length > 0) {
        this.publishedTotal += publishable.length;
        this.lastPublishedAt = new Date().toISOString();
      }
      return { claimed: claimed.length, published: publishable.length };
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      if (claimLocked) {
        // Session-level lock: never hand a connection that may still hold it back to the pool.
        await runner.query('SELECT pg_advisory_unlock($1)', [OUTBOX_CLAIM_LOCK_KEY]).catch((unlockError: unknown) => (broken = unlockError));
      }
      if (attempted.length > 0) await this.dataSource.query(BUMP_ATTEMPTS_SQL, [attempted]).catch(() => undefined);
      throw error;
    } finally {
      if (broken !== undefined) await runner.releasePostgresConnection(broken instanceof Error ? broken : new Error(String(broken))).catch(() => undefined);
      else await runner.release().catch(() => undefined);
    }
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      this.wakeRequested = false;
      let fullBatch = false;
      try {
        const { claimed, published } = await this.publishBatch();
        this.recovered();
        if (published < claimed) {
          // Some rows wait behind another relay's batch of the same key: look again shortly.
          await this.sleep(Math.min(this.pollMs, BLOCKED_RETRY_MS), true);
          continue;
        }
        // A full batch: more rows are probably waiting.
        fullBatch = claimed >= this.batchSize;
      } catch (error) {
        await this.failed(error);
        await this.sleep(computeBackoff(this.consecutiveFailures, this.backoff), false);
        continue;
      }
      if (fullBatch) continue;
      await this.sleep(this.pollMs, true);
      // Woken by a commit: the commits of the next moments go in the same batch (one claim, one
      // produce request, one fetch of each consumer group for all of them, instead of one each).
      if (this.wakeRequested && this.lingerMs > 0) await this.sleep(this.lingerMs, false);
    }
  }

  private async withoutBlockedKeys(runner: QueryRunner, rows: OutboxRow[]): Promise<OutboxRow[]> {
    if (rows.length === 0) return rows;
    const keys = [...new Set(rows.map((row) => row.message_key))];
    const blocking: Array<{ message_key: string; seq: string }> = await runner.query(BLOCKING_SQL, [
      keys,
      rows[rows.length - 1].seq,
      rows.map((row) => row.id),
    ]);
    if (blocking.length === 0) return rows;
    const firstForeign = new Map(blocking.map((b) => [b.message_key, BigInt(b.seq)]));
    return rows.filter((row) => {
      const foreign = firstForeign.get(row.message_key);
      return foreign === undefined || BigInt(row.seq) < foreign;
    });
  }

  private async send(rows: OutboxRow[]): Promise<void> {
    const producer = await this.connectedProducer();
    // Sequential, awaited requests: with one request in flight, order within a partition holds.
    for (const topicMessages of produceRequestsOf(rows, this.maxRequestBytes)) {
      await producer.sendBatch({ topicMessages, acks: -1 });
    }
  }

  private async connectedProducer(): Promise<Producer> {
    if (!this.topicsReady) {
      await this.kafka.ensureTopics();
      this.topicsReady = true;
    }
    if (this.producer) return this.producer;
    const producer = this.kafka.createIdempotentProducer();
    try {
      await producer.connect();
    } catch (error) {
      await producer.disconnect().catch(() => undefined);
      throw error;
    }
    this.producer = producer;
    return producer;
  }

  private async resetProducer(): Promise<void> {
    const producer = this.producer;
    this.producer = null;
    if (producer) await producer.disconnect().catch(() => undefined);
  }

  private recovered(): void {
    if (this.failingSince !== null) {
      const seconds = ((Date.now() - this.failingSince) / 1000).toFixed(1);
      this.logger.log(`outbox relay recovered: publishing again after ${this.consecutiveFailures} failed attempts (${seconds} s)`);
    }
    this.failingSince = null;
    this.consecutiveFailures = 0;
  }

  /** Records a failed attempt; warns once per outage, not once per attempt or row. */
  private async failed(error: unknown): Promise<void> {
    this.consecutiveFailures += 1;
    this.lastError = { message: errorMessage(error), at: new Date().toISOString() };
    if (this.failingSince === null) {
      this.failingSince = Date.now();
      this.logger.warn(`outbox relay cannot publish, retrying with backoff until it can: ${this.lastError.message}`);
    } else {
      this.logger.debug(`outbox relay attempt ${this.consecutiveFailures} failed: ${this.lastError.message}`);
    }
    if (hasErrorType(error, PRODUCER_STATE_ERRORS) || this.consecutiveFailures % PRODUCER_RESET_EVERY === 0) {
      await this.resetProducer();
    }
    if (hasErrorType(error, MISSING_TOPIC_ERRORS)) this.topicsReady = false;
  }

  /** Waits `ms`; returns early on stop, and on a notification when `onNotify`. */
  private sleep(ms: number, onNotify: boolean): Promise<void> {
    if (this.stopping || (onNotify && this.wakeRequested)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      const waiter = { resolve: done, onNotify };
      this.waiter = waiter;
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
    }).finally(() => {
      this.waiter = null;
    });
  }

  private resolveWaiter(stopping: boolean): void {
    if (this.waiter && (stopping || this.waiter.onNotify)) this.waiter.resolve();
  }
}
