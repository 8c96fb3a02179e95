import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
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
  requestBody: string;
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
const MAX_PARALLEL_INSERTS = 4;

/** PostgreSQL text cannot hold NUL; receivers' answers may. */
const clean = (text: string | null): string | null => (text === null ? null : text.replace(/\u0000/g, ''));

/**
 * The delivery log (`system_hook_deliveries`). Rows written by concurrent deliveries are
 * grouped into multi-row INSERTs (group commit, a few in parallel): `record()` resolves once its
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
    return this.recordMany([row]);
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

  /** Starts INSERTs for the pending rows, at most `MAX_PARALLEL_INSERTS` at once; the rest wait for a free slot. */
  private flush(): void {
    while (this.pending.length > 0 && this.inFlight.size < MAX_PARALLEL_INSERTS) {
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

  private async insert(rows: NewHookDelivery[]): Promise<void> {
    const params: unknown[] = [];
    const tuples = rows.map((row) => {
      const values = [
        row.hookId,
        row.eventId,
        row.trigger.slice(0, 255),
        row.url.slice(0, 2048),
        JSON.stringify(row.requestHeaders),
        clean(row.requestBody),
        row.responseStatus,
        row.responseHeaders === null ? null : JSON.stringify(row.responseHeaders),
        clean(row.responseBody),
        row.status,
        clean(row.error),
        Math.min(row.durationMs, 2_147_483_647),
        row.idempotencyKey,
        row.webhookUuid,
        row.attempt,
        row.eventOccurredAt,
      ];
      const placeholders = values.map((value) => {
        params.push(value);
        return `$${params.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    await this.dataSource.query(`INSERT INTO system_hook_deliveries (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, params);
  }

  /** The hook's log, newest first, optionally of one outcome class (for `paginateOffset`). */
  query(hookId: number, status?: HookDeliveryStatus): SelectQueryBuilder<HookDeliveryEntity> {
    const qb = this.dataSource.getRepository(HookDeliveryEntity).createQueryBuilder('d').where('d.hookId = :hookId', { hookId }).orderBy('d.id', 'DESC');
    if (status) qb.andWhere('d.status = :status', { status });
    return qb;
  }

  find(hookId: number, id: string): Promise<HookDeliveryEntity | null> {
    return this.dataSource.getRepository(HookDeliveryEntity).findOneBy({ hookId, id });
  }

  /** Removes the rows older than `olderThanDays`, in slices (no long lock). Returns how many. */
  async prune(olderThanDays: number, now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - olderThanDays * 86_400_000);
    let removed = 0;
    for (;;) {
      const result: [unknown[], number] = await this.dataSource.query(
        `DELETE FROM system_hook_deliveries WHERE id IN (SELECT id FROM system_hook_deliveries WHERE created_at < $1 LIMIT 10000)`,
        [cutoff],
      );
      const count = Array.isArray(result) ? Number(result[1] ?? 0) : 0;
      removed += count;
      if (count < 10_000) return removed;
    }
  }
}
