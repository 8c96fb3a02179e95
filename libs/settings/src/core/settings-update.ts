import { isIP } from 'node:net';
import { isValidEmail, parseBoolean } from '@app/api';
import { ONE_DAY_SECONDS, formatDuration, parseDuration } from './duration';
import {
  DEPRECATED_ALIASES,
  definitionOf,
  PRESENCE_RULES,
  REQUIRES_RULES,
  SettingDefinition,
  SettingName,
  SettingValue,
  VISIBILITY_LEVELS,
} from './setting-definitions';

export type ValidationMessages = Record<string, string[]>;

/** The stored state a change is checked against. */
export interface CurrentSettings {
  /** Every non-secret setting, defaults applied. */
  values: Record<string, SettingValue>;
  /** Secret settings that hold a value. */
  secretsSet: ReadonlySet<string>;
}

export type SettingsUpdateResult = { ok: true; changes: Partial<Record<SettingName, SettingValue>> } | { ok: false; errors: ValidationMessages };

export interface SettingsUpdateOptions {
  /** Whether PREMIUM settings exist on this instance (otherwise their parameters are ignored). */
  premium: boolean;
  /** The instance's own host, always part of `asset_proxy_allowlist`. */
  host: string;
}

const INVALID = 'is invalid';
const BLANK = "can't be blank";
const INTEGER = /^-?\d+$/;
const FLOAT = /^-?(\d+(\.\d*)?|\.\d+)$/;
const TOKEN_PREFIX = /^[a-zA-Z0-9_+=/@:.-]+$/;
const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const DOMAIN_ENTRY = /^[^\s<>]+$/;

class Invalid extends Error {}
const fail = (message = INVALID): never => {
  throw new Invalid(message);
};

const isBlank = (value: unknown): boolean =>
  value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

function toBoolean(raw: unknown): boolean {
  return parseBoolean(raw) ?? fail();
}

function toInteger(raw: unknown): number {
  if (typeof raw === 'number' && Number.isInteger(raw)) return raw;
  if (typeof raw === 'string' && INTEGER.test(raw.trim())) return Number(raw.trim());
  return fail();
}

function toFloat(raw: unknown): number {
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
  if (typeof raw === 'string' && FLOAT.test(raw.trim())) return Number(raw.trim());
  return fail();
}

/** `a,b`, `a\nb`, `[a, b]` (JSON or `name[]=`): trimmed, non-empty strings. */
function toStringList(raw: unknown): string[] {
  const items = typeof raw === 'string' ? raw.split(/[\s,;]+/) : Array.isArray(raw) ? raw : fail();
  return items.map((item) => (typeof item === 'string' ? item.trim() : typeof item === 'number' ? String(item) : fail())).filter((item) => item !== '');
}

function checkRange(definition: SettingDefinition, value: number): void {
  if (definition.min !== undefined && value < definition.min) fail(`must be greater than or equal to ${definition.min}`);
  if (definition.max !== undefined && value > definition.max) fail(`must be less than or equal to ${definition.max}`);
}

function checkUrl(value: string): void {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('must be a valid URL');
  } catch (error) {
    if (error instanceof Invalid) throw error;
    fail('must be a valid URL');
  }
}

function isIpOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0) return false;
  const version = isIP(address);
  if (version === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d+$/.test(bits)) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}

function validBranchName(name: string): boolean {
  return !(
    /[\s~^:?*[\\\x00-\x1f\x7f]/.test(name) ||
    name.includes('..') ||
    name.includes('@{') ||
    name.includes('//') ||
    name.startsWith('/') ||
    name.startsWith('-') ||
    name.endsWith('/') ||
    name.endsWith('.') ||
    name.endsWith('.lock') ||
    name === '@'
  );
}

function checkFormat(definition: SettingDefinition, value: string): string {
  switch (definition.format) {
    case 'email':
      if (!isValidEmail(value)) fail();
      return value;
    case 'url':
      checkUrl(value);
      return value;
    case 'url_list':
      value
        .split(',')
        .map((url) => url.trim())
        .filter(Boolean)
        .forEach(checkUrl);
      return value;
    case 'hostname':
      if (!HOSTNAME.test(value)) fail();
      return value;
    case 'duration': {
      const seconds = parseDuration(value);
      if (seconds === null) fail('is not a valid duration');
      if (seconds! < ONE_DAY_SECONDS) fail('must be at least 1 day');
      return formatDuration(seconds!);
    }
    case 'duration_or_never':
      if (value.trim() === '0' || value.trim().toLowerCase() === 'never') return value.trim();
      if (parseDuration(value) === null) fail('is not a valid duration');
      return value;
    case 'token_prefix':
      if (!TOKEN_PREFIX.test(value)) fail("can contain only letters of the Base64 alphabet (RFC4648) with the addition of '@', ':' and '.'");
      return value;
    case 'branch_name':
      if (!validBranchName(value)) fail();
      return value;
    case 'ip_list': {
      const entries = value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      if (entries.length === 0 || !entries.every(isIpOrCidr)) fail('must be a comma-separated list of IP addresses or CIDR ranges');
      return value;
    }
    default:
      return value;
  }
}

function checkLength(definition: SettingDefinition, value: string): void {
  if (definition.maxLength !== undefined && value.length > definition.maxLength) fail(`is too long (maximum is ${definition.maxLength} characters)`);
}

/** Coerces and validates one parameter; throws `Invalid` with GitLab's wording. */
export function parseSettingValue(name: string, definition: SettingDefinition, raw: unknown, options: SettingsUpdateOptions): SettingValue {
  const blank = raw === null || (typeof raw === 'string' && raw === '' && definition.type !== 'string_array');
  if (blank) {
    if (definition.nullable) return null;
    return fail(BLANK);
  }
  switch (definition.type) {
    case 'boolean':
      return toBoolean(raw);
    case 'integer': {
      const value = toInteger(raw);
      if (definition.values) {
        if (!definition.values.includes(value)) fail('does not have a valid value');
        return value;
      }
      checkRange(definition, value);
      return value;
    }
    case 'float': {
      const value = toFloat(raw);
      checkRange(definition, value);
      if (definition.step !== undefined) {
        const steps = value / definition.step;
        if (Math.abs(steps - Math.round(steps)) > 1e-6) fail(`must be a multiple of ${definition.step}`);
      }
      return value;
    }
    case 'string': {
      if (typeof raw === 'number' || typeof raw === 'boolean') raw = String(raw);
      if (typeof raw !== 'string') return fail();
      if (definition.values) {
        // `nil` is how GitLab's clients ask for "both protocols".
        const value = raw === 'nil' && definition.values.includes(null) ? null : raw;
        if (!definition.values.includes(value)) fail('does not have a valid value');
        return value;
      }
      checkLength(definition, raw);
      if (definition.secret) return raw;
      return checkFormat(definition, raw);
    }
    case 'string_array': {
      let items = toStringList(raw);
      if (name === 'restricted_visibility_levels') items = items.map((item) => VISIBILITY_LEVELS[item] ?? item);
      if (definition.itemValues && items.some((item) => !definition.itemValues!.includes(item))) fail('does not have a valid value');
      if (definition.format === 'domain_list') {
        if (items.length > 1000) fail('is too long (maximum is 1000 entries)');
        if (items.some((item) => item.length > 255)) fail('entries cannot be larger than 255 characters');
        if (items.some((item) => !DOMAIN_ENTRY.test(item))) fail('entries cannot contain HTML tags or spaces');
      }
      items = [...new Set(items)];
      // Links to the instance itself are never proxied.
      if (name === 'asset_proxy_allowlist' && !items.includes(options.host)) items.push(options.host);
      return items;
    }
    case 'integer_array': {
      const items =
        typeof raw === 'string'
          ? raw
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : Array.isArray(raw)
            ? raw
            : fail();
      return (items as unknown[]).map((item) => {
        const value = toInteger(item);
        if (value < 1) fail();
        return value;
      });
    }
    case 'weights': {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail();
      const weights: Record<string, number> = {};
      for (const [storage, weight] of Object.entries(raw)) {
        if (!definition.itemValues?.includes(storage)) fail(`can only include configured storages: ${definition.itemValues?.join(', ')}`);
        const value = toInteger(weight);
        if (value < 0 || value > 100) fail('weights must be between 0 and 100');
        weights[storage] = value;
      }
      return weights;
    }
  }
}

const add = (errors: ValidationMessages, name: string, message: string): void => {
  (errors[name] ??= []).includes(message) || errors[name].push(message);
};

/**
 * Checks the parameters of `PUT /application/settings` against the current settings and
 * returns the changes to store (plaintext; the caller encrypts secrets), or every failure in
 * the spec's validation shape. Unknown and non-writable parameters are ignored (Grape's
 * declared parameters), as are PREMIUM ones below PREMIUM.
 */
export function validateSettingsUpdate(params: Record<string, unknown>, current: CurrentSettings, options: SettingsUpdateOptions): SettingsUpdateResult {
  const errors: ValidationMessages = {};
  const given: Record<string, unknown> = {};

  for (const [key, raw] of Object.entries(params)) {
    const replacement = DEPRECATED_ALIASES[key];
    const name = replacement ?? key;
    if (!definitionOf(name)) continue;
    if (replacement && Object.prototype.hasOwnProperty.call(params, replacement) && JSON.stringify(params[replacement]) !== JSON.stringify(raw)) {
      add(errors, key, `conflicts with ${replacement}; send only ${replacement}`);
      continue;
    }
    given[name] = raw;
  }

  const changes: Record<string, SettingValue> = {};
  for (const [name, raw] of Object.entries(given)) {
    const definition = definitionOf(name)!;
    if (definition.tier === 'premium' && !options.premium) continue;
    try {
      changes[name] = parseSettingValue(name, definition, raw, options);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      add(errors, name, error.message);
    }
  }
  // Deprecated: housekeeping always writes bitmaps. The value is checked, never stored.
  delete changes.housekeeping_bitmaps_enabled;

  if (options.premium && Object.prototype.hasOwnProperty.call(given, 'deletion_adjourned_period')) {
    const raw = given.deletion_adjourned_period;
    if (raw === 0 || raw === '0') {
      // Since 15.1, a period of 0 turns both delayed deletion settings off (the period is kept).
      delete errors.deletion_adjourned_period;
      delete changes.deletion_adjourned_period;
      changes.delayed_project_deletion = false;
      changes.delayed_group_deletion = false;
    }
  }

  for (const rule of REQUIRES_RULES) {
    if (changes[rule.flag] !== true) continue;
    for (const companion of rule.companions) {
      if (!Object.prototype.hasOwnProperty.call(given, companion) || isBlank(given[companion])) {
        if (!errors[companion]) add(errors, companion, `is required when ${rule.flag} is true`);
      }
    }
  }

  const resulting = { ...current.values, ...changes };
  const isSet = (name: SettingName): boolean => {
    if (definitionOf(name)!.secret) return name in changes ? !isBlank(changes[name]) : current.secretsSet.has(name);
    return !isBlank(resulting[name]);
  };
  for (const rule of PRESENCE_RULES) {
    const on = resulting[rule.when];
    const active = definitionOf(rule.when)!.secret ? isSet(rule.when) : on === true || (typeof on === 'string' && on.trim() !== '');
    if (active && !isSet(rule.required) && !errors[rule.required]) add(errors, rule.required, BLANK);
  }

  if (options.premium) {
    if (resulting.delayed_project_deletion === true && resulting.delayed_group_deletion !== true) {
      if (changes.delayed_project_deletion === true) {
        add(errors, 'delayed_project_deletion', 'can be enabled only while delayed_group_deletion is true');
      } else {
        // Turning group-level delayed deletion off locks project-level delayed deletion off too.
        changes.delayed_project_deletion = false;
      }
    }
  }

  const n = (name: SettingName): number => resulting[name] as number;
  if (!errors.housekeeping_full_repack_period && n('housekeeping_full_repack_period') < n('housekeeping_incremental_repack_period')) {
    add(
      errors,
      'housekeeping_full_repack_period',
      `must be greater than or equal to housekeeping_incremental_repack_period (${n('housekeeping_incremental_repack_period')})`,
    );
  }
  if (!errors.housekeeping_gc_period && n('housekeeping_gc_period') < n('housekeeping_full_repack_period')) {
    add(errors, 'housekeeping_gc_period', `must be greater than or equal to housekeeping_full_repack_period (${n('housekeeping_full_repack_period')})`);
  }
  if (!errors.repostorage_timeout_medium) {
    if (n('repostorage_timeout_medium') > n('repostorage_timeout_default')) add(errors, 'repostorage_timeout_medium', 'must be lower than the default timeout');
    if (n('repostorage_timeout_medium') < n('repostorage_timeout_fast')) add(errors, 'repostorage_timeout_medium', 'must be higher than the fast timeout');
  }
  const restricted = (resulting.restricted_visibility_levels as string[] | null) ?? [];
  for (const name of ['default_project_visibility', 'default_group_visibility', 'default_snippet_visibility'] as const) {
    if (!errors[name] && restricted.includes(resulting[name] as string) && (name in changes || 'restricted_visibility_levels' in changes)) {
      add(errors, name, 'cannot be set to a restricted visibility level');
    }
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, changes: changes as Partial<Record<SettingName, SettingValue>> };
}
