import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { DOMAIN_EVENT_VERSION } from '../core/domain-event';
import { TOPICS } from '../core/topics.constants';
import { DOMAIN_EVENT_CATALOGUE, EVENT_CATALOGUE_PARTS } from './domain-event-catalogue';

/** The generated files, relative to the repository root. */
export const EVENT_DOCS = { markdown: 'docs/events.md', schema: 'docs/domain-event.schema.json' } as const;

const START = '<!-- event-catalogue:start -->';
const NOTE = '<!-- generated from libs/messaging/src/catalogue by `npm run events:docs`: do not edit by hand -->';
const END = '<!-- event-catalogue:end -->';

/** TypeBox schemas carry symbol keys (dropped by JSON) and nothing else of their own: a plain JSON copy. */
const plain = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

const fieldsOf = (schema: TSchema): string => {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set<string>((schema.required as string[] | undefined) ?? []);
  return Object.keys(properties)
    .map((name) => (required.has(name) ? `\`${name}\`` : `\`${name}\`?`))
    .join(', ');
};

/** The event type list of `docs/events.md`: one table per library part of the catalogue. */
export function renderEventCatalogueMarkdown(): string {
  const sections = Object.entries(EVENT_CATALOGUE_PARTS).map(([lib, part]) => {
    const heading = lib === 'other services' ? '#### Published by other services (consumed here)' : `#### \`libs/${lib}\``;
    const rows = Object.entries(part).map(([type, definition]) => `| \`${type}\` | ${definition.description} | ${fieldsOf(definition.data)} |`);
    return [heading, '', '| type | meaning | `data` fields (`?`: optional) |', '|---|---|---|', ...rows].join('\n');
  });
  return [START, NOTE, '', ...sections.flatMap((s) => [s, '']), END].join('\n');
}

/** The `data` schema of each type; a type sharing its schema with an earlier one refers to it. */
function definitions(): Record<string, unknown> {
  const first = new Map<TSchema, string>();
  const defs: Record<string, unknown> = {};
  for (const [type, definition] of Object.entries(DOMAIN_EVENT_CATALOGUE)) {
    const same = first.get(definition.data);
    defs[type] = same ? { description: definition.description, $ref: `#/$defs/${same}` } : { description: definition.description, ...plain(definition.data) };
    if (!same) first.set(definition.data, type);
  }
  return defs;
}

/** `docs/domain-event.schema.json`: the envelope, and the `data` schema of each catalogued type. */
export function renderDomainEventSchema(): string {
  const types = Object.keys(DOMAIN_EVENT_CATALOGUE);
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `domain-event.v${DOMAIN_EVENT_VERSION}.schema.json`,
    title: `Domain event envelope, version ${DOMAIN_EVENT_VERSION}`,
    description: `One JSON object per Kafka message on the topic ${TOPICS.DOMAIN_EVENTS}; message key = project id as a string ("0" for instance-level events). Generated from the event catalogue (libs/messaging/src/catalogue) by \`npm run events:docs\`.`,
    type: 'object',
    required: ['id', 'type', 'version', 'occurred_at', 'actor', 'project_id', 'group_id', 'target', 'data'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', format: 'uuid', description: 'Unique event id; consumers deduplicate on it.' },
      type: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        description: 'Event type: one of the catalogue ($defs) for this service; consumers skip types they do not know.',
        examples: types,
      },
      version: { type: 'integer', const: DOMAIN_EVENT_VERSION },
      occurred_at: { type: 'string', format: 'date-time' },
      actor: { type: ['integer', 'null'], description: 'Id of the user who caused the event.' },
      project_id: { type: ['integer', 'null'] },
      group_id: { type: ['integer', 'null'] },
      target: {
        type: ['object', 'null'],
        required: ['type', 'id'],
        properties: {
          type: { type: 'string' },
          id: { type: ['integer', 'string', 'null'] },
          iid: { type: ['integer', 'null'] },
          title: { type: ['string', 'null'] },
        },
      },
      data: { type: 'object', description: 'Type-specific payload: see the type in $defs.' },
      hook_chain: {
        type: 'object',
        description: 'Present when a request made by a system hook receiver caused the event (loop protection).',
        required: ['id', 'depth'],
        properties: { id: { type: 'string', format: 'uuid' }, depth: { type: 'integer', minimum: 1 } },
      },
    },
    allOf: types.map((type) => ({ if: { properties: { type: { const: type } } }, then: { properties: { data: { $ref: `#/$defs/${type}` } } } })),
    $defs: definitions(),
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** `docs/events.md` with its generated section replaced. */
export function withEventCatalogue(markdown: string): string {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${EVENT_DOCS.markdown} has no generated event catalogue section (${START} ... ${END})`);
  return markdown.slice(0, start) + renderEventCatalogueMarkdown() + markdown.slice(end + END.length);
}

/** Writes the generated docs under `root`; returns the files that changed. */
export function writeEventDocs(root: string): string[] {
  const changed: string[] = [];
  const write = (file: string, content: string): void => {
    const path = join(root, file);
    if (readFileSync(path, 'utf8') === content) return;
    writeFileSync(path, content);
    changed.push(file);
  };
  write(EVENT_DOCS.markdown, withEventCatalogue(readFileSync(join(root, EVENT_DOCS.markdown), 'utf8')));
  write(EVENT_DOCS.schema, renderDomainEventSchema());
  return changed;
}
