import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { EntityManager } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { DomainEvent, NewDomainEvent } from './domain-event';
import { OutboxEventEntity } from './outbox-event.entity';
import { currentOutboxContext, outboxRecordsOf } from './outbox-rows';
import { prefixed, TOPICS } from './topics.constants';

/**
 * LISTEN/NOTIFY channel that wakes the outbox relay. A notification sent inside a transaction is
 * delivered at commit (and dropped on rollback), so the relay wakes exactly when rows become visible.
 */
export const OUTBOX_NOTIFY_CHANNEL = 'outbox_events';

/** Writes domain events into the outbox inside the caller's transaction. */
@Injectable()
export class OutboxService {
  constructor(private readonly config: AppConfig) {}

  get topic(): string {
    return prefixed(this.config.kafka.topicPrefix, TOPICS.DOMAIN_EVENTS);
  }

  async append(manager: EntityManager, events: NewDomainEvent | NewDomainEvent[], headers: Record<string, string> = {}): Promise<DomainEvent[]> {
    const list = Array.isArray(events) ? events : [events];
    if (list.length === 0) return [];
    const records = outboxRecordsOf(list, this.topic, currentOutboxContext(), headers);
    await manager.insert(
      OutboxEventEntity,
      records.map((row) => ({
        id: row.id,
        topic: row.topic,
        messageKey: row.message_key,
        payload: row.payload as unknown as Record<string, unknown>,
        headers: row.headers,
      })) as QueryDeepPartialEntity<OutboxEventEntity>[],
    );
    await manager.query('SELECT pg_notify($1, $2)', [OUTBOX_NOTIFY_CHANNEL, '']);
    return records.map((row) => row.payload);
  }
}
