import type { JobWhen } from '../status/pipeline-processing';
import type { CiConfig, CiJobDefinition, CiRefFilter, CiRule, VariableMap } from './ci-config.types';
import { evaluateCiExpression } from './ci-expression';
import { globToUntrustedRegexp, UntrustedRegexp, UntrustedRegexpError } from './untrusted-regexp';

export const PIPELINE_SOURCES = [
  'push',
  'web',
  'trigger',
  'schedule',
  'api',
  'external',
  'pipeline',
  'chat',
  'webide',
  'merge_request_event',
  'external_pull_request_event',
  'parent_pipeline',
  'ondemand_dast_scan',
  'ondemand_dast_validation',
] as const;
export type PipelineSource = (typeof PIPELINE_SOURCES)[number];

/** What the rules of a configuration are evaluated against. */
export interface SeedContext {
  source: PipelineSource;
  /** Short ref name (branch or tag). */
  ref: string;
  tag: boolean;
  /** Predefined variables of the pipeline. */
  predefined: VariableMap;
  /** Variables given to the pipeline (API, trigger): they win over every other. */
  pipelineVariables: VariableMap;
  /** Paths changed by the push; null when unknown (new branch, API, tag): `changes` is then true, as in GitLab. */
  changedFiles: readonly string[] | null;
  /** Paths of the repository at the commit (for `exists`). */
  files: readonly string[];
}

/** A job that will be created, with its rule's outcome applied. */
export interface SeededJob {
  definition: CiJobDefinition;
  stageIdx: number;
  when: JobWhen;
  allowFailure: boolean;
  /** Job variables after rules (`rules:variables` override). */
  variables: VariableMap;
  /** Names of the needed jobs present in the pipeline (null: stage ordering). */
  needs: string[] | null;
  /** `start_in` of a delayed job (its rule's, else its own). */
  startIn: string | null;
}

export type SeedResult = { ok: true; jobs: SeededJob[]; variables: VariableMap } | { ok: false; filtered: boolean; errors: string[] };

export const FILTERED_BY_WORKFLOW = 'Pipeline filtered out by workflow rules.';
export const NO_JOBS = 'No stages / jobs for this pipeline.';

function globMatches(patterns: readonly string[], paths: readonly string[] | null, variables: VariableMap): boolean {
  if (paths === null) return true;
  const matchers = patterns.flatMap((pattern) => {
    try {
      return [globToUntrustedRegexp(expandVariables(pattern, variables))];
    } catch (error) {
      // A glob RE2 cannot hold (far too long) matches nothing.
      if (error instanceof UntrustedRegexpError) return [];
      throw error;
    }
  });
  return paths.some((path) => matchers.some((glob) => glob.test(path)));
}

/** `$VAR` / `${VAR}` in a path pattern. */
export function expandVariables(text: string, variables: VariableMap): string {
  return text.replace(
    /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (_m, braced: string | undefined, bare: string | undefined) => variables[braced ?? bare ?? ''] ?? '',
  );
}

function ruleMatches(rule: CiRule, variables: VariableMap, context: SeedContext): boolean {
  if (rule.if !== undefined && !evaluateCiExpression(rule.if, variables)) return false;
  if (rule.changes !== undefined && !globMatches(rule.changes, context.changedFiles, variables)) return false;
  if (rule.exists !== undefined && !globMatches(rule.exists, context.files, variables)) return false;
  return true;
}

/** The first rule that matches; undefined when none does. */
export function firstMatchingRule(rules: readonly CiRule[], variables: VariableMap, context: SeedContext): CiRule | undefined {
  return rules.find((rule) => ruleMatches(rule, variables, context));
}

const REF_KEYWORDS: Record<string, (context: SeedContext) => boolean> = {
  branches: (c) => !c.tag && c.source !== 'merge_request_event' && c.source !== 'external_pull_request_event',
  tags: (c) => c.tag,
  api: (c) => c.source === 'api',
  external: (c) => c.source === 'external',
  pipelines: (c) => c.source === 'pipeline' || c.source === 'parent_pipeline',
  pushes: (c) => c.source === 'push',
  schedules: (c) => c.source === 'schedule',
  triggers: (c) => c.source === 'trigger',
  web: (c) => c.source === 'web',
  merge_requests: (c) => c.source === 'merge_request_event',
  external_pull_requests: (c) => c.source === 'external_pull_request_event',
  chat: (c) => c.source === 'chat',
};

function refMatches(pattern: string, context: SeedContext): boolean {
  const keyword = REF_KEYWORDS[pattern];
  if (keyword) return keyword(context);
  const name = pattern.split('@')[0];
  // GitLab's `Policy::Refs`: `/pattern/flags` runs with RE2 against the ref; anything else, an
  // invalid pattern included (the configuration check refuses those), is the ref's exact name.
  const regexp = UntrustedRegexp.fabricateOrNull(name);
  if (regexp) return context.ref.length > 0 && regexp.test(context.ref);
  return name === context.ref;
}

/** `only:` (all given conditions hold) / `except:` (any given condition holds), as GitLab's legacy filters. */
function filterMatches(filter: CiRefFilter, variables: VariableMap, context: SeedContext, mode: 'only' | 'except'): boolean {
  const checks: boolean[] = [];
  if (filter.refs) checks.push(filter.refs.some((ref) => refMatches(ref, context)));
  if (filter.variables) checks.push(filter.variables.some((expression) => evaluateCiExpression(expression, variables)));
  if (filter.changes) checks.push(globMatches(filter.changes, context.changedFiles, variables));
  if (checks.length === 0) return mode === 'only';
  return mode === 'only' ? checks.every(Boolean) : checks.some(Boolean);
}

const DEFAULT_ONLY: CiRefFilter = { refs: ['branches', 'tags'] };

/**
 * The jobs a pipeline gets from a valid configuration in `context`: workflow rules first, then
 * each job's `rules` (first match wins; `when: never` or no match leaves it out) or `only`/
 * `except`. A job that needs a job left out is an error, unless the need is optional.
 */
export function seedPipeline(config: CiConfig, context: SeedContext): SeedResult {
  let yamlGlobals: VariableMap = config.variables;
  if (config.workflowRules) {
    const rule = firstMatchingRule(config.workflowRules, { ...context.predefined, ...yamlGlobals, ...context.pipelineVariables }, context);
    if (!rule || rule.when === 'never') return { ok: false, filtered: true, errors: [FILTERED_BY_WORKFLOW] };
    // Workflow rule variables override the global ones.
    if (rule.variables) yamlGlobals = { ...yamlGlobals, ...rule.variables };
  }
  const globals: VariableMap = { ...context.predefined, ...yamlGlobals, ...context.pipelineVariables };
  const kept: SeededJob[] = [];
  for (const definition of config.jobs) {
    const ownVariables: VariableMap = { ...definition.variables };
    for (const [key, value] of Object.entries(yamlGlobals))
      if (config.variables[key] !== undefined && ownVariables[key] === config.variables[key]) ownVariables[key] = value;
    for (const [key, value] of Object.entries(yamlGlobals))
      if (config.variables[key] === undefined && ownVariables[key] === undefined) ownVariables[key] = value;
    let variables: VariableMap = { ...context.predefined, ...ownVariables, ...context.pipelineVariables };
    let when = definition.when;
    let allowFailure = definition.allowFailure ?? when === 'manual';
    let startIn = definition.startIn;
    if (definition.rules) {
      const rule = firstMatchingRule(definition.rules, variables, context);
      if (!rule) continue;
      when = rule.when ?? definition.when;
      allowFailure = rule.allowFailure ?? definition.allowFailure ?? (rule.when === 'manual' ? false : when === 'manual');
      startIn = rule.startIn ?? null;
      if (rule.variables) variables = { ...variables, ...rule.variables, ...context.pipelineVariables };
    } else {
      if (!filterMatches(definition.only ?? DEFAULT_ONLY, variables, context, 'only')) continue;
      if (definition.except && filterMatches(definition.except, variables, context, 'except')) continue;
    }
    if (when === 'never') continue;
    const jobVariables: VariableMap = {};
    for (const key of Object.keys(ownVariables)) if (variables[key] !== undefined) jobVariables[key] = variables[key];
    if (definition.rules)
      for (const rule of definition.rules)
        for (const key of Object.keys(rule.variables ?? {})) if (variables[key] !== undefined) jobVariables[key] = variables[key];
    kept.push({
      definition,
      stageIdx: config.stages.indexOf(definition.stage),
      when,
      allowFailure,
      variables: jobVariables,
      needs: null,
      startIn: when === 'delayed' ? startIn : null,
    });
  }
  const names = new Set(kept.map((job) => job.definition.name));
  const errors: string[] = [];
  for (const job of kept) {
    const needs = job.definition.needs;
    if (needs === null) continue;
    job.needs = [];
    for (const need of needs) {
      if (names.has(need.job)) job.needs.push(need.job);
      else if (!need.optional)
        errors.push(
          `'${job.definition.name}' job needs '${need.job}' job, but '${need.job}' does not exist in the pipeline. This might be because of the only, except, or rules keywords. To need a job that sometimes does not exist in the pipeline, use needs:optional.`,
        );
    }
  }
  if (errors.length > 0) return { ok: false, filtered: false, errors };
  if (kept.length === 0 || kept.every((job) => job.definition.stage === '.pre' || job.definition.stage === '.post'))
    return { ok: false, filtered: true, errors: [NO_JOBS] };
  return { ok: true, jobs: kept, variables: globals };
}
