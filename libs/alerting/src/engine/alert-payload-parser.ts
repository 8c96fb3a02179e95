/** Largest accepted alert payload, in bytes. */
export const ALERT_PAYLOAD_MAX_BYTES = 1_048_576;
/** Deepest accepted nesting of arrays and objects in an alert payload. */
export const ALERT_PAYLOAD_MAX_DEPTH = 100;

export type AlertPayload = Record<string, unknown>;

export type PayloadParseResult = { ok: true; payload: AlertPayload } | { ok: false; reason: PayloadRejection; message: string };

/** Why a payload was refused (also the `reason` label of the rejection metric). */
export type PayloadRejection = 'too_large' | 'too_deep' | 'not_an_object' | 'invalid_json';

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const isJsonWhitespace = (byte: number): boolean => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/**
 * Checks the size and the nesting depth of a raw body in one pass over its bytes (no
 * allocation, no recursion), before any parsing: a 1 MB body of `[` cannot make the parser
 * build a million nested arrays. Brackets inside strings do not count.
 */
export function checkPayloadShape(body: Buffer): { ok: true } | { ok: false; reason: PayloadRejection; message: string } {
  if (body.length > ALERT_PAYLOAD_MAX_BYTES) {
    return { ok: false, reason: 'too_large', message: `the alert payload is larger than ${ALERT_PAYLOAD_MAX_BYTES} bytes` };
  }
  let start = 0;
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) start = 3; // UTF-8 byte order mark
  while (start < body.length && isJsonWhitespace(body[start])) start++;
  if (start >= body.length || body[start] !== OPEN_BRACE) {
    return { ok: false, reason: 'not_an_object', message: 'the alert payload must be a JSON object' };
  }
  let depth = 0;
  let inString = false;
  for (let i = start; i < body.length; i++) {
    const byte = body[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth++;
      if (depth > ALERT_PAYLOAD_MAX_DEPTH) {
        return { ok: false, reason: 'too_deep', message: `the alert payload is nested deeper than ${ALERT_PAYLOAD_MAX_DEPTH} levels` };
      }
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--;
  }
  return { ok: true };
}

/**
 * Parses a raw alert payload: size and depth checked first (`checkPayloadShape`), then strict
 * JSON whose top level must be an object. Strings are made storable: NUL characters are
 * removed and unpaired surrogates replaced (PostgreSQL refuses both), and `__proto__` keys
 * are dropped.
 */
export function parseAlertPayload(body: Buffer): PayloadParseResult {
  const shape = checkPayloadShape(body);
  if (!shape.ok) return shape;
  let parsed: unknown;
  let text: string;
  try {
    text = body.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'invalid_json', message: 'the alert payload is not valid JSON' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, reason: 'not_an_object', message: 'the alert payload must be a JSON object' };
  }
  return { ok: true, payload: (isStorableJsonText(text) ? parsed : sanitizeJson(parsed)) as AlertPayload };
}

/**
 * Whether JSON.parse of `text` (valid JSON, decoded from UTF-8) is already what `sanitizeJson`
 * returns, so that the copy can be skipped. A NUL or a lone surrogate can only come from a
 * `\u` escape: UTF-8 decoding replaces invalid sequences, and JSON forbids raw control
 * characters in strings. A `__proto__` key needs its letters, or an escape.
 */
export function isStorableJsonText(text: string): boolean {
  return !text.includes('\\u') && !text.includes('__proto__');
}

/** A payload already parsed (test alerts arrive through the ordinary JSON parser): same rules. */
export function parseParsedAlertPayload(value: unknown): PayloadParseResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: 'not_an_object', message: 'the alert payload must be a JSON object' };
  }
  return parseAlertPayload(Buffer.from(JSON.stringify(value), 'utf8'));
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const storableString = (text: string): string => text.replace(LONE_SURROGATE, '\uFFFD').replaceAll('\u0000', '');

/** Copies a parsed JSON value with storable strings (depth already bounded by the shape check). */
export function sanitizeJson(value: unknown): unknown {
  if (typeof value === 'string') return storableString(value);
  if (Array.isArray(value)) return value.map((item) => sanitizeJson(item));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const safeKey = storableString(key);
      if (safeKey === '__proto__') continue;
      copy[safeKey] = sanitizeJson(item);
    }
    return copy;
  }
  return value;
}
