import { EventEmitter } from 'node:events';
/**
 * Deepest nesting of arrays and objects accepted in any JSON body (the alert notify
 * endpoints use the same limit). Deeper bodies are refused before parsing, so that no
 * later step (DTO transformation, validation, serialization) can overflow the stack.
 */
export const JSON_MAX_DEPTH = 100;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether the JSON text in `body` nests arrays and objects deeper than `maxDepth`: one pass
 * over the bytes, no allocation, no recursion; brackets inside strings do not count.
 */
export function jsonNestedDeeperThan(body: Buffer, maxDepth: number = JSON_MAX_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth++;
      if (depth > maxDepth) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--;
  }
  return false;
}

/**
 * What parsers make of a request (objects and arrays of strings: plain, null-prototype or the
 * router's own parameter objects) is walked; a body a route takes as a stream (git smart HTTP,
 * uploads) and a Buffer are not (a stream's graph is large and cyclic).
 */
function isParsedObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Buffer.isBuffer(value) && !(value instanceof EventEmitter);
}

/** A surrogate code unit outside a pair (with the `u` flag, a pair is one code point and does not match). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Why a string cannot be a parameter: a NUL character, or a lone UTF-16 surrogate. */
export type MalformedString = 'null-byte' | 'lone-surrogate';

/**
 * What is wrong with a string, if anything: a NUL character (PostgreSQL refuses it in text,
 * GitLab's `HandleMalformedStrings` refuses it everywhere), or a lone UTF-16 surrogate (a JSON
 * escape such as `\ud800` without its pair: no UTF-8 encodes it, and PostgreSQL refuses it in
 * `json` and `jsonb` values, "invalid input syntax for type json").
 */
export function malformedString(value: string): MalformedString | null {
  if (value.includes('\u0000')) return 'null-byte';
  if (LONE_SURROGATE.test(value)) return 'lone-surrogate';
  return null;
}

/**
 * What is malformed in a parameter value (a string, or arrays and objects of them, keys
 * included): `null-byte` when any string holds NUL, else `lone-surrogate` when any holds a lone
 * surrogate, else null. Iterative, so that no input can exhaust the stack; only what parsers
 * produce is looked into (see `isParsedObject`).
 */
export function findMalformedString(value: unknown): MalformedString | null {
  let found: MalformedString | null = null;
  const pending: unknown[] = [value];
  const seen = new Set<object>();
  const check = (text: string): boolean => {
    const problem = malformedString(text);
    if (problem !== null) found = problem;
    return problem === 'null-byte';
  };
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'object' && item !== null) {
      if (seen.has(item)) continue;
      seen.add(item);
    }
    if (typeof item === 'string') {
      if (check(item)) return 'null-byte';
    } else if (Array.isArray(item)) {
      for (const element of item) pending.push(element);
    } else if (isParsedObject(item)) {
      for (const [key, element] of Object.entries(item)) {
        if (check(key)) return 'null-byte';
        pending.push(element);
      }
    }
  }
  return found;
}

/** Whether a parameter value holds a NUL character (see `findMalformedString`). */
export const containsNullByte = (value: unknown): boolean => findMalformedString(value) === 'null-byte';

/** Whether a parameter value holds a lone UTF-16 surrogate and no NUL (see `findMalformedString`). */
export const containsLoneSurrogate = (value: unknown): boolean => findMalformedString(value) === 'lone-surrogate';
