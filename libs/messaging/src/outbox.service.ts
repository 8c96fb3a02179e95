import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { PreparedStatement, queryPrepared } from '@app/database';
import { EntityManager } from 'typeorm';
import type { DomainEventType, NewDomainEvent } from './catalogue/domain-event-catalogue';
import { DomainEvent } from './core/domain-event';
import { currentOutboxContext, OutboxRecord, outboxRecordsOf } from './outbox-rows';
import { prefixed, TOPICS } from './core/topics.constants';

/**
 * LISTEN/NOTIFY channel that wakes the outbox relay. A notification sent inside a transaction is
 * delivered at commit (and dropped on rollback), so the relay wakes exactly when rows become visible.
 */
export const OUTBOX_NOTIFY_CHANNEL = 'outbox_events';

const APPEND_STATEMENT: PreparedStatement = {
  name: 'outbox_append_v1',
  text: `WITH inserted AS (
           INSERT INTO outbox_events (id, topic, message_key, payload, headers)
           SELECT r.id, r.topic, r.message_key, r.payload, r.headers
             FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (id uuid, topic varchar, message_key varchar, payload jsonb, headers jsonb)) WITH ORDINALITY AS r(id, topic, message_key, payload, headers, ord)
            ORDER BY r.ord
           RETURNING 1)
         SELECT pg_notify($2, '') FROM (SELECT count(*) FROM inserted) AS written`,
};

const isList = <T>(events: T | readonly T[]): events is readonly T[] => Array.isArray(events);

/** Writes domain events into the outbox inside the caller's transaction. */
@Injectable()
export class OutboxService {
  /** The records appended on a manager inside `collect`, written at its end. */
  private readonly collecting = new WeakMap<EntityManager, OutboxRecord[]>();

  constructor(private readonly config: AppConfig) {}

  get topic(): string {
    return prefixed(this.config.kafka.topicPrefix, TOPICS.DOMAIN_EVENTS);
  }

  /**
   * Appends events in the caller's transaction. Each is of a catalogued type with the `data` its
   * catalogue entry declares (`NewDomainEvent<T>`): a type or a shape the catalogue does not
   * have does not compile.
   */
  async append<T extends DomainEventType>(
    manager: EntityManager,
    events: NewDomainEvent<T> | readonly NewDomainEvent<T>[],
    headers: Record<string, string> = {},
  ): Promise<DomainEvent[]> {
    // Each event is one of the catalogue's (`T` is a union of its types): the rows take any.
    const list = (isList(events) ? events : [events]) as readonly NewDomainEvent[];
    if (list.length === 0) return [];
    const records = outboxRecordsOf(list, this.topic, currentOutboxContext(), headers);
    const collected = this.collecting.get(manager);
    if (collected) collected.push(...records);
    else await this.write(manager, records);
    return records.map((row) => row.payload);
  }

  /**
   * Runs `work` with the events appended on `manager` meanwhile written together, in one
   * statement at its end (in the order appended): for a transaction that many items share.
   */
  async collect<T>(manager: EntityManager, work: () => Promise<T>): Promise<T> {
    if (this.collecting.has(manager)) return work();
    const records: OutboxRecord[] = [];
    this.collecting.set(manager, records);
    try {
      const result = await work();
      if (records.length > 0) await this.write(manager, records);
      return result;
    } finally {
      this.collecting.delete(manager);
    }
  }

  private async write(manager: EntityManager, records: readonly OutboxRecord[]): Promise<void> {
    // One round trip: the rows (in the order given: `seq` follows it) and the relay's wake-up.
    await queryPrepared(manager, APPEND_STATEMENT, [
      JSON.stringify(records.map((row) => ({ id: row.id, topic: row.topic, message_key: row.message_key, payload: row.payload, headers: row.headers }))),
      OUTBOX_NOTIFY_CHANNEL,
    ]);
  }
}
