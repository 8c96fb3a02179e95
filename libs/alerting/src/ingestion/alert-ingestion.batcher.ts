import { performance } from 'node:perf_hooks';
import { BeforeApplicationShutdown, Injectable, Logger, Optional } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { isConnectionLost, isRetryableTransactionError, uniqueViolation } from '@app/database';
import { OUTBOX_NOTIFY_CHANNEL, OutboxService } from '@app/messaging';
import { AlertingMetrics, type AlertIngestStage } from '../core/alerting.metrics';
import type { IngestOutcome } from '../core/alerts.repository';
import { openAlertKey, planAlertBatch } from './alert-batch-plan';
import { type AlertBatchEntry, batchOutcomes, buildAlertBatchRows } from './alert-batch-rows';
import { AlertBatchRepository, BatchConnection, missingPreparedStatement } from './alert-batch.repository';

export type { AlertBatchEntry } from './alert-batch-rows';

/** One request's payloads: written in the same transaction, answered together. */
interface Waiter {
  entries: AlertBatchEntry[];
  bytes: number;
  /** `performance.now()` at submission. */
  submittedAt: number;
  resolve: (outcomes: IngestOutcome[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Most payload bytes in one batch (a batch's statement carries its payloads): a flood of large
 * payloads makes smaller batches, never one huge statement. A single payload may exceed it.
 */
export const ALERT_BATCH_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Attempts of one batch when PostgreSQL aborts it (deadlock, serialization), an open alert
 * appears under it, its connection lost the prepared statements, or its connection was cut
 * before its COMMIT was sent.
 */
const BATCH_ATTEMPTS = 5;

/**
 * The batch's connection was cut (a PostgreSQL restart or failover terminated its backend)
 * before its COMMIT was sent: nothing of it was written, it runs again on another connection.
 * A cut once the COMMIT is sent leaves the outcome unknown: that batch fails (its requests get
 * an error and are not acknowledged), it is never run twice.
 */
class ConnectionLostBeforeCommit extends Error {
  constructor(override readonly cause: unknown) {
    super(`connection lost before commit: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

/** Errors of one payload's data, not of the database: the batch is retried payload by payload. */
const isPayloadError = (error: unknown): boolean => {
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = typeof e.code === 'string' ? e.code : typeof e.driverError?.code === 'string' ? e.driverError.code : '';
  // SQLSTATE classes 22 (data exception) and 23 (integrity constraint violation).
  return code.startsWith('22') || code.startsWith('23');
};

/**
 * Group commit of alert ingestion. Concurrent requests enqueue their normalized payload and
 * wait; the waiting payloads (up to `ALERT_INGEST_MAX_BATCH`) are written as ONE transaction in
 * two round trips (`AlertBatchRepository`): lock the open alerts of the batch's fingerprints;
 * apply the payloads in arrival order in memory (`planAlertBatch`, new alerts numbered 1, 2, …
 * per project); then lock and advance the projects' iid counters, insert the new alerts (iids
 * after the counter's value), write back the changed ones and the unmatched recoveries, insert
 * the system notes and the outbox rows, and COMMIT. Every waiter is answered only after COMMIT,
 * so an acknowledged payload is durable. The counter lock (which serializes the batches that
 * create alerts in a project, for gap-free iids) is taken in the last round trip only: the
 * next batch's lock-and-read runs while the previous one commits, and batches that only
 * repeat or resolve alerts never wait for it. Two batches in flight may then both create an
 * alert for the same fingerprint: the open-fingerprint unique index refuses the second, which
 * is run again taking the counter locks before its read (as every batch did before), so it
 * cannot meet that conflict again.
 *
 * No timer delays a lone request: a batch starts on the next turn of the event loop, and the
 * requests that arrive while batches are written (at most `ALERT_INGEST_IN_FLIGHT` at a time)
 * form the next one, so batches grow with the load. A batch that PostgreSQL aborts (deadlock,
 * serialization) or that meets an open alert created under it (a user re-opened one) is
 * re-run; one that fails on a payload's data is re-run payload by payload, so one bad payload
 * fails alone.
 */
@Injectable()
export class AlertIngestionBatcher implements BeforeApplicationShutdown {
  private readonly logger = new Logger(AlertIngestionBatcher.name);
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private pending: Waiter[] = [];
  private scheduled = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly batches: AlertBatchRepository,
    private readonly outbox: OutboxService,
    config: AppConfig,
    @Optional() private readonly metrics?: AlertingMetrics,
  ) {
    this.maxBatch = Math.max(1, config.alerting.ingestMaxBatch);
    this.maxInFlight = Math.max(1, config.alerting.ingestInFlight);
  }

  /** Resolves once the payload is committed, with what it did. */
  async submit(entry: AlertBatchEntry): Promise<IngestOutcome> {
    const [outcome] = await this.submitAll([entry]);
    return outcome;
  }

  /**
   * Several payloads of one request (the alerts of a webhook), applied in order and committed in
   * the same transaction (never split between batches); resolves with what each did. A batch
   * may hold more than `ALERT_INGEST_MAX_BATCH` payloads when one request brings more.
   */
  submitAll(entries: AlertBatchEntry[]): Promise<IngestOutcome[]> {
    if (entries.length === 0) return Promise.resolve([]);
    const bytes = entries.reduce((sum, e) => sum + e.bytes, 0);
    return new Promise<IngestOutcome[]>((resolve, reject) => {
      this.pending.push({ entries, bytes, submittedAt: performance.now(), resolve, reject });
      this.schedule();
    });
  }

  /** Lets the batches in flight commit before the database connections close. */
  async beforeApplicationShutdown(): Promise<void> {
    while (this.inFlight.size > 0 || this.pending.length > 0) {
      this.schedule();
      await Promise.all([...this.inFlight, new Promise((r) => setImmediate(r))]);
    }
  }

  /** A batch starts on the next turn of the event loop, if fewer than the maximum are being written. */
  private schedule(): void {
    if (this.scheduled || this.pending.length === 0 || this.inFlight.size >= this.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.pending.length > 0 && this.inFlight.size < this.maxInFlight) {
        const batch = this.pending.splice(0, this.batchLength());
        const flushing: Promise<void> = this.flush(batch).finally(() => {
          this.inFlight.delete(flushing);
          this.schedule();
        });
        this.inFlight.add(flushing);
      }
    });
  }

  /** How many waiting requests the next batch takes: at most `maxBatch` payloads, and `ALERT_BATCH_MAX_BYTES` (at least one request). */
  private batchLength(): number {
    let bytes = 0;
    let payloads = 0;
    let length = 0;
    while (length < this.pending.length) {
      const waiter = this.pending[length];
      bytes += waiter.bytes;
      payloads += waiter.entries.length;
      if (length > 0 && (bytes > ALERT_BATCH_MAX_BYTES || payloads > this.maxBatch)) break;
      length += 1;
    }
    return length;
  }

  private observe(stage: AlertIngestStage, since: number): number {
    const now = performance.now();
    this.metrics?.ingestStageSeconds.observe({ stage }, (now - since) / 1000);
    return now;
  }

  private async flush(batch: Waiter[]): Promise<void> {
    const startedAt = performance.now();
    if (this.metrics) {
      let payloads = 0;
      for (const waiter of batch) {
        payloads += waiter.entries.length;
        this.metrics.ingestStageSeconds.observe({ stage: 'queued' }, (startedAt - waiter.submittedAt) / 1000);
      }
      this.metrics.ingestBatchPayloads.observe(payloads);
      this.metrics.ingestBatchesInFlight.observe(this.inFlight.size + 1);
    }
    try {
      await this.answer(batch);
    } finally {
      if (this.metrics) for (let i = 0; i < batch.length; i++) this.observe('batch', startedAt);
    }
  }

  private async answer(batch: Waiter[]): Promise<void> {
    try {
      const outcomes = await this.ingestWithRetries(batch.flatMap((w) => w.entries));
      let next = 0;
      for (const waiter of batch) {
        waiter.resolve(outcomes.slice(next, next + waiter.entries.length));
        next += waiter.entries.length;
      }
      return;
    } catch (error) {
      if (batch.length === 1 || !isPayloadError(error)) {
        for (const waiter of batch) waiter.reject(error);
        return;
      }
      this.logger.warn(`a batch of ${batch.length} alert requests failed (${(error as Error).message}): retrying them one by one`);
    }
    for (const waiter of batch) {
      try {
        waiter.resolve(await this.ingestWithRetries(waiter.entries));
      } catch (error) {
        waiter.reject(error);
      }
    }
  }

  private async ingestWithRetries(entries: AlertBatchEntry[]): Promise<IngestOutcome[]> {
    let lockCountersFirst = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.ingest(entries, lockCountersFirst);
      } catch (error) {
        const openAlertCreated = uniqueViolation(error) === 'alerts_open_fingerprint_key';
        const reason = openAlertCreated
          ? 'open_alert_created'
          : isRetryableTransactionError(error)
            ? 'transaction'
            : missingPreparedStatement(error)
              ? 'prepared_statement'
              : error instanceof ConnectionLostBeforeCommit
                ? 'connection'
                : null;
        if (reason === null || attempt >= BATCH_ATTEMPTS) throw error instanceof ConnectionLostBeforeCommit ? error.cause : error;
        this.metrics?.ingestBatchRetries.inc({ reason });
        if (openAlertCreated) {
          // Run again under the counter locks: it then sees every open alert.
          lockCountersFirst = true;
          continue;
        }
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 5 * attempt) + 1));
      }
    }
  }

  /** One batch, one transaction, two round trips. */
  private async ingest(entries: AlertBatchEntry[], lockCountersFirst: boolean): Promise<IngestOutcome[]> {
    const startedAt = performance.now();
    let taken: Awaited<ReturnType<AlertBatchRepository['connect']>>;
    try {
      taken = await this.batches.connect();
    } catch (error) {
      throw isConnectionLost(error) ? new ConnectionLostBeforeCommit(error) : error;
    }
    const [connection, release] = taken;
    this.observe('connect', startedAt);
    let broken: unknown;
    const progress = { committing: false };
    try {
      return await this.ingestOn(connection, entries, lockCountersFirst, progress);
    } catch (error) {
      if (isConnectionLost(error)) {
        broken = error;
        throw progress.committing ? error : new ConnectionLostBeforeCommit(error);
      }
      try {
        await this.batches.rollback(connection);
      } catch (rollbackError) {
        broken = rollbackError;
      }
      throw error;
    } finally {
      release(broken);
    }
  }

  private async ingestOn(
    connection: BatchConnection,
    entries: AlertBatchEntry[],
    lockCountersFirst: boolean,
    progress: { committing: boolean },
  ): Promise<IngestOutcome[]> {
    const inputs = entries.map((e) => e.input);
    const keys = new Map<string, { projectId: number; fingerprint: string }>();
    for (const input of inputs) {
      if (input.alert.fingerprint !== null)
        keys.set(openAlertKey(input.projectId, input.alert.fingerprint), { projectId: input.projectId, fingerprint: input.alert.fingerprint });
    }
    // New alerts are numbered 1, 2, … per project here; the write adds the counter's value.
    const relativeIids = new Map(inputs.map((i) => [i.projectId, 0]));
    let at = performance.now();
    const creating = lockCountersFirst ? [...new Set(inputs.filter((i) => !i.alert.endedAt).map((i) => i.projectId))].sort((a, b) => a - b) : [];
    const open = await this.batches.begin(connection, [...keys.values()], creating);
    at = this.observe('lock', at);
    const plan = planAlertBatch(inputs, open, relativeIids);
    const rows = buildAlertBatchRows(entries, plan, this.outbox.topic);
    at = this.observe('plan', at);
    progress.committing = true;
    const recoveryIds = await this.batches.commit(connection, {
      created: plan.created,
      updated: plan.updated,
      createdPerProject: plan.lastIids,
      ...rows,
      outboxChannel: OUTBOX_NOTIFY_CHANNEL,
    });
    this.observe('write_commit', at);
    return batchOutcomes(plan, recoveryIds);
  }
}
