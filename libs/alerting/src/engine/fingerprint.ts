import { hash } from 'node:crypto';
import { canonicalJson } from './canonical-json';

/** Top-level payload attributes left out of the payload fingerprint (they change between repeats). */
export const PAYLOAD_FINGERPRINT_EXCLUDED_KEYS: readonly string[] = ['start_time', 'end_time', 'hosts'];

const sha1 = (text: string): string => hash('sha1', text, 'hex');

/**
 * The fingerprint of an explicit `fingerprint` value: SHA-1 (hex) of its canonical JSON
 * encoding (see `canonicalJson`). Strings, numbers, arrays and objects are accepted; `null`,
 * booleans, an empty or blank string and an empty array or object give no fingerprint.
 * Because the encoding keeps the type and the element boundaries, `["a","bc"]`, `["ab","c"]`
 * and `"abc"` give three different fingerprints, and the string `"42"` differs from the number `42`.
 */
export function fingerprintOf(value: unknown): string | null {
  if (value === null || value === undefined || typeof value === 'boolean') return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  if (Array.isArray(value) && value.length === 0) return null;
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return null;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'object') return null;
  return sha1(canonicalJson(value));
}

/**
 * PREMIUM grouping of payloads without a fingerprint: SHA-1 of the canonical JSON of the
 * whole payload without `start_time`, `end_time` and `hosts`. Key order is irrelevant, so two
 * identical payloads (and a payload and its recovery) get the same fingerprint.
 */
export function payloadFingerprintOf(payload: Record<string, unknown>): string {
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(payload)) {
    if (!PAYLOAD_FINGERPRINT_EXCLUDED_KEYS.includes(key)) kept[key] = payload[key];
  }
  return sha1(canonicalJson(kept));
}
