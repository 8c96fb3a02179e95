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
