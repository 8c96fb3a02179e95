import { Transform } from 'class-transformer';

/** A comma-separated string or an array becomes an array of numbers where the items are integers (others stay for `@IsInt({each})` to refuse). */
export const ToIntArray = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => {
    const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : value === undefined || value === null ? value : [value];
    if (!Array.isArray(items)) return items;
    return items
      .map((item) => (typeof item === 'string' ? item.trim() : item))
      .filter((item) => item !== '')
      .map((item) => (typeof item === 'string' && /^-?\d+$/.test(item) ? Number(item) : item));
  });

/** An id or a path: numbers become strings. */
export const ToRefString = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'number' ? String(value) : value));

/** '' (a form's way of saying "none") becomes null. */
export const EmptyToNull = (): PropertyDecorator => Transform(({ value }: { value: unknown }) => (value === '' ? null : value));
