import type { Static } from '@sinclair/typebox';
import type { DomainEvent, UncheckedNewDomainEvent } from '../core/domain-event';
import { ALERTING_EVENT_PART } from './alerting.events';
import { APPROVALS_EVENT_PART } from './approvals.events';
import { BADGES_EVENT_PART } from './badges.events';
import { CI_EVENT_PART } from './ci.events';
import { CUSTOM_ATTRIBUTES_EVENT_PART } from './custom-attributes.events';
import type { EventDefinition, EventPart } from './event-part';
import { HOOKS_EVENT_PART } from './hooks.events';
import { IDENTITY_EVENT_PART } from './identity.events';
import { ISSUES_EVENT_PART } from './issues.events';
import { NAMESPACES_EVENT_PART } from './namespaces.events';
import { NOTES_EVENT_PART } from './notes.events';
import { OTHER_SERVICES_EVENT_PART } from './other-services.events';
import { PROJECT_TRANSFER_EVENT_PART } from './project-transfer.events';
import { REPOSITORY_EVENT_PART } from './repository.events';
import { SETTINGS_EVENT_PART } from './settings.events';
import { SNIPPETS_EVENT_PART } from './snippets.events';
import { VULNERABILITIES_EVENT_PART } from './vulnerabilities.events';

/**
 * THE catalogue of domain events: every event type on the stream, by the library that
 * publishes it (its part: `catalogue/<lib>.events.ts`). A new library's events are one line
 * here; then every consumer fails to compile until it handles or explicitly ignores them.
 * The docs (`docs/events.md`, `docs/domain-event.schema.json`) are generated from it
 * (`npm run events:docs`).
 */
export const EVENT_CATALOGUE_PARTS = {
  identity: IDENTITY_EVENT_PART,
  namespaces: NAMESPACES_EVENT_PART,
  issues: ISSUES_EVENT_PART,
  repository: REPOSITORY_EVENT_PART,
  alerting: ALERTING_EVENT_PART,
  hooks: HOOKS_EVENT_PART,
  badges: BADGES_EVENT_PART,
  ci: CI_EVENT_PART,
  settings: SETTINGS_EVENT_PART,
  'custom-attributes': CUSTOM_ATTRIBUTES_EVENT_PART,
  notes: NOTES_EVENT_PART,
  snippets: SNIPPETS_EVENT_PART,
  vulnerabilities: VULNERABILITIES_EVENT_PART,
  approvals: APPROVALS_EVENT_PART,
  'project-transfer': PROJECT_TRANSFER_EVENT_PART,
  'other services': OTHER_SERVICES_EVENT_PART,
} as const satisfies Record<string, EventPart>;

type Part = (typeof EVENT_CATALOGUE_PARTS)[keyof typeof EVENT_CATALOGUE_PARTS];
type KeysOf<T> = T extends unknown ? keyof T : never;
type DefinitionOf<TType, P = Part> = P extends unknown ? (TType extends keyof P ? P[TType] : never) : never;

/** Every event type of the catalogue (the wire strings). */
export type DomainEventType = KeysOf<Part> & string;

/** The `data` of events of `TType`, as its catalogue entry declares it. */
export type DomainEventData<TType extends DomainEventType> = DefinitionOf<TType> extends EventDefinition<infer S> ? Static<S> : never;

/**
 * A domain event of a catalogued type, its `data` typed by the catalogue (checked against its
 * schema by the consumer before any handler sees it). Without `TType`: the union of all,
 * discriminated by `type` (switch on it exhaustively).
 */
export type CataloguedEvent<TType extends DomainEventType = DomainEventType> = {
  [T in TType]: DomainEvent<DomainEventData<T> & Record<string, unknown>> & { type: T };
}[TType];

/**
 * An event to append to the outbox (`OutboxService.append`), of a catalogued type with the
 * `data` its catalogue entry declares: a producer cannot write a type or a shape the catalogue
 * does not have. Without `TType`: any catalogued event (a union discriminated by `type`).
 */
export type NewDomainEvent<TType extends DomainEventType = DomainEventType> = {
  [T in TType]: Omit<UncheckedNewDomainEvent, 'type' | 'data'> & { type: T; data: DomainEventData<T> };
}[TType];

/** Every entry of the catalogue, by type. */
export const DOMAIN_EVENT_CATALOGUE: Readonly<Record<DomainEventType, EventDefinition>> = (() => {
  const all: Record<string, EventDefinition> = {};
  for (const [lib, part] of Object.entries(EVENT_CATALOGUE_PARTS)) {
    for (const [type, definition] of Object.entries(part)) {
      if (all[type]) throw new Error(`event type ${type} of ${lib} is already in the catalogue`);
      all[type] = definition;
    }
  }
  return all as Record<DomainEventType, EventDefinition>;
})();

const TYPES: ReadonlySet<string> = new Set(Object.keys(DOMAIN_EVENT_CATALOGUE));

/** Every event type of the catalogue, in catalogue order. */
export const DOMAIN_EVENT_TYPES = [...TYPES] as readonly DomainEventType[];

export const isDomainEventType = (type: string): type is DomainEventType => TYPES.has(type);

/** Whether an event (from the stream: any type) is of a catalogued type; then `switch (event.type)` is exhaustive. */
export const isCataloguedEvent = (event: DomainEvent): event is CataloguedEvent => TYPES.has(event.type);

/** The types of one part (a consumer that ignores all of a library's events says so with these). */
export const typesOf = <TPart extends EventPart>(part: TPart): Array<keyof TPart & DomainEventType> =>
  Object.keys(part) as Array<keyof TPart & DomainEventType>;

/** `'ignored'` for every type of a part: in a consumer's exhaustive table, "none of this library's events". */
export const ignoring = <TPart extends EventPart>(part: TPart): { readonly [K in keyof TPart]: 'ignored' } =>
  Object.fromEntries(Object.keys(part).map((type) => [type, 'ignored'])) as { readonly [K in keyof TPart]: 'ignored' };

/** A set of event types a consumer names (e.g. those it ignores): `matches` narrows an event. */
export interface EventTypeSet<TType extends DomainEventType> {
  readonly types: readonly TType[];
  has(type: string): type is TType;
  matches<E extends { type: string }>(event: E): event is Extract<E, { type: TType }>;
}

export function eventTypeSet<const TType extends DomainEventType>(types: readonly TType[]): EventTypeSet<TType> {
  const set: ReadonlySet<string> = new Set(types);
  return {
    types,
    has: (type: string): type is TType => set.has(type),
    matches: <E extends { type: string }>(event: E): event is Extract<E, { type: TType }> => set.has(event.type),
  };
}

/** The `default` of an exhaustive switch: compiles only when every case is handled. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unhandled ${what}: ${JSON.stringify(value)}`);
}
