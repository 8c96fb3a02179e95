import { parse, type IParseOptions } from 'qs';

/**
 * Limits of the query string and form body parser. Rack-like semantics (what GitLab clients
 * expect): `name[]=` arrays, `name[key]=` hashes, `name[0][key]=` arrays of hashes, `+` is a
 * space and `%2B` a literal plus, a repeated plain key keeps its last value.
 */
export interface ParameterLimits {
  /** Most `key=value` pairs accepted (beyond: 400, never silently truncated). */
  parameterLimit: number;
  /** Largest array (`name[]=` repetitions or `name[i]` index) accepted. */
  arrayLimit: number;
  /** Deepest bracket nesting accepted (`a[b][c]` has depth 2). */
  depth: number;
}

export const DEFAULT_PARAMETER_LIMITS: ParameterLimits = { parameterLimit: 10_000, arrayLimit: 1_000, depth: 10 };

/** Marks a query object whose string could not be parsed (see `queryParseError`). */
const QUERY_PARSE_ERROR = Symbol.for('service-api.query-parse-error');

export type ParsedParameters = Record<string, unknown>;

export function parameterParseOptions(limits: ParameterLimits): IParseOptions {
  return {
    depth: limits.depth,
    strictDepth: true,
    arrayLimit: limits.arrayLimit,
    parameterLimit: limits.parameterLimit,
    throwOnLimitExceeded: true,
    duplicates: 'last',
    allowDots: false,
    allowPrototypes: false,
    comma: false,
    charset: 'utf-8',
  };
}

/** Parses `a=1&b[]=2` (no leading `?`). Throws a RangeError when a limit is exceeded. */
export function parseParameters(input: string, limits: ParameterLimits = DEFAULT_PARAMETER_LIMITS): ParsedParameters {
  return parse(input, parameterParseOptions(limits)) as ParsedParameters;
}

/**
 * The `querystringParser` of the router. It runs while Fastify routes the request, where
 * a throw would escape every handler, so it never throws: a query string beyond the limits
 * yields an empty object marked with the reason, which `queryParseError` reads in a hook.
 */
export function createQuerystringParser(limits: ParameterLimits): (input: string) => ParsedParameters {
  const options = parameterParseOptions(limits);
  return (input: string) => {
    try {
      return parse(input, options) as ParsedParameters;
    } catch (error) {
      const failed: ParsedParameters = {};
      Object.defineProperty(failed, QUERY_PARSE_ERROR, {
        value: error instanceof Error ? error.message : 'malformed query string',
        enumerable: false,
      });
      return failed;
    }
  };
}

/** Why the query string of a request was refused, if it was. */
export function queryParseError(query: unknown): string | undefined {
  if (query === null || typeof query !== 'object') return undefined;
  const reason = (query as { [QUERY_PARSE_ERROR]?: string })[QUERY_PARSE_ERROR];
  return typeof reason === 'string' ? reason : undefined;
}
