import type { FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { DomainError } from '../errors';
import { JSON_MAX_DEPTH, jsonNestedDeeperThan } from './hostile-input';
import { parseParameters, type ParameterLimits } from './query-string';
import { routeConfigOf } from './route-config';

type Done = (error: Error | null, body?: unknown) => void;
type RawBodyParser = (request: FastifyRequest, body: Buffer, done: Done) => void;

/**
 * `application/json`: an empty body is `{}` (as Rack reads it); malformed JSON or a
 * top level that is neither an object nor an array is a 400, never a 500. Prototype
 * poisoning (`__proto__`, `constructor.prototype`) counts as malformed. A body nested deeper
 * than `JSON_MAX_DEPTH` is a 400, checked before parsing. A route declaring
 * `@RawJsonBody()` gets the bytes unparsed instead, up to `RAW_JSON_BODY_LIMIT`, so that it
 * can apply (and explain with a 400) a limit of its own.
 */
export const RAW_JSON_BODY_LIMIT = 4 * 1024 * 1024;

/** JSON is UTF-8 (RFC 8259): a `charset` parameter naming anything else is refused (415) rather than misread. */
function isUtf8Charset(contentType: string | undefined): boolean {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match === null || ['utf-8', 'utf8'].includes(match[1].toLowerCase());
}

/** As Fastify's own JSON parser is set here: `__proto__` and `constructor.prototype` keys are refused. */
const SECURE_JSON_OPTIONS = { protoAction: 'error', constructorAction: 'error' } as const;

export function createJsonBodyParser(bodyLimit: number): RawBodyParser {
  return (request, body, done) => {
    if (!isUtf8Charset(request.headers['content-type'])) {
      done(DomainError.unsupportedMediaType());
      return;
    }
    if (routeConfigOf(request).rawJsonBody) {
      done(null, body);
      return;
    }
    // The parser is registered with the larger raw-body limit; other routes keep BODY_LIMIT.
    if (body.length > bodyLimit) {
      done(DomainError.payloadTooLarge(bodyLimit));
      return;
    }
    if (jsonNestedDeeperThan(body, JSON_MAX_DEPTH)) {
      done(DomainError.badRequest(`The request body is nested deeper than ${JSON_MAX_DEPTH} levels`));
      return;
    }
    const text = body.toString('utf8');
    if (text.trim().length === 0) {
      done(null, {});
      return;
    }
    let parsed: unknown;
    try {
      parsed = secureJson.parse(text, undefined, SECURE_JSON_OPTIONS);
    } catch {
      done(DomainError.badRequest('The request body is not valid JSON'));
      return;
    }
    if (parsed === null || typeof parsed !== 'object') done(DomainError.badRequest('The request body must be a JSON object or array'));
    else done(null, parsed);
  };
}

/** `application/x-www-form-urlencoded`, with the same bracket rules as the query string. */
export function createFormBodyParser(limits: ParameterLimits): RawBodyParser {
  return (_request, body, done) => {
    try {
      done(null, parseParameters(body.toString('utf8'), limits));
    } catch (error) {
      done(DomainError.badRequest(error instanceof Error ? error.message : 'Malformed form body'));
    }
  };
}

/** `text/plain`: refused with 415 unless the route declares `@AcceptsTextPlain()`. */
export const textPlainBodyParser: RawBodyParser = (request, body, done) => {
  const config = routeConfigOf(request);
  // A route listing text/plain among its raw media types gets the bytes (e.g. job log chunks, cut anywhere).
  if (config.acceptContentTypes?.includes('text/plain') || config.acceptContentTypes?.includes('*')) done(null, body);
  else if (config.allowTextPlain) done(null, body.toString('utf8'));
  else done(DomainError.unsupportedMediaType());
};

/** Every other media type (and a body without one): 415 unless the route lists it. */
export const otherBodyParser: RawBodyParser = (request, body, done) => {
  const accepted = routeConfigOf(request).acceptContentTypes ?? [];
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (accepted.includes('*') || (mediaType !== '' && accepted.includes(mediaType))) done(null, body);
  else done(DomainError.unsupportedMediaType());
};
