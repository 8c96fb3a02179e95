/**
 * Canonical JSON (the JSON Canonicalization Scheme of RFC 8785, restricted to what JSON.parse
 * produces): no whitespace, object keys sorted by UTF-16 code units, strings and numbers
 * serialized as ECMAScript does (shortest round-trip numbers). Two values are equal as JSON
 * data exactly when their canonical encodings are equal, and the encoding is injective across
 * types: `"abc"`, `["a","bc"]`, `42` and `"42"` all encode differently.
 *
 * Values that JSON cannot carry (undefined, functions, non-finite numbers) encode as `null`,
 * as JSON.stringify does inside arrays.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
      if (value instanceof Date) return JSON.stringify(value.toISOString());
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined && typeof record[key] !== 'function')
        .sort(compareCodeUnits);
      return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
    }
    default:
      return 'null';
  }
}

/** Plain UTF-16 code unit order (what `Array.prototype.sort` does without a comparator). */
const compareCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
