import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { type CataloguedEvent, DOMAIN_EVENT_CATALOGUE, type DomainEventType, isDomainEventType } from './domain-event-catalogue';
import { DomainEvent, DomainEventTarget } from '../core/domain-event';

/** Outcome of checking an untrusted value against the domain event envelope. */
export type DomainEventValidation = { valid: true; event: DomainEvent } | { valid: false; problems: string[] };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** RFC 3339 date-time with an explicit offset, as produced by `Date#toISOString()`. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const MAX_TYPE_LENGTH = 255;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** `null` when absent; otherwise a non-negative integer id. */
function nullableId(source: Record<string, unknown>, field: string, problems: string[]): number | null {
  const value = source[field];
  if (value === undefined || value === null) return null;
  if (!isId(value)) problems.push(`${field} must be a non-negative integer or null`);
  return value as number;
}

function target(value: unknown, problems: string[]): DomainEventTarget | null {
  if (value === undefined || value === null) return null;
  if (!isPlainObject(value)) {
    problems.push('target must be an object or null');
    return null;
  }
  if (typeof value.type !== 'string' || value.type.length === 0) problems.push('target.type must be a non-empty string');
  const id = value.id;
  if (!(id === null || id === undefined || typeof id === 'string' || isId(id))) problems.push('target.id must be an integer, a string or null');
  if (!(value.iid === undefined || value.iid === null || isId(value.iid))) problems.push('target.iid must be a non-negative integer or null');
  if (!(value.title === undefined || value.title === null || typeof value.title === 'string')) problems.push('target.title must be a string or null');
  return { ...value, id: (id ?? null) as DomainEventTarget['id'] } as DomainEventTarget;
}

/**
 * Checks that `value` is a domain event envelope (see `DomainEvent`): `id` uuid, `type`
 * non-empty string without whitespace, `version` positive integer, `occurred_at` ISO-8601
 * date-time with offset, `actor`/`project_id`/`group_id` integer or null, `target` object or
 * null, `data` object. Absent nullable fields are normalized to `null` and an absent `data`
 * to `{}`; unknown top-level fields are kept (forward compatibility). Pure: never throws.
 */
export function validateDomainEvent(value: unknown): DomainEventValidation {
  if (!isPlainObject(value)) return { valid: false, problems: ['envelope must be a JSON object'] };
  const problems: string[] = [];

  if (typeof value.id !== 'string' || !UUID.test(value.id)) problems.push('id must be a uuid');
  if (typeof value.type !== 'string' || value.type.length === 0 || value.type.length > MAX_TYPE_LENGTH || /\s/.test(value.type)) {
    problems.push(`type must be a non-empty string without whitespace (at most ${MAX_TYPE_LENGTH} characters)`);
  }
  if (typeof value.version !== 'number' || !Number.isSafeInteger(value.version) || value.version < 1) {
    problems.push('version must be a positive integer');
  }
  if (typeof value.occurred_at !== 'string' || !ISO_DATE_TIME.test(value.occurred_at) || Number.isNaN(Date.parse(value.occurred_at))) {
    problems.push('occurred_at must be an ISO-8601 date-time with a time zone');
  }
  const actor = nullableId(value, 'actor', problems);
  const projectId = nullableId(value, 'project_id', problems);
  const groupId = nullableId(value, 'group_id', problems);
  const eventTarget = target(value.target, problems);
  if (value.data !== undefined && !isPlainObject(value.data)) problems.push('data must be an object');

  if (problems.length > 0) return { valid: false, problems };
  return {
    valid: true,
    event: {
      ...value,
      id: value.id as string,
      type: value.type as string,
      version: value.version as number,
      occurred_at: value.occurred_at as string,
      actor,
      project_id: projectId,
      group_id: groupId,
      target: eventTarget,
      data: (value.data ?? {}) as Record<string, unknown>,
    },
  };
}

/** Decodes a Kafka message value (UTF-8 JSON) and validates it as a domain event envelope. */
export function parseDomainEvent(raw: Buffer | string | null | undefined): DomainEventValidation {
  if (raw === null || raw === undefined || raw.length === 0) return { valid: false, problems: ['message value is empty'] };
  let decoded: unknown;
  try {
    decoded = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
  } catch (error) {
    return { valid: false, problems: [`message value is not valid JSON: ${(error as Error).message}`] };
  }
  return validateDomainEvent(decoded);
}

// The formats the catalogue's schemas use (TypeBox checks only registered formats).
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (value) => ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)));

const MAX_DATA_PROBLEMS = 5;
const dataChecks = new Map<DomainEventType, TypeCheck<TSchema>>();

/** The compiled check of a type's `data` schema (compiled at its first use). */
function dataCheckOf(type: DomainEventType): TypeCheck<TSchema> {
  let check = dataChecks.get(type);
  if (!check) {
    check = TypeCompiler.Compile(DOMAIN_EVENT_CATALOGUE[type].data);
    dataChecks.set(type, check);
  }
  return check;
}

/**
 * Checks the `data` of a valid envelope against the catalogue's schema of its type: the
 * problems (at most a few, by JSON pointer), none when it matches. An event of a type the
 * catalogue does not know has nothing to check (consumers skip it). Pure: never throws.
 */
export function eventDataProblems(event: DomainEvent): string[] {
  if (!isDomainEventType(event.type)) return [];
  const check = dataCheckOf(event.type);
  if (check.Check(event.data)) return [];
  const problems: string[] = [];
  for (const error of check.Errors(event.data)) {
    problems.push(`data${error.path.replaceAll('/', '.')} ${error.message.toLowerCase()}`);
    if (problems.length === MAX_DATA_PROBLEMS) break;
  }
  return problems;
}

/** Whether a valid envelope is a catalogued event whose `data` matches its schema: then handlers may read it typed. */
export const isValidCataloguedEvent = (event: DomainEvent): event is CataloguedEvent =>
  isDomainEventType(event.type) && dataCheckOf(event.type).Check(event.data);
