import type { AlertPayload } from './alert-payload-parser';
import { AlertSeverity, normalizeSeverity } from './alert-severity';
import { AttributeMapping, MappableAlertField, readMappedValue } from './attribute-mapping';
import { fingerprintOf, payloadFingerprintOf } from './fingerprint';

export const DEFAULT_ALERT_TITLE = 'New: Alert';

/** Field length limits: longer values are truncated, never refused. */
export const ALERT_FIELD_LIMITS = {
  title: 200,
  description: 1000,
  service: 100,
  monitoringTool: 100,
  /** Of all hosts joined together. */
  hosts: 255,
  environment: 255,
} as const;

/** The payload attributes with a meaning; every other attribute is kept in `details`. */
export const STANDARD_ALERT_ATTRIBUTES: readonly string[] = [
  'title',
  'description',
  'start_time',
  'end_time',
  'service',
  'monitoring_tool',
  'hosts',
  'severity',
  'fingerprint',
  'service_environment_name',
];

export interface NormalizedAlert {
  title: string;
  description: string | null;
  startedAt: Date;
  /** Set when the payload is a recovery (`end_time` present). */
  endedAt: Date | null;
  service: string | null;
  monitoringTool: string | null;
  hosts: string[];
  severity: AlertSeverity;
  /** SHA-1 hex; null when the payload has none (and payload grouping is off). */
  fingerprint: string | null;
  environment: string | null;
  /** The payload's other attributes (primitives or nested JSON). */
  details: Record<string, unknown>;
}

export interface NormalizeOptions {
  /** Receipt time: the default `start_time`, and the end of a recovery whose `end_time` is unreadable. */
  now: Date;
  /** PREMIUM custom mapping; a mapped value that is missing falls back to the default attribute. */
  mappings?: readonly AttributeMapping[];
  /** PREMIUM: without `fingerprint`, fingerprint the whole payload (minus start_time, end_time, hosts). */
  payloadFingerprint?: boolean;
}

/** Truncates to `max` characters without splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return cut;
}

/** A string attribute: strings (trimmed), numbers and booleans as text; blank or other types: null. */
export function textOf(value: unknown, max: number): string | null {
  let text: string | null = null;
  if (typeof value === 'string') text = value.trim();
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else if (typeof value === 'boolean') text = String(value);
  if (text === null || text === '') return null;
  return truncate(text, max);
}

const MIN_TIME = Date.UTC(1, 0, 1);
const MAX_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * A datetime attribute: an ISO 8601 / RFC 2822 string, or a number of seconds (below 10^11)
 * or milliseconds since the Unix epoch. Anything unreadable, or outside years 1..9999, is null.
 */
export function timeOf(value: unknown): Date | null {
  let ms: number;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    ms = Math.abs(value) < 1e11 ? value * 1000 : value;
  } else if (typeof value === 'string') {
    const text = value.trim();
    if (text === '' || text.length > 100) return null;
    ms = /^-?\d+(\.\d+)?$/.test(text) ? (timeOf(Number(text))?.getTime() ?? NaN) : Date.parse(text);
  } else return null;
  if (!Number.isFinite(ms) || ms < MIN_TIME || ms > MAX_TIME) return null;
  return new Date(Math.trunc(ms));
}

/** `hosts`: a string or an array (nested arrays flattened); numbers become text; joined length capped. */
export function hostsOf(value: unknown): string[] {
  const items = (Array.isArray(value) ? value.flat(Infinity) : [value])
    .map((item) => (typeof item === 'string' ? item.trim() : typeof item === 'number' && Number.isFinite(item) ? String(item) : ''))
    .filter((item) => item !== '');
  const hosts: string[] = [];
  let remaining: number = ALERT_FIELD_LIMITS.hosts;
  for (const host of items) {
    if (remaining <= 0) break;
    const kept = truncate(host, remaining);
    if (kept === '') break;
    hosts.push(kept);
    remaining -= kept.length;
  }
  return hosts;
}

const isPresent = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/**
 * Turns an alert payload into the alert's attributes (spec "Alert payload"): every attribute
 * optional, defaults applied, lengths truncated, unreadable times tolerated. Pure.
 *
 * - `title`: default `New: Alert`;
 * - `start_time`: default (and when unreadable) the receipt time;
 * - `end_time` present ⇒ recovery: `endedAt` is that time, or the receipt time when unreadable;
 * - `severity`: case-insensitive, anything else `critical`;
 * - `hosts`: string or array;
 * - `fingerprint`: see `fingerprintOf`; on PREMIUM, absent ⇒ `payloadFingerprintOf`;
 * - every other attribute is kept in `details`.
 */
export function normalizeAlert(payload: AlertPayload, options: NormalizeOptions): NormalizedAlert {
  const mappingByField = new Map<MappableAlertField, AttributeMapping>((options.mappings ?? []).map((m) => [m.fieldName, m]));
  const field = (name: MappableAlertField): unknown => {
    const mapping = mappingByField.get(name);
    if (mapping) {
      const mapped = readMappedValue(payload, mapping);
      if (mapped !== undefined) return mapped;
    }
    return payload[name];
  };

  const endValue = field('end_time');
  const explicitFingerprint = fingerprintOf(field('fingerprint'));
  const details: Record<string, unknown> = {};
  for (const key of Object.keys(payload)) {
    if (!STANDARD_ALERT_ATTRIBUTES.includes(key)) details[key] = payload[key];
  }

  return {
    title: textOf(field('title'), ALERT_FIELD_LIMITS.title) ?? DEFAULT_ALERT_TITLE,
    description: textOf(field('description'), ALERT_FIELD_LIMITS.description),
    startedAt: timeOf(field('start_time')) ?? options.now,
    endedAt: isPresent(endValue) ? (timeOf(endValue) ?? options.now) : null,
    service: textOf(field('service'), ALERT_FIELD_LIMITS.service),
    monitoringTool: textOf(field('monitoring_tool'), ALERT_FIELD_LIMITS.monitoringTool),
    hosts: hostsOf(field('hosts')),
    severity: normalizeSeverity(field('severity')),
    fingerprint: explicitFingerprint ?? (options.payloadFingerprint ? payloadFingerprintOf(payload) : null),
    environment: textOf(field('service_environment_name'), ALERT_FIELD_LIMITS.environment),
    details,
  };
}
