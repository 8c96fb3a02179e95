import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildDomainEvent } from '../core/domain-event';
import { validateDomainEvent } from './domain-event.validator';
import {
  assertNever,
  type CataloguedEvent,
  DOMAIN_EVENT_CATALOGUE,
  DOMAIN_EVENT_TYPES,
  type DomainEventData,
  type DomainEventType,
  EVENT_CATALOGUE_PARTS,
  eventTypeSet,
  isCataloguedEvent,
} from './domain-event-catalogue';
import { EVENT_DOCS, renderDomainEventSchema, withEventCatalogue } from './event-catalogue.docs';

const root = join(__dirname, '..', '..', '..', '..');

describe('domain event catalogue', () => {
  it('declares every type once, each a valid envelope type', () => {
    const all = Object.values(EVENT_CATALOGUE_PARTS).flatMap((part) => Object.keys(part));
    expect(new Set(all).size).toBe(all.length);
    expect(DOMAIN_EVENT_TYPES).toEqual(all);
    for (const type of all) expect(validateDomainEvent(buildDomainEvent({ type })).valid).toBe(true);
  });

  it('tells catalogued events from unknown ones', () => {
    expect(isCataloguedEvent(buildDomainEvent({ type: 'issue.closed' }))).toBe(true);
    expect(isCataloguedEvent(buildDomainEvent({ type: 'issue.clossed' }))).toBe(false);
  });

  it('narrows events by an explicit type set', () => {
    const sut = eventTypeSet(['push', 'tag_push']);
    expect(sut.has('push')).toBe(true);
    expect(sut.matches({ type: 'repository_update' })).toBe(false);
  });

  it('has the committed docs/events.md list and docs/domain-event.schema.json it generates (run `npm run events:docs`)', () => {
    const markdown = readFileSync(join(root, EVENT_DOCS.markdown), 'utf8');
    expect(withEventCatalogue(markdown)).toBe(markdown);
    expect(readFileSync(join(root, EVENT_DOCS.schema), 'utf8')).toBe(renderDomainEventSchema());
  });

  it('generates a schema that accepts what producers write and rejects a wrong data type', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(renderDomainEventSchema()));
    const data: DomainEventData<'badge.created'> = { badge_id: 1, kind: 'project', name: 'b', link_url: 'http://l', image_url: 'http://i' };
    const event = buildDomainEvent({ type: 'badge.created', projectId: 3, target: { type: 'badge', id: 1, title: 'b' }, data });
    expect(validate(event)).toBe(true);
    expect(validate({ ...event, hook_chain: { id: '0b6f1f9e-2f8e-4a56-9a0e-6c4a3c7d3b1e', depth: 2 } })).toBe(true);
    expect(validate({ ...event, data: { ...data, badge_id: 'one' } })).toBe(false);
    // Types the service does not know are accepted (other services may publish them).
    expect(validate(buildDomainEvent({ type: 'deployment.created', data: { anything: 1 } }))).toBe(true);
    expect(Object.keys(DOMAIN_EVENT_CATALOGUE)).toContain('badge.created');
  });

  it('makes a switch exhaustive at compile time (npm run typecheck checks the expected errors)', () => {
    const kind = (event: CataloguedEvent): string => {
      switch (event.type) {
        case 'push':
          return 'push';
        default:
          // @ts-expect-error: the other catalogued types are not handled
          return assertNever(event);
      }
    };
    // @ts-expect-error: a misspelt type is not a catalogued type
    const typo: DomainEventType = 'isue.closed';
    expect(kind(buildDomainEvent({ type: 'push' }) as CataloguedEvent)).toBe('push');
    expect(() => kind(buildDomainEvent({ type: 'tag_push' }) as CataloguedEvent)).toThrow('unhandled');
    expect(typo).toBe('isue.closed');
  });
});
