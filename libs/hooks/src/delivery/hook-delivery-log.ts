import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import type { HookDeliveryEntity } from '../entities/hook-delivery.entity';
import { HookDeliveriesRepository } from './hook-deliveries.repository';
import type { NewHookDelivery } from './hook-delivery-rows';

export { copyField, copyLine, deliveryStatusOf, HOOK_LOG_RETENTION_DAYS } from './hook-delivery-rows';
export type { NewHookDelivery } from './hook-delivery-rows';

const MAX_BATCH = 500;
const MAX_PARALLEL_WRITES = 4;

/**
 * The delivery log's writer. Rows written by concurrent deliveries are grouped into one COPY
 * per batch (`HookDeliveriesRepository.insertMany`; group commit, a few in parallel): `record()`
 * resolves once its row is stored. The rows still pending at shutdown are written before the database closes.
 */
@Injectable()
export class HookDeliveryLog implements BeforeApplicationShutdown {
  private readonly logger = new Logger(HookDeliveryLog.name);
  private pending: Array<{ row: NewHookDelivery; resolve: () => void; reject: (error: unknown) => void }> = [];
  private scheduled = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly deliveries: HookDeliveriesRepository) {}

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
      const insert: Promise<void> = this.deliveries.insertMany(batch.map((b) => b.row)).then(
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

  /** The body an entry sent: its own, or its event's. */
  static bodyOf(entry: HookDeliveryEntity): string {
    return entry.requestBody ?? entry.event?.body ?? '';
  }
}
