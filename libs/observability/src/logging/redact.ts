/** Replaces every secret value in the logs. */
export const REDACTED = '[REDACTED]';

/** Header names (lower case) whose values are credentials. */
const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'private-token',
  'job-token',
  'cookie',
  'set-cookie',
  'x-gitlab-token',
]);

/** Objects nested deeper than this are logged as they are (log objects are shallow in practice). */
const MAX_DEPTH = 10;

/**
 * True when a value stored under `key` must not be logged: the credential headers, and
 * fields (body, query, anything) named `token`, `*_token` (`private_token`, `access_token`,
 * `job_token`, ...), `*password*`, `*_key` and `*secret*`. Case-insensitive.
 */
export function isSecretKey(key: string): boolean {
  const k = key.toLowerCase();
  return SECRET_HEADERS.has(k) || k === 'token' || k.endsWith('_token') || k.endsWith('_key') || k.includes('password') || k.includes('secret');
}

const QUERY_PARAMETER = /([?&])([^=&#\s]+)=([^&#\s]*)/g;

/** Replaces the values of secret query parameters in a URL or any text (`?private_token=x` → `?private_token=[REDACTED]`). */
export function redactText(text: string): string {
  if (!text.includes('=')) return text;
  return text.replace(QUERY_PARAMETER, (whole, separator: string, name: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // keep the raw name
    }
    return isSecretKey(decoded) ? `${separator}${name}=${REDACTED}` : whole;
  });
}

const isPassThrough = (value: object): boolean =>
  value instanceof Error || value instanceof Date || ArrayBuffer.isView(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function';

/**
 * A copy of `value` safe to log: secret keys (see `isSecretKey`) get `[REDACTED]` at any
 * depth, secret query parameters are masked inside strings, cycles become `[Circular]`.
 * Errors and dates are left to the pino serializers. The input is never modified.
 */
export function redactLogObject<T>(value: T): T {
  return redactValue(value, 0, new WeakSet()) as T;
}

function redactValue(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || isPassThrough(value)) return value;
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1, seen));
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      copy[key] = isSecretKey(key) && item !== undefined && item !== null ? REDACTED : redactValue(item, depth + 1, seen);
    }
    return copy;
  } finally {
    seen.delete(value);
  }
}
