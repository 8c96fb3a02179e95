import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { takePoolConnection } from '@app/database';
import { from as copyFrom } from 'pg-copy-streams';
import type { PoolClient } from 'pg';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { HookDeliveryEntity, HookDeliveryStatus } from '../entities/hook-delivery.entity';

/** How long delivery log rows are kept. */
export const HOOK_LOG_RETENTION_DAYS = 14;

export interface NewHookDelivery {
  hookId: number;
  eventId: string | null;
  trigger: string;
  url: string;
  requestHeaders: Record<string, string>;
  /** Null when the body is the event's, stored once in `system_hook_events`. */
  requestBody: string | null;
  responseStatus: number | null;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  status: HookDeliveryStatus;
  error: string | null;
  durationMs: number;
  idempotencyKey: string;
  webhookUuid: string | null;
  attempt: number;
  eventOccurredAt: string | null;
}

/** The outcome class of an answered or failed attempt. */
export function deliveryStatusOf(status: number | null): HookDeliveryStatus {
  if (status !== null && status >= 200 && status < 300) return 'successful';
  if (status !== null && status >= 300 && status < 500) return 'client_failure';
  return 'server_failure';
}

const COLUMNS = [
  'hook_id',
  'event_id',
  'trigger',
  'url',
  'request_headers',
  'request_body',
  'response_status',
  'response_headers',
  'response_body',
  'status',
  'error',
  'duration_ms',
  'idempotency_key',
  'webhook_uuid',
  'attempt',
  'event_occurred_at',
] as const;
const MAX_BATCH = 500;
const MAX_PARALLEL_WRITES = 4;

const COPY_SQL = `COPY system_hook_deliveries (${COLUMNS.join(', ')}) FROM STDIN`;

/** Characters that COPY's text format escapes (NUL cannot be stored in text at all: dropped). */
const COPY_SPECIAL = /[\\\n\r\t\u0000]/g;
const HAS_COPY_SPECIAL = /[\\\n\r\t\u0000]/;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u0000': '' };

/** A field of COPY's text format: `\N` for NULL, else the text with backslash, newline, CR and tab escaped. */
export function copyField(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  // Most fields have nothing to escape: one test, no copy.
  return HAS_COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIAL, (c) => COPY_ESCAPES[c]) : value;
}

/** One row of `COPY_SQL`, newline-terminated (the fields in the order of `COLUMNS`). */
export function copyLine(row: NewHookDelivery): string {
  return (
    `${row.hookId}\t${copyField(row.eventId)}\t${copyField(row.trigger.slice(0, 255))}\t${copyField(row.url.slice(0, 2048))}\t` +
    `${copyField(JSON.stringify(row.requestHeaders))}\t${copyField(row.requestBody)}\t${copyField(row.responseStatus)}\t` +
    `${copyField(row.responseHeaders === null ? null : JSON.stringify(row.responseHeaders))}\t${copyField(row.responseBody)}\t${row.status}\t${copyField(row.error)}\t` +
    `${Math.min(row.durationMs, 2_147_483_647)}\t${copyField(row.idempotencyKey)}\t${copyField(row.webhookUuid)}\t${row.attempt}\t${copyField(row.eventOccurredAt)}\n`
  );
}

/**
 * The delivery log (`system_hook_deliveries`). Rows written by concurrent deliveries are
 * grouped into one COPY per batch (group commit, a few in parallel): `record()` resolves once its
 * row is stored. The rows still pending at shutdown are written before the database closes.
 */
@Injectable()
export class HookDeliveryLog implements BeforeApplicationShutdown {
  private readonly logger = new Logger(HookDeliveryLog.name);
  private pending: Array<{ row: NewHookDelivery; resolve: () => void; reject: (error: unknown) => void }> = [];
  private scheduled = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly dataSource: DataSource) {}

  record(row: NewHookDelivery): Promise<void> {
    const stored = new Promise<void>((resolve, reject) => this.pending.push({ row, resolve, reject }));
    this.schedule();
    return stored;
  }

  recordMany(rows: NewHookDelivery[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    const stored = Promise.all(rows.map((row) => new Promise<void>((resolve, reject) => this.pending.push({ row, resolve, reject }))));
    this.schedule();
    return stored.then(() => undefined);
  }

  /** After the delivery worker stopped (module destroy), before the database closes (application shutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    while (this.inFlight.size > 0 || this.pending.length > 0) {
      this.flush();
      await Promise.all([...this.inFlight]);
    }
  }

  /** Lets the deliveries finishing in the same tick join the batch, then flushes. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /** Starts writes of the pending rows, at most `MAX_PARALLEL_WRITES` at once; the rest wait for a free slot. */
  private flush(): void {
    while (this.pending.length > 0 && this.inFlight.size < MAX_PARALLEL_WRITES) {
      const batch = this.pending.splice(0, MAX_BATCH);
      const insert: Promise<void> = this.insert(batch.map((b) => b.row)).then(
        () => {
          for (const b of batch) b.resolve();
        },
        (error: unknown) => {
          this.logger.warn(`cannot write ${batch.length} delivery log rows: ${(error as Error).message}`);
          for (const b of batch) b.reject(error);
        },
      );
      this.inFlight.add(insert);
      void insert.finally(() => {
        this.inFlight.delete(insert);
        if (this.pending.length > 0) this.schedule();
      });
    }
  }

  /**
   * One `COPY ... FROM STDIN` per batch: PostgreSQL neither parses nor plans a statement of
   * thousands of parameters, and the rows travel as one text stream. A failed COPY leaves
   * nothing behind (it is one statement); its connection is discarded. A connection cut during
   * the COPY (a restart, a terminated backend) fails this batch's rows, never the process.
   */
  private async insert(rows: NewHookDelivery[]): Promise<void> {
    const text = rows.map(copyLine).join('');
    const [client, release] = await takePoolConnection<PoolClient>(this.dataSource);
    try {
      await new Promise<void>((resolve, reject) => {
        const copy = client.query(copyFrom(COPY_SQL));
        copy.on('finish', resolve);
        copy.on('error', reject);
        copy.end(text);
      });
      release();
    } catch (error) {
      release(error);
      throw error;
    }
  }

  /** The hook's log, newest first, optionally of one outcome class (for `paginateOffset`). */
  query(hookId: number, status?: HookDeliveryStatus): SelectQueryBuilder<HookDeliveryEntity> {
    const qb = this.dataSource
      .getRepository(HookDeliveryEntity)
      .createQueryBuilder('d')
      .leftJoin('d.event', 'e')
      .addSelect(['e.id', 'e.body'])
      .where('d.hookId = :hookId', { hookId })
      .orderBy('d.id', 'DESC');
    if (status) qb.andWhere('d.status = :status', { status });
    return qb;
  }

  /** One entry, with the event whose body it references. */
  find(hookId: number, id: string): Promise<HookDeliveryEntity | null> {
    return this.dataSource
      .getRepository(HookDeliveryEntity)
      .createQueryBuilder('d')
      .leftJoin('d.event', 'e')
      .addSelect(['e.id', 'e.body'])
      .where('d.hookId = :hookId AND d.id = :id', { hookId, id })
      .getOne();
  }

  /** The body an entry sent: its own, or its event's. */
  static bodyOf(entry: HookDeliveryEntity): string {
    return entry.requestBody ?? entry.event?.body ?? '';
  }

  /**
   * Removes the rows older than `olderThanDays`, in slices (no long lock), and the events whose
   * bodies they referenced (once delivered). Returns how many rows.
   */
  async prune(olderThanDays: number, now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - olderThanDays * 86_400_000);
    const removed = await this.deleteInSlices(`DELETE FROM system_hook_deliveries WHERE id IN (SELECT id FROM system_hook_deliveries WHERE created_at < $1 LIMIT 10000)`, cutoff);
    await this.deleteInSlices(
      `DELETE FROM system_hook_events WHERE id IN (SELECT e.id FROM system_hook_events e WHERE e.created_at < $1 AND e.fanned_out_at IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM system_hook_retries r WHERE r.event_id = e.id) LIMIT 10000)`,
      cutoff,
    );
    return removed;
  }

  private async deleteInSlices(sql: string, cutoff: Date): Promise<number> {
    let removed = 0;
    for (;;) {
      const result: [unknown[], number] = await this.dataSource.query(sql, [cutoff]);
      const count = Array.isArray(result) ? Number(result[1] ?? 0) : 0;
      removed += count;
      if (count < 10_000) return removed;
    }
  }
}
