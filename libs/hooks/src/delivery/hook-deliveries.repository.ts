import { Injectable } from '@nestjs/common';
import { takePoolConnection } from '@app/database';
import { from as copyFrom } from 'pg-copy-streams';
import type { PoolClient } from 'pg';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { HookDeliveryEntity, HookDeliveryStatus } from '../entities/hook-delivery.entity';
import { copyLine, DELIVERY_COLUMNS, NewHookDelivery } from './hook-delivery-rows';

const COPY_SQL = `COPY system_hook_deliveries (${DELIVERY_COLUMNS.join(', ')}) FROM STDIN`;

/** Reads and writes the delivery log (`system_hook_deliveries`); `HookDeliveryLog` batches its writes. */
@Injectable()
export class HookDeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores the rows with one `COPY ... FROM STDIN`: PostgreSQL neither parses nor plans a
   * statement of thousands of parameters, and the rows travel as one text stream. A failed COPY
   * leaves nothing behind (it is one statement); its connection is discarded. A connection cut
   * during the COPY (a restart, a terminated backend) fails this batch's rows, never the process.
   */
  async insertMany(rows: NewHookDelivery[]): Promise<void> {
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
  listQuery(hookId: number, status?: HookDeliveryStatus): SelectQueryBuilder<HookDeliveryEntity> {
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

  /** Removes the log of a hook being deleted, in its transaction. */
  async deleteOfHook(tx: EntityManager, hookId: number): Promise<void> {
    await tx.query('DELETE FROM system_hook_deliveries WHERE hook_id = $1', [hookId]);
  }

  /**
   * Removes the rows older than `olderThanDays`, in slices (no long lock), and the events whose
   * bodies they referenced (once delivered). Returns how many rows.
   */
  async prune(olderThanDays: number, now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - olderThanDays * 86_400_000);
    const removed = await this.deleteInSlices(
      `DELETE FROM system_hook_deliveries WHERE id IN (SELECT id FROM system_hook_deliveries WHERE created_at < $1 LIMIT 10000)`,
      cutoff,
    );
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
