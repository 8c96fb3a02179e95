import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';

/**
 * Largest value of a PostgreSQL `integer` column (every id, iid and counter of the schema).
 * A larger number names nothing and must never reach the database ("value out of range").
 */
export const INT32_MAX = 2_147_483_647;

const DIGITS = /^\d+$/;

/** Whether `value` is an integer a row can hold (0 to `INT32_MAX`). */
export const isDbInt = (value: number): boolean => Number.isInteger(value) && value >= 0 && value <= INT32_MAX;

/** The number of a decimal path segment when a row can carry it, else null (not digits, or beyond `INT32_MAX`). */
export function dbIntOrNull(raw: string): number | null {
  if (typeof raw !== 'string' || !DIGITS.test(raw)) return null;
  const value = Number(raw);
  return isDbInt(value) ? value : null;
}

/**
 * An integer path parameter typed as Grape types it (`issue_iid`, `milestone_id`, `badge_id`...):
 * - not a decimal integer: 400 `{"error":"<name> is invalid"}`;
 * - an integer beyond `INT32_MAX`: 404 `{"message":"404 <resource> Not Found"}` (no row can have it).
 */
export function intParam(name: string, raw: string, resource: string): number {
  if (typeof raw !== 'string' || !DIGITS.test(raw)) throw new DomainError(ErrorCode.BAD_REQUEST, `${name} is invalid`, { errorKey: true });
  const value = dbIntOrNull(raw);
  if (value === null) throw DomainError.notFound(resource);
  return value;
}

/** A path parameter that addresses a resource only by id: anything but an id a row can have is a 404. */
export function idParam(raw: string, resource: string): number {
  const value = dbIntOrNull(raw);
  if (value === null) throw DomainError.notFound(resource);
  return value;
}

/** An id or a username (`/users/:id`, `Sudo`): a number beyond `INT32_MAX` is an id that names nobody (null). */
export function parseIdOrName(raw: string): { id: number } | { name: string } | null {
  if (DIGITS.test(raw)) {
    const id = dbIntOrNull(raw);
    return id === null ? null : { id };
  }
  return { name: raw };
}
