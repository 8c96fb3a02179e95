import { Transform } from 'class-transformer';

/**
 * The strings GitLab's Grape API takes for a `Boolean` parameter: Grape coerces with dry-types'
 * `Params::Bool`, whose lists these are, case for case (`True`/`False` is what python-gitlab sends
 * for `str(bool)`; `tRuE` is refused as Grape refuses it).
 */
const GRAPE_TRUE: ReadonlySet<string> = new Set(['1', 'on', 'On', 'ON', 't', 'true', 'True', 'TRUE', 'T', 'y', 'yes', 'Yes', 'YES', 'Y']);
const GRAPE_FALSE: ReadonlySet<string> = new Set(['0', 'off', 'Off', 'OFF', 'f', 'false', 'False', 'FALSE', 'F', 'n', 'no', 'No', 'NO', 'N']);

/**
 * The API's one boolean coercion: a JSON boolean, 0/1, or one of Grape's strings (surrounding
 * spaces ignored) becomes a boolean; anything else is `undefined`, for the caller to refuse.
 */
export function parseBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value === 'string') {
    const v = value.trim();
    if (GRAPE_TRUE.has(v)) return true;
    if (GRAPE_FALSE.has(v)) return false;
  }
  return undefined;
}

/** `@Transform(toBooleanTransform)`: {@link parseBoolean}, leaving what it cannot read for `@IsBoolean()` to refuse. */
export const toBooleanTransform = ({ value }: { value: unknown }): unknown => parseBoolean(value) ?? value;

/** Query and form values arrive as strings: Grape's boolean strings ({@link parseBoolean}) become booleans; anything else stays for the validator to refuse. */
export const ToBoolean = (): PropertyDecorator => Transform(toBooleanTransform);

/** Integer-looking strings become numbers; anything else stays for the validator to refuse. */
export const ToInt = (): PropertyDecorator => Transform(({ value }) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value));

/** A comma-separated string or an array becomes an array of trimmed, non-empty strings. */
export const ToStringArray = (): PropertyDecorator =>
  Transform(({ value }) => {
    if (typeof value === 'string')
      return value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v.trim() : v)).filter((v) => v !== '');
    return value;
  });

/** A comma-separated string or an array becomes an array of numbers where the items are integers (others stay for `@DbInt({ each: true })` to refuse). */
export const ToIntArray = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => {
    const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : value === undefined || value === null ? value : [value];
    if (!Array.isArray(items)) return items;
    return items
      .map((item) => (typeof item === 'string' ? item.trim() : item))
      .filter((item) => item !== '')
      .map((item) => (typeof item === 'string' && /^-?\d+$/.test(item) ? Number(item) : item));
  });

/** '' (a form's way of saying "none") becomes null. */
export const EmptyToNull = (): PropertyDecorator => Transform(({ value }: { value: unknown }) => (value === '' ? null : value));

/**
 * null (JSON's way of clearing an attribute) becomes '' for a text attribute whose empty value is
 * '' (a NOT NULL column with default '', a token that '' removes).
 */
export const NullToEmpty = (): PropertyDecorator => Transform(({ value }: { value: unknown }) => (value === null ? '' : value));
