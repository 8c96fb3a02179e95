import { Injectable } from '@nestjs/common';
import type { DomainEvent } from '@app/messaging';
import { EntityManager } from 'typeorm';

/** Idempotency of the alert engine: the ids of the events whose side effect committed. */
@Injectable()
export class ProcessedAlertEventsRepository {
  /**
   * Claims `event` in the caller's transaction. False when it was already processed; a
   * concurrent claim of the same id waits for the first transaction, then sees it.
   */
  async claim(manager: EntityManager, event: Pick<DomainEvent, 'id' | 'type'>): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO alert_engine_processed_events (event_id, event_type) VALUES ($1, $2) ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
      [event.id, event.type],
    );
    return rows.length === 1;
  }
}
