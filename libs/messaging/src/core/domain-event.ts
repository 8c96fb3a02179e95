import { randomUUID } from 'node:crypto';

export const DOMAIN_EVENT_VERSION = 1;

export interface DomainEventTarget {
  type: string;
  id: number | string | null;
  iid?: number | null;
  title?: string | null;
}

/**
 * The versioned envelope of every message on the domain event stream (JSON, key = project id).
 * Its types and their `data` are declared in the catalogue (`catalogue/`); documented in
 * `docs/events.md` and `docs/domain-event.schema.json` (both generated from it).
 */
export interface DomainEvent<TData extends Record<string, unknown> = Record<string, unknown>> {
  id: string;
  type: string;
  version: number;
  occurred_at: string;
  actor: number | null;
  project_id: number | null;
  group_id: number | null;
  target: DomainEventTarget | null;
  data: TData;
}

/**
 * What becomes an envelope, unchecked: any type, any `data`. Producers write the checked
 * `NewDomainEvent<T>` of the catalogue (`OutboxService.append` takes nothing else); this is the
 * envelope builder's input, and the shape of events of types the catalogue does not know (tests).
 */
export interface UncheckedNewDomainEvent {
  type: string;
  actor?: number | null;
  projectId?: number | null;
  groupId?: number | null;
  target?: DomainEventTarget | null;
  data?: object;
  occurredAt?: Date;
}

export function buildDomainEvent(event: UncheckedNewDomainEvent): DomainEvent {
  return {
    id: randomUUID(),
    type: event.type,
    version: DOMAIN_EVENT_VERSION,
    occurred_at: (event.occurredAt ?? new Date()).toISOString(),
    actor: event.actor ?? null,
    project_id: event.projectId ?? null,
    group_id: event.groupId ?? null,
    target: event.target ?? null,
    data: (event.data ?? {}) as Record<string, unknown>,
  };
}

/** Kafka message key: the project id keeps one project's events ordered; instance events share key "0". */
export const messageKeyOf = (event: DomainEvent): string => String(event.project_id ?? 0);
