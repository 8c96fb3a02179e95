import { Transform } from 'class-transformer';

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

/** Query and form values arrive as strings: 'true'/'false' (and 1/0) become booleans; anything else stays for the validator to refuse. */
export const ToBoolean = (): PropertyDecorator =>
  Transform(({ value }) => {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'number' && (value === 0 || value === 1)) return value === 1;
    if (typeof value === 'string') {
      const v = value.trim().toLowerCase();
      if (TRUE.has(v)) return true;
      if (FALSE.has(v)) return false;
    }
    return value;
  });

/** Integer-looking strings become numbers; anything else stays for the validator to refuse. */
export const ToInt = (): PropertyDecorator =>
  Transform(({ value }) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value));

/** A comma-separated string or an array becomes an array of trimmed, non-empty strings. */
export const ToStringArray = (): PropertyDecorator =>
  Transform(({ value }) => {
    if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter(Boolean);
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
