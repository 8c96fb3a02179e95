import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { currentRequestId } from '@app/observability';
import { EntityManager } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { buildDomainEvent, DomainEvent, messageKeyOf, NewDomainEvent } from './domain-event';
import { OutboxEventEntity } from './outbox-event.entity';
import { prefixed, TOPICS } from './topics.constants';

/**
 * LISTEN/NOTIFY channel that wakes the outbox relay. A notification sent inside a transaction is
 * delivered at commit (and dropped on rollback), so the relay wakes exactly when rows become visible.
 */
export const OUTBOX_NOTIFY_CHANNEL = 'outbox_events';

const envelopeExtras = new AsyncLocalStorage<Record<string, unknown>>();

/**
 * Runs `fn` so that every event it appends carries `extras` as additional top-level envelope
 * fields (the envelope's own fields always win). Used for `hook_chain`: the loop protection of
 * system hooks, set while serving a request made by a hook receiver.
 */
export const runWithEnvelopeExtras = <T>(extras: Record<string, unknown>, fn: () => T): T => envelopeExtras.run(extras, fn);

/** Writes domain events into the outbox inside the caller's transaction. */
@Injectable()
export class OutboxService {
  constructor(private readonly config: AppConfig) {}

  get topic(): string {
    return prefixed(this.config.kafka.topicPrefix, TOPICS.DOMAIN_EVENTS);
  }

  async append(manager: EntityManager, events: NewDomainEvent | NewDomainEvent[], headers: Record<string, string> = {}): Promise<DomainEvent[]> {
    const extras = envelopeExtras.getStore();
    const built = (Array.isArray(events) ? events : [events]).map((e) => (extras ? ({ ...extras, ...buildDomainEvent(e) } as DomainEvent) : buildDomainEvent(e)));
    if (built.length === 0) return built;
    const requestId = currentRequestId();
    if (requestId && headers['x-request-id'] === undefined) headers = { ...headers, 'x-request-id': requestId };
    await manager.insert(
      OutboxEventEntity,
      built.map((event) => ({
        id: event.id,
        topic: this.topic,
        messageKey: messageKeyOf(event),
        payload: event as unknown as Record<string, unknown>,
        headers,
      })) as QueryDeepPartialEntity<OutboxEventEntity>[],
    );
    await manager.query('SELECT pg_notify($1, $2)', [OUTBOX_NOTIFY_CHANNEL, '']);
    return built;
  }
}
