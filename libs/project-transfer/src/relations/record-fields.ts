/** A record of the archive (one NDJSON line, or a record nested in one). */
export type Row = Record<string, unknown>;

/** Attribute readers of imported records: a value of another type (or out of range) reads as null / the fallback. */
export const str = (value: unknown, max = Infinity): string | null => (typeof value === 'string' ? value.slice(0, max) : null);
export const int = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value >= -2147483648 && value <= 2147483647 ? value : null;
export const bool = (value: unknown, fallback = false): boolean => (typeof value === 'boolean' ? value : fallback);
export const date = (value: unknown): Date | null => {
  if (typeof value !== 'string') return null;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
};
export const day = (value: unknown): string | null => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null);
export const array = (value: unknown): Row[] =>
  Array.isArray(value) ? value.filter((v): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v)) : [];
export const oneOf = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;

/** A time as the archive writes it. */
export const iso = (date: Date | null | undefined): string | null => (date ? new Date(date).toISOString() : null);

/** A record the archive holds but this service cannot take (missing or invalid attribute). */
export class InvalidRecord extends Error {
  override name = 'ActiveRecord::RecordInvalid';
}
