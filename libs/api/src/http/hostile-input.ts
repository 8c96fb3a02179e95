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

/**
 * Whether a parameter value (a string, or arrays and objects of them, keys included) holds
 * a NUL character. Iterative, so that no input can exhaust the stack; only what
 * parsers produce is looked into (see `isParsedObject`).
 */
export function containsNullByte(value: unknown): boolean {
  const pending: unknown[] = [value];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'object' && item !== null) {
      if (seen.has(item)) continue;
      seen.add(item);
    }
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return true;
    } else if (Array.isArray(item)) {
      for (const element of item) pending.push(element);
    } else if (isParsedObject(item)) {
      for (const [key, element] of Object.entries(item)) {
        if (key.includes('\u0000')) return true;
        pending.push(element);
      }
    }
  }
  return false;
}
