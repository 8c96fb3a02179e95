import { parseDocument } from 'yaml';
import type { JobWhen } from '../status/pipeline-processing';
import { CiExpressionError, parseCiExpression } from './ci-expression';
import { UntrustedRegexp } from './untrusted-regexp';
import { parseCiDuration } from './ci-duration';
import {
  CiArtifacts,
  CiConfig,
  CiConfigResult,
  CiFileReader,
  CiImage,
  CiJobDefinition,
  CiNeed,
  CiRefFilter,
  CiRetry,
  CiRule,
  CiService,
  CiTrigger,
  REPORT_TYPES,
  ReportType,
  VariableMap,
} from './ci-config.types';

/** Where a configuration is read from in the repository. */
export const CI_CONFIG_PATH = '.gitlab-ci.yml';
export const DEFAULT_STAGES = ['build', 'test', 'deploy'];
/** GitLab's limits. */
export const MAX_INCLUDES = 150;
export const MAX_EXTENDS_DEPTH = 11;
export const MAX_NEEDS = 50;
export const MAX_RETRY = 2;
/** GitLab's `max_yaml_size_bytes` default: a configuration file larger than this is refused. */
export const MAX_CONFIG_BYTES = 1024 * 1024;
/** GitLab's words for a configuration over that size. */
export const YAML_TOO_BIG = 'The parsed YAML is too big';

/** Thrown by a file reader for a file over `MAX_CONFIG_BYTES` (it is not read). */
export class CiConfigTooLargeError extends Error {
  constructor(readonly path: string) {
    super(`${path}: ${YAML_TOO_BIG}`);
  }
}

const ROOT_KEYWORDS = new Set([
  'default',
  'include',
  'stages',
  'types',
  'variables',
  'workflow',
  'image',
  'services',
  'before_script',
  'after_script',
  'cache',
  'spec',
]);
const DEFAULT_KEYWORDS = new Set([
  'after_script',
  'artifacts',
  'before_script',
  'cache',
  'hooks',
  'id_tokens',
  'image',
  'interruptible',
  'retry',
  'services',
  'tags',
  'timeout',
]);
const JOB_KEYWORDS = new Set([
  'after_script',
  'allow_failure',
  'artifacts',
  'before_script',
  'cache',
  'coverage',
  'dast_configuration',
  'dependencies',
  'environment',
  'except',
  'extends',
  'hooks',
  'id_tokens',
  'identity',
  'image',
  'inherit',
  'interruptible',
  'manual_confirmation',
  'needs',
  'only',
  'pages',
  'parallel',
  'publish',
  'release',
  'resource_group',
  'retry',
  'rules',
  'script',
  'secrets',
  'services',
  'stage',
  'start_in',
  'tags',
  'timeout',
  'trigger',
  'type',
  'variables',
  'when',
]);
const BRIDGE_KEYWORDS = new Set([
  'allow_failure',
  'extends',
  'needs',
  'only',
  'except',
  'rules',
  'stage',
  'trigger',
  'variables',
  'when',
  'inherit',
  'environment',
  'resource_group',
  'type',
]);
const WHEN_VALUES: readonly JobWhen[] = ['on_success', 'on_failure', 'always', 'manual', 'delayed', 'never'];
const RULE_KEYWORDS = new Set(['if', 'changes', 'exists', 'when', 'allow_failure', 'variables', 'needs', 'start_in', 'interruptible']);
const ARTIFACT_KEYWORDS = new Set(['name', 'untracked', 'paths', 'exclude', 'when', 'expire_in', 'expose_as', 'public', 'access', 'reports']);
export const RETRY_WHEN_VALUES = [
  'always',
  'unknown_failure',
  'script_failure',
  'api_failure',
  'stuck_or_timeout_failure',
  'runner_system_failure',
  'runner_unsupported',
  'stale_schedule',
  'job_execution_timeout',
  'archived_failure',
  'unmet_prerequisites',
  'scheduler_failure',
  'data_integrity_failure',
];

type Hash = Record<string, unknown>;
const isHash = (value: unknown): value is Hash =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value));
const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Collects errors; validation goes on after one so that the user sees them all. */
class Problems {
  readonly list: string[] = [];
  add(message: string): void {
    if (!this.list.includes(message)) this.list.push(message);
  }
}

/** Deep merge as GitLab's `deep_merge` for `include` and `extends`: hashes merge, everything else is replaced. */
export function deepMerge(base: Hash, override: Hash): Hash {
  const out: Hash = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const current = out[key];
    out[key] = isHash(current) && isHash(value) ? deepMerge(current, value) : value;
  }
  return out;
}

function parseYaml(text: string, problems: Problems, where: string): Hash | null {
  if (Buffer.byteLength(text) > MAX_CONFIG_BYTES) {
    problems.add(`${where}: ${YAML_TOO_BIG}`);
    return null;
  }
  const document = parseDocument(text, { merge: true, uniqueKeys: false, prettyErrors: true, customTags: [referenceTag] });
  if (document.errors.length > 0) {
    // The first line names the position ("… at line 2, column 11:").
    problems.add(`${where}: ${document.errors[0].message.split('\n')[0].replace(/:$/, '')}`);
    return null;
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    problems.add(`${where}: ${(error as Error).message}`);
    return null;
  }
  if (!isHash(value)) {
    problems.add('Invalid configuration format');
    return null;
  }
  return value;
}

/** `!reference [job, key, ...]`: kept as a marker, resolved after `extends`. */
class Reference {
  constructor(readonly path: string[]) {}
}
const referenceTag = {
  tag: '!reference',
  collection: 'seq' as const,
  identify: (value: unknown) => value instanceof Reference,
  resolve(seq: { items: unknown[]; toJSON(): unknown }) {
    const path = seq.toJSON();
    return new Reference(Array.isArray(path) ? path.map(String) : []);
  },
};

function localIncludes(value: unknown, problems: Problems): string[] {
  const entries = Array.isArray(value) ? value : [value];
  const paths: string[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') {
      if (/^https?:\/\//.test(entry)) problems.add(`Remote file \`${entry}\` is not supported: only \`include: local\` is`);
      else paths.push(entry);
    } else if (isHash(entry) && typeof entry.local === 'string') {
      paths.push(entry.local);
    } else if (isHash(entry)) {
      const kind =
        Object.keys(entry).find((key) => ['remote', 'project', 'template', 'component', 'file', 'artifact'].includes(key)) ?? Object.keys(entry)[0] ?? '';
      problems.add(`include:${kind} is not supported: only \`include: local\` is`);
    } else {
      problems.add('include config should be a hash, a string or an array of hashes and strings');
    }
  }
  return paths.map((path) => path.replace(/^\/+/, ''));
}

/** Reads the root file and every `include: local`, merging them (the including file wins). */
async function expandIncludes(root: Hash, readFile: CiFileReader, problems: Problems, seen: Set<string>, depth: number): Promise<Hash> {
  if (root.include === undefined) return root;
  const { include, ...rest } = root;
  let merged: Hash = {};
  for (const path of localIncludes(include, problems)) {
    if (seen.has(path)) {
      problems.add(`Local file \`${path}\` is included more than once`);
      continue;
    }
    seen.add(path);
    if (seen.size > MAX_INCLUDES) {
      problems.add(`Maximum of ${MAX_INCLUDES} nested includes are allowed!`);
      return rest;
    }
    if (path.includes('*')) {
      problems.add(`Local file \`${path}\`: wildcard paths are not supported`);
      continue;
    }
    if (!/\.ya?ml$/.test(path)) {
      problems.add(`Local file \`${path}\` does not have a valid YAML extension!`);
      continue;
    }
    let text: string | null;
    try {
      text = await readFile(path);
    } catch (error) {
      if (!(error instanceof CiConfigTooLargeError)) throw error;
      problems.add(`Local file \`${path}\`: ${YAML_TOO_BIG}`);
      continue;
    }
    if (text === null) {
      problems.add(`Local file \`${path}\` does not exist!`);
      continue;
    }
    const included = parseYaml(text, problems, `Local file \`${path}\``);
    if (!included) continue;
    if (depth >= 100) {
      problems.add('Nested includes are limited to 100 levels');
      continue;
    }
    merged = deepMerge(merged, await expandIncludes(included, readFile, problems, seen, depth + 1));
  }
  return deepMerge(merged, rest);
}

/** Every job and hidden job with its `extends` merged in (bases first, in order, the job itself last). */
function resolveExtends(entries: Record<string, Hash>, problems: Problems): Record<string, Hash> {
  const resolved: Record<string, Hash> = {};
  const resolve = (name: string, chain: string[]): Hash | null => {
    if (resolved[name]) return resolved[name];
    const job = entries[name];
    if (chain.includes(name)) {
      problems.add(`${chain[0]}: circular dependency detected in \`extends\``);
      return null;
    }
    if (chain.length > MAX_EXTENDS_DEPTH) {
      problems.add(`${chain[0]}: nesting too deep in \`extends\``);
      return null;
    }
    const bases = job.extends === undefined ? [] : typeof job.extends === 'string' ? [job.extends] : isStringArray(job.extends) ? job.extends : null;
    if (bases === null) {
      problems.add(`jobs:${name}:extends config should be an array of strings or a string`);
      return null;
    }
    let merged: Hash = {};
    for (const base of bases) {
      if (!entries[base]) {
        problems.add(`${name}: unknown keys in \`extends\` (${base})`);
        return null;
      }
      const baseJob = resolve(base, [...chain, name]);
      if (!baseJob) return null;
      merged = deepMerge(merged, baseJob);
    }
    const { extends: _extends, ...own } = job;
    resolved[name] = deepMerge(merged, own);
    return resolved[name];
  };
  for (const name of Object.keys(entries)) resolve(name, []);
  return resolved;
}

/** Replaces `!reference [name, key...]` markers with the referenced values (one level of nesting, as GitLab allows up to 10). */
function resolveReferences(value: unknown, root: Record<string, Hash>, problems: Problems, depth = 0): unknown {
  if (value instanceof Reference) {
    if (depth > 10) {
      problems.add('!reference: too many nested references');
      return null;
    }
    let target: unknown = root;
    for (const key of value.path) target = isHash(target) ? target[key] : undefined;
    if (target === undefined) {
      problems.add(`!reference [${value.path.join(', ')}] could not be found`);
      return null;
    }
    return resolveReferences(target, root, problems, depth + 1);
  }
  if (Array.isArray(value)) {
    // A reference inside a script array is spliced in (GitLab flattens nested script arrays).
    return value.map((item) => resolveReferences(item, root, problems, depth));
  }
  if (isHash(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveReferences(item, root, problems, depth)]));
  return value;
}

function scriptOf(value: unknown, where: string, problems: Problems): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  const out: string[] = [];
  const walk = (item: unknown, depth: number): boolean => {
    if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') {
      out.push(String(item));
      return true;
    }
    if (Array.isArray(item) && depth < 10) return item.every((inner) => walk(inner, depth + 1));
    return false;
  };
  if (!Array.isArray(value) || !value.every((item) => walk(item, 1))) {
    problems.add(`${where} config should be a string or a nested array of strings up to 10 levels deep`);
    return [];
  }
  return out;
}

export const VARIABLE_NAME = /^[a-zA-Z0-9_]+$/;

function variablesOf(value: unknown, where: string, problems: Problems): VariableMap {
  if (value === undefined || value === null) return {};
  if (!isHash(value)) {
    problems.add(`${where} config should be a hash of key value pairs`);
    return {};
  }
  const out: VariableMap = {};
  for (const [key, raw] of Object.entries(value)) {
    if (!VARIABLE_NAME.test(key)) {
      problems.add(`${where} config uses invalid data keys: ${key}`);
      continue;
    }
    let item = raw;
    if (isHash(raw)) {
      const unknown = Object.keys(raw).filter((k) => !['value', 'description', 'expand', 'options'].includes(k));
      if (unknown.length > 0) {
        problems.add(`${where}:${key} config contains unknown keys: ${unknown.join(', ')}`);
        continue;
      }
      item = raw.value ?? '';
    }
    if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') out[key] = String(item);
    else if (item === null) out[key] = '';
    else problems.add(`${where} config should be a hash of key value pairs, value can be a hash`);
  }
  return out;
}

function imageOf(value: unknown, where: string, problems: Problems): CiImage | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return { name: value };
  if (isHash(value) && typeof value.name === 'string') {
    const unknown = Object.keys(value).filter((k) => !['name', 'entrypoint', 'pull_policy', 'docker', 'kubernetes'].includes(k));
    if (unknown.length > 0) problems.add(`${where} config contains unknown keys: ${unknown.join(', ')}`);
    const image: CiImage = { name: value.name };
    if (isStringArray(value.entrypoint)) image.entrypoint = value.entrypoint;
    if (typeof value.pull_policy === 'string') image.pull_policy = [value.pull_policy];
    else if (isStringArray(value.pull_policy)) image.pull_policy = value.pull_policy;
    return image;
  }
  problems.add(`${where} config should be a hash or a string`);
  return null;
}

function servicesOf(value: unknown, where: string, problems: Problems): CiService[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.add(`${where} config should be a array`);
    return [];
  }
  const out: CiService[] = [];
  value.forEach((item, index) => {
    if (typeof item === 'string') {
      out.push({ name: item });
      return;
    }
    if (!isHash(item) || typeof item.name !== 'string') {
      problems.add(`${where}:service config should be a hash or a string`);
      return;
    }
    const unknown = Object.keys(item).filter(
      (k) => !['name', 'alias', 'entrypoint', 'command', 'variables', 'pull_policy', 'docker', 'kubernetes'].includes(k),
    );
    if (unknown.length > 0) problems.add(`${where}:service config contains unknown keys: ${unknown.join(', ')}`);
    const service: CiService = { name: item.name };
    if (typeof item.alias === 'string') service.alias = item.alias;
    if (isStringArray(item.entrypoint)) service.entrypoint = item.entrypoint;
    if (isStringArray(item.command)) service.command = item.command;
    if (item.variables !== undefined) service.variables = variablesOf(item.variables, `${where}:${index}:variables`, problems);
    out.push(service);
  });
  return out;
}

function whenOf(value: unknown, where: string, problems: Problems, allowed: readonly string[] = WHEN_VALUES): JobWhen | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && allowed.includes(value)) return value as JobWhen;
  problems.add(`${where} when should be one of: ${allowed.join(', ')}`);
  return undefined;
}

function changesOf(value: unknown, where: string, problems: Problems): string[] | undefined {
  if (value === undefined) return undefined;
  if (isStringArray(value)) return value;
  if (isHash(value) && isStringArray(value.paths)) return value.paths;
  problems.add(`${where} changes should be an array of strings or a hash with paths`);
  return undefined;
}

function rulesOf(value: unknown, where: string, problems: Problems): CiRule[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    problems.add(`${where} config should be an array of hashes`);
    return null;
  }
  const rules: CiRule[] = [];
  for (const raw of value.flat(1)) {
    if (!isHash(raw)) {
      problems.add(`${where}:rule config should be a hash`);
      continue;
    }
    const unknown = Object.keys(raw).filter((key) => !RULE_KEYWORDS.has(key));
    if (unknown.length > 0) problems.add(`${where}:rule config contains unknown keys: ${unknown.join(', ')}`);
    const rule: CiRule = {};
    if (raw.if !== undefined) {
      if (typeof raw.if !== 'string') problems.add(`${where}:rule if should be a string`);
      else {
        try {
          parseCiExpression(raw.if);
          rule.if = raw.if;
        } catch (error) {
          if (error instanceof CiExpressionError) problems.add(`${where}:rule if invalid expression syntax`);
          else throw error;
        }
      }
    }
    rule.changes = changesOf(raw.changes, `${where}:rule`, problems);
    if (raw.exists !== undefined) {
      if (isStringArray(raw.exists)) rule.exists = raw.exists;
      else if (isHash(raw.exists) && isStringArray(raw.exists.paths)) rule.exists = raw.exists.paths;
      else problems.add(`${where}:rule exists should be an array of strings`);
    }
    rule.when = whenOf(raw.when, `${where}:rule`, problems);
    if (raw.allow_failure !== undefined) {
      if (typeof raw.allow_failure === 'boolean') rule.allowFailure = raw.allow_failure;
      else problems.add(`${where}:rule allow_failure should be a boolean value`);
    }
    if (raw.variables !== undefined) rule.variables = variablesOf(raw.variables, `${where}:rule:variables`, problems);
    if (rule.when === 'delayed' && raw.start_in === undefined) problems.add(`${where}:rule start in can't be blank`);
    const ruleStartIn = startInOf(raw.start_in, rule.when === 'delayed', false, `${where}:rule`, problems);
    if (ruleStartIn !== null) rule.startIn = ruleStartIn;
    for (const key of Object.keys(rule) as (keyof CiRule)[]) if (rule[key] === undefined) delete rule[key];
    rules.push(rule);
  }
  return rules;
}

/** `coverage:` (GitLab's `RegexpValidator`): a `/pattern/flags` that RE2 compiles. */
function coverageOf(value: unknown, where: string, problems: Problems): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && UntrustedRegexp.matchesSyntax(value) && UntrustedRegexp.fabricateOrNull(value)) return value;
  problems.add(`${where} config must be a regular expression with re2 syntax`);
  return null;
}

/** GitLab's `ArrayOfStringsOrRegexpsValidator` for one entry: a `/pattern/flags` entry must compile with RE2. */
const isStringOrRegexp = (entry: string): boolean => !UntrustedRegexp.matchesSyntax(entry) || UntrustedRegexp.fabricateOrNull(entry) !== null;

function refFilterOf(value: unknown, where: string, problems: Problems): CiRefFilter | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return { refs: [value] };
  if (isStringArray(value)) {
    if (!value.every(isStringOrRegexp)) problems.add(`${where} config should be an array of strings or regular expressions using re2 syntax`);
    return { refs: value };
  }
  if (isHash(value)) {
    const unknown = Object.keys(value).filter((key) => !['refs', 'variables', 'changes', 'kubernetes'].includes(key));
    if (unknown.length > 0) problems.add(`${where} config contains unknown keys: ${unknown.join(', ')}`);
    const filter: CiRefFilter = {};
    if (value.refs !== undefined) {
      if (isStringArray(value.refs) && value.refs.every(isStringOrRegexp)) filter.refs = value.refs;
      else problems.add(`${where} refs should be an array of strings or regular expressions using re2 syntax`);
    }
    if (value.variables !== undefined) {
      if (isStringArray(value.variables)) {
        for (const expression of value.variables) {
          try {
            parseCiExpression(expression);
          } catch {
            problems.add(`${where} variables invalid expression syntax`);
          }
        }
        filter.variables = value.variables;
      } else problems.add(`${where} variables should be an array of strings`);
    }
    const changes = changesOf(value.changes, where, problems);
    if (changes) filter.changes = changes;
    return filter;
  }
  problems.add(`${where} config should be an array of strings or a hash`);
  return null;
}

function needsOf(value: unknown, where: string, problems: Problems): CiNeed[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    problems.add(`${where} config can only be an array`);
    return null;
  }
  const needs: CiNeed[] = [];
  for (const item of value) {
    if (typeof item === 'string') needs.push({ job: item, artifacts: true, optional: false });
    else if (isHash(item) && typeof item.job === 'string' && item.pipeline === undefined && item.project === undefined) {
      const unknown = Object.keys(item).filter((key) => !['job', 'artifacts', 'optional'].includes(key));
      if (unknown.length > 0) problems.add(`${where}:need config contains unknown keys: ${unknown.join(', ')}`);
      needs.push({ job: item.job, artifacts: item.artifacts !== false, optional: item.optional === true });
    } else if (isHash(item) && (item.pipeline !== undefined || item.project !== undefined)) {
      problems.add(`${where}: needs from other pipelines or projects are not supported`);
    } else problems.add(`${where}:need config should be a string or a hash`);
  }
  if (needs.length > MAX_NEEDS) problems.add(`${where} config has too many entries (maximum ${MAX_NEEDS})`);
  return needs;
}

function retryOf(value: unknown, where: string, problems: Problems): CiRetry {
  const none: CiRetry = { max: 0, when: ['always'], exitCodes: [] };
  if (value === undefined || value === null) return none;
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0 || value > MAX_RETRY) {
      problems.add(`${where} config must be a non negative integer less than or equal to ${MAX_RETRY}`);
      return none;
    }
    return { ...none, max: value };
  }
  if (!isHash(value)) {
    problems.add(`${where} config has to be either an integer or a hash`);
    return none;
  }
  const unknown = Object.keys(value).filter((key) => !['max', 'when', 'exit_codes'].includes(key));
  if (unknown.length > 0) problems.add(`${where} config contains unknown keys: ${unknown.join(', ')}`);
  const max = value.max ?? 0;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 0 || max > MAX_RETRY)
    problems.add(`${where} max config must be a non negative integer less than or equal to ${MAX_RETRY}`);
  const when = value.when === undefined ? ['always'] : typeof value.when === 'string' ? [value.when] : isStringArray(value.when) ? value.when : null;
  if (!when) problems.add(`${where} when should be an array of strings or a string`);
  for (const reason of when ?? []) if (!RETRY_WHEN_VALUES.includes(reason)) problems.add(`${where} when contains unknown values: ${reason}`);
  const exitCodes =
    value.exit_codes === undefined
      ? []
      : typeof value.exit_codes === 'number'
        ? [value.exit_codes]
        : Array.isArray(value.exit_codes) && value.exit_codes.every(Number.isInteger)
          ? (value.exit_codes as number[])
          : null;
  if (!exitCodes) problems.add(`${where} exit_codes should be an array of integers or an integer`);
  return { max: typeof max === 'number' ? max : 0, when: when ?? ['always'], exitCodes: exitCodes ?? [] };
}

function artifactsOf(value: unknown, where: string, problems: Problems): CiArtifacts | null {
  if (value === undefined || value === null) return null;
  if (!isHash(value)) {
    problems.add(`${where} config should be a hash`);
    return null;
  }
  const unknown = Object.keys(value).filter((key) => !ARTIFACT_KEYWORDS.has(key));
  if (unknown.length > 0) problems.add(`${where} config contains unknown keys: ${unknown.join(', ')}`);
  const paths = value.paths === undefined ? [] : isStringArray(value.paths) ? value.paths : null;
  if (!paths) problems.add(`${where} paths should be an array of strings`);
  const exclude = value.exclude === undefined ? [] : isStringArray(value.exclude) ? value.exclude : null;
  if (!exclude) problems.add(`${where} exclude should be an array of strings`);
  const when = value.when ?? 'on_success';
  if (when !== 'on_success' && when !== 'on_failure' && when !== 'always') problems.add(`${where} when should be on_success, on_failure or always`);
  let expireIn: string | null = null;
  if (value.expire_in !== undefined && value.expire_in !== null) {
    const text = String(value.expire_in);
    if (text !== 'never' && parseCiDuration(text) === null) problems.add(`${where} expire in should be a duration`);
    else expireIn = text;
  }
  const reports: Partial<Record<ReportType, unknown>> = {};
  if (value.reports !== undefined) {
    if (!isHash(value.reports)) problems.add(`${where}:reports config should be a hash`);
    else {
      for (const [type, files] of Object.entries(value.reports)) {
        if (!(REPORT_TYPES as readonly string[]).includes(type)) {
          problems.add(`${where}:reports config contains unknown keys: ${type}`);
          continue;
        }
        if (type === 'coverage_report') reports.coverage_report = files;
        else if (typeof files === 'string') reports[type as ReportType] = [files];
        else if (isStringArray(files)) reports[type as ReportType] = files;
        else problems.add(`${where}:reports ${type} should be an array of strings or a string`);
      }
    }
  }
  return {
    ...(typeof value.name === 'string' ? { name: value.name } : {}),
    paths: paths ?? [],
    exclude: exclude ?? [],
    untracked: value.untracked === true,
    when: when as CiArtifacts['when'],
    expireIn,
    reports,
  };
}

function triggerOf(value: unknown, where: string, problems: Problems): CiTrigger | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return { project: value };
  if (!isHash(value)) {
    problems.add(`${where} config should be a hash or a string`);
    return null;
  }
  const unknown = Object.keys(value).filter((key) => !['project', 'branch', 'strategy', 'include', 'forward'].includes(key));
  if (unknown.length > 0) problems.add(`${where} config contains unknown keys: ${unknown.join(', ')}`);
  const trigger: CiTrigger = {};
  if (value.project !== undefined && value.include !== undefined) problems.add(`${where} config contains both project and include`);
  if (typeof value.project === 'string') trigger.project = value.project;
  if (typeof value.branch === 'string') trigger.branch = value.branch;
  if (value.strategy !== undefined) {
    if (value.strategy === 'depend') trigger.strategy = 'depend';
    else problems.add(`${where} strategy should be depend`);
  }
  if (value.include !== undefined) {
    const includeProblems = new Problems();
    trigger.include = localIncludes(value.include, includeProblems);
    for (const problem of includeProblems.list) problems.add(`${where}:include ${problem}`);
  }
  if (isHash(value.forward))
    trigger.forward = { yaml_variables: value.forward.yaml_variables !== false, pipeline_variables: value.forward.pipeline_variables === true };
  if (!trigger.project && !trigger.include) problems.add(`${where} config must specify either project or include`);
  return trigger;
}

function tagsOf(value: unknown, where: string, problems: Problems): string[] {
  if (value === undefined || value === null) return [];
  if (isStringArray(value)) return value;
  problems.add(`${where} config should be an array of strings`);
  return [];
}

function timeoutOf(value: unknown, where: string, problems: Problems): number | null {
  if (value === undefined || value === null) return null;
  // GitLab reads only a string (ChronicDuration): a bare YAML number is not a duration.
  const seconds = typeof value === 'string' ? parseCiDuration(value) : null;
  if (seconds === null || seconds < 600 || seconds > 30 * 86400) {
    // GitLab: between 10 minutes and 1 month.
    problems.add(`${where} config should be a duration between 10 minutes and 1 month`);
    return null;
  }
  return seconds;
}

/** The `inherit:` of a job: which defaults and global variables it takes. */
function inheritOf(value: unknown): { defaults: (key: string) => boolean; variables: (key: string) => boolean } {
  const pick = (entry: unknown) => (key: string) => entry === undefined || entry === true || (Array.isArray(entry) && entry.includes(key));
  if (!isHash(value)) return { defaults: () => true, variables: () => true };
  return { defaults: pick(value.default), variables: pick(value.variables) };
}

/** The longest `start_in` GitLab accepts. */
export const START_IN_LIMIT_SECONDS = 7 * 86400;

/**
 * `start_in` of a delayed job (GitLab's `DurationValidator` with a one-week limit); it must be
 * absent when the job is not delayed (a job with `rules` takes it from its rule).
 */
function startInOf(value: unknown, delayed: boolean, hasRules: boolean, where: string, problems: Problems): string | null {
  if (value === undefined || value === null) return null;
  if (!delayed || hasRules) {
    problems.add(`${where} start in must be blank`);
    return null;
  }
  // GitLab reads only a string (ChronicDuration): a bare YAML number is not a duration.
  const seconds = typeof value === 'string' ? parseCiDuration(value) : null;
  if (seconds === null) {
    problems.add(`${where} start in should be a duration`);
    problems.add(`${where} start in should not exceed the limit`);
    return null;
  }
  if (seconds > START_IN_LIMIT_SECONDS) {
    problems.add(`${where} start in should not exceed the limit`);
    return null;
  }
  return value as string;
}

function buildJob(name: string, raw: Hash, defaults: Hash, globalVariables: VariableMap, stages: string[], problems: Problems): CiJobDefinition | null {
  const where = `jobs:${name}`;
  const isBridge = raw.trigger !== undefined;
  const allowed = isBridge ? BRIDGE_KEYWORDS : JOB_KEYWORDS;
  const unknown = Object.keys(raw).filter((key) => !allowed.has(key));
  if (unknown.length > 0) {
    if (isBridge) problems.add(`${where} config contains unknown keys: ${unknown.join(', ')}`);
    else problems.add(`${where} config contains unknown keys: ${unknown.join(', ')}`);
  }
  if (!isBridge && raw.script === undefined && raw.run === undefined) problems.add(`${where} config should implement the script:, run:, or trigger: keyword`);
  if (raw.rules !== undefined && (raw.only !== undefined || raw.except !== undefined))
    problems.add(`${where} config key may not be used with \`rules\`: ${raw.only !== undefined ? 'only' : 'except'}`);
  const inherit = inheritOf(raw.inherit);
  const pick = (key: string): unknown => (raw[key] !== undefined ? raw[key] : !isBridge && inherit.defaults(key) ? defaults[key] : undefined);
  const stage = raw.stage ?? raw.type ?? 'test';
  if (typeof stage !== 'string' || !stages.includes(stage))
    problems.add(`${name} job: chosen stage ${String(stage)} does not exist; available stages are ${stages.join(', ')}`);
  const when = whenOf(raw.when, where, problems) ?? 'on_success';
  if (when === 'delayed' && raw.start_in === undefined) problems.add(`${where} start in should be specified for delayed job`);
  const startIn = startInOf(raw.start_in, when === 'delayed', raw.rules !== undefined, where, problems);
  let allowFailure: boolean | null = null;
  let allowFailureExitCodes: number[] = [];
  if (raw.allow_failure !== undefined) {
    if (typeof raw.allow_failure === 'boolean') allowFailure = raw.allow_failure;
    else if (isHash(raw.allow_failure) && raw.allow_failure.exit_codes !== undefined) {
      const codes = raw.allow_failure.exit_codes;
      allowFailureExitCodes = typeof codes === 'number' ? [codes] : Array.isArray(codes) ? codes.filter((c): c is number => Number.isInteger(c)) : [];
      allowFailure = false;
    } else problems.add(`${where} allow_failure should be a hash or a boolean value`);
  }
  const variables: VariableMap = {};
  for (const [key, value] of Object.entries(globalVariables)) if (inherit.variables(key)) variables[key] = value;
  Object.assign(variables, variablesOf(raw.variables, `${where}:variables`, problems));
  const dependencies = raw.dependencies === undefined ? null : isStringArray(raw.dependencies) ? raw.dependencies : null;
  if (raw.dependencies !== undefined && dependencies === null) problems.add(`${where} dependencies should be an array of strings`);
  const cache = pick('cache');
  return {
    name,
    stage: typeof stage === 'string' ? stage : 'test',
    kind: isBridge ? 'bridge' : 'build',
    script: scriptOf(raw.script, `${where}:script`, problems),
    beforeScript: scriptOf(pick('before_script'), `${where}:before_script`, problems),
    afterScript: scriptOf(pick('after_script'), `${where}:after_script`, problems),
    image: imageOf(pick('image'), `${where}:image`, problems),
    services: servicesOf(pick('services'), `${where}:services`, problems),
    variables,
    when,
    allowFailure,
    allowFailureExitCodes,
    needs: needsOf(raw.needs, `${where}:needs`, problems),
    rules: rulesOf(raw.rules, `${where}:rules`, problems),
    only: refFilterOf(raw.only, `${where}:only`, problems),
    except: refFilterOf(raw.except, `${where}:except`, problems),
    tags: tagsOf(pick('tags'), `${where}:tags`, problems),
    timeoutSeconds: timeoutOf(pick('timeout'), `${where}:timeout`, problems),
    retry: retryOf(pick('retry'), `${where}:retry`, problems),
    artifacts: artifactsOf(pick('artifacts'), `${where}:artifacts`, problems),
    dependencies,
    cache: cache === undefined || cache === null ? [] : Array.isArray(cache) ? cache : [cache],
    coverage: coverageOf(raw.coverage, `${where}:coverage`, problems),
    interruptible: pick('interruptible') === true,
    startIn,
    environment:
      typeof raw.environment === 'string' ? raw.environment : isHash(raw.environment) && typeof raw.environment.name === 'string' ? raw.environment.name : null,
    trigger: triggerOf(raw.trigger, `${where}:trigger`, problems),
  };
}

/** Checks `needs` and `dependencies` against the jobs and their stages (GitLab's messages). */
function checkJobReferences(jobs: CiJobDefinition[], stages: string[], problems: Problems): void {
  const byName = new Map(jobs.map((job) => [job.name, job]));
  const stageIndex = (stage: string): number => stages.indexOf(stage);
  for (const job of jobs) {
    for (const need of job.needs ?? []) {
      const needed = byName.get(need.job);
      if (!needed) {
        if (!need.optional) problems.add(`${job.name} job: undefined need: ${need.job}`);
      } else if (stageIndex(needed.stage) > stageIndex(job.stage)) problems.add(`${job.name} job: need ${need.job} is not defined in current or prior stages`);
    }
    for (const dependency of job.dependencies ?? []) {
      const needed = byName.get(dependency);
      if (!needed) problems.add(`${job.name} job: undefined dependency: ${dependency}`);
      else if (stageIndex(needed.stage) >= stageIndex(job.stage) && !job.needs?.some((need) => need.job === dependency))
        problems.add(`${job.name} job: dependency ${dependency} is not defined in current or prior stages`);
    }
  }
}

function stagesOf(value: unknown, problems: Problems): string[] {
  let stages = DEFAULT_STAGES;
  if (value !== undefined && value !== null) {
    const flat = Array.isArray(value) ? value.flat(2) : value;
    if (isStringArray(flat)) stages = [...new Set(flat)];
    else problems.add('stages config should be an array of strings');
  }
  return ['.pre', ...stages.filter((stage) => stage !== '.pre' && stage !== '.post'), '.post'];
}

/**
 * Reads a `.gitlab-ci.yml` (with its `include: local` files from `readFile`) and validates it
 * as GitLab does: every error found is listed, in GitLab's words, and an unknown keyword is
 * named. The result has every visible job with `extends`, `default:` and global values applied.
 */
export async function parseCiConfig(text: string, readFile: CiFileReader): Promise<CiConfigResult> {
  const problems = new Problems();
  const parsed = parseYaml(text, problems, 'Invalid configuration format');
  if (!parsed) return { ok: false, errors: problems.list.map((problem) => problem.replace(/^Invalid configuration format: /, '')) };
  const root = await expandIncludes(parsed, readFile, problems, new Set(), 0);
  if (problems.list.length > 0) return { ok: false, errors: problems.list };

  const stages = stagesOf(root.stages ?? root.types, problems);
  const globalVariables = variablesOf(root.variables, 'variables', problems);
  let defaults: Hash = {};
  for (const key of ['image', 'services', 'before_script', 'after_script', 'cache']) if (root[key] !== undefined) defaults[key] = root[key];
  if (root.default !== undefined) {
    if (!isHash(root.default)) problems.add('default config should be a hash');
    else {
      const unknown = Object.keys(root.default).filter((key) => !DEFAULT_KEYWORDS.has(key));
      if (unknown.length > 0) problems.add(`default config contains unknown keys: ${unknown.join(', ')}`);
      defaults = { ...defaults, ...root.default };
    }
  }
  let workflowRules: CiRule[] | null = null;
  if (root.workflow !== undefined) {
    if (!isHash(root.workflow)) problems.add('workflow config should be a hash');
    else {
      const unknown = Object.keys(root.workflow).filter((key) => !['rules', 'name', 'auto_cancel'].includes(key));
      if (unknown.length > 0) problems.add(`workflow config contains unknown keys: ${unknown.join(', ')}`);
      workflowRules = rulesOf(root.workflow.rules, 'workflow:rules', problems);
    }
  }

  const entries: Record<string, Hash> = {};
  for (const [name, value] of Object.entries(root)) {
    if (ROOT_KEYWORDS.has(name)) continue;
    if (name.startsWith('.')) {
      if (isHash(value)) entries[name] = value;
      continue;
    }
    if (!isHash(value)) {
      problems.add(`jobs:${name} config should implement the script:, run:, or trigger: keyword`);
      continue;
    }
    entries[name] = value;
  }
  const resolved = resolveExtends(entries, problems);
  const jobs: CiJobDefinition[] = [];
  for (const [name, raw] of Object.entries(resolved)) {
    if (name.startsWith('.')) continue;
    const withReferences = resolveReferences(raw, { ...resolved, ...(defaults ? { default: defaults } : {}) }, problems) as Hash;
    const job = buildJob(name, withReferences, defaults, globalVariables, stages, problems);
    if (job) jobs.push(job);
  }
  if (jobs.length === 0 && problems.list.length === 0) problems.add('jobs config should contain at least one visible job');
  checkJobReferences(jobs, stages, problems);
  if (problems.list.length > 0) return { ok: false, errors: problems.list };
  const config: CiConfig = { stages, variables: globalVariables, workflowRules, jobs };
  return { ok: true, config };
}

/** The errors of a result as `yaml_errors` shows them (GitLab joins them with ", "). */
export const yamlErrorsText = (errors: readonly string[]): string => errors.join(', ');
