import fastifyCookie from '@fastify/cookie';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@app/config';
import { DomainError } from '../errors/domain-error';
import { createFormBodyParser, createJsonBodyParser, otherBodyParser, RAW_JSON_BODY_LIMIT, textPlainBodyParser } from './body-parsers';
import { sendDomainError } from './error-reply';
import { decodeContentEncoding } from './content-encoding';
import { findMalformedString, type MalformedString } from './hostile-input';
import { createQuerystringParser, DEFAULT_PARAMETER_LIMITS, queryParseError, type ParameterLimits } from './query-string';
import { recordRoutes } from './route-recorder';
import { generateRequestId, REQUEST_ID_HEADER } from './request-id';
import { sendExactJsonContentType } from './json-content-type';
import { answerClientError } from './client-error';
import { routeConfigOf } from './route-config';

/**
 * Node's limit on the request line plus headers. Raised well above `MAX_URL_LENGTH` so that
 * an over-long URL reaches our hook and gets the spec's 414 instead of Node's bare 431.
 */
export const MAX_HEADER_SIZE = 64 * 1024;

/**
 * The Fastify adapter of every HTTP app, configured for the conventions of spec document 1:
 * - body limit from config; over it: 413;
 * - query strings and form bodies parsed with `qs` (Rack semantics, see `query-string.ts`);
 * - `Content-Encoding: gzip`/`deflate` bodies decoded, the body limit applied after decoding;
 *   other codings, and JSON in a charset other than UTF-8: 415;
 * - JSON bodies parsed strictly (400 for malformed JSON); `text/plain` and any other media
 *   type: 415 unless the route opts in (`@AcceptsTextPlain()`, `@AcceptsContentTypes()`);
 * - a wrongly percent-encoded path: 404 `{"error":"404 Not Found"}` (it matches nothing);
 *   `%2F` in a path parameter is not a separator (the router matches on the encoded path
 *   and decodes parameter values once: `/projects/a%2Fb` → `id = "a/b"`);
 * - URLs longer than `http.maxUrlLength`: 414;
 * - header, request, idle and keep-alive timeouts from `http.timeouts` (408 and close);
 * - `request.id` is the caller's `X-Request-Id` (when plain and short) or a new UUID, and
 *   is echoed in the `X-Request-Id` response header;
 * - every JSON answer is `Content-Type: application/json` exactly, as GitLab's;
 * - a NUL character or a lone UTF-16 surrogate (`"\ud800"` in JSON) in any parameter (path,
 *   query, body, header): 400, as GitLab's `HandleMalformedStrings` middleware (decided here
 *   once for every route; PostgreSQL would refuse both);
 * - Fastify logs nothing itself (the app's pino logger does).
 */
export function createFastifyAdapter(config: AppConfig): FastifyAdapter {
  const { bodyLimit, maxUrlLength, timeouts } = config.http;
  // A query string cannot hold more pairs than it has characters: the parameter limit of
  // the query never truncates what the URL length allows.
  const queryLimits: ParameterLimits = {
    ...DEFAULT_PARAMETER_LIMITS,
    parameterLimit: Math.max(DEFAULT_PARAMETER_LIMITS.parameterLimit, maxUrlLength),
  };

  const adapter = new FastifyAdapter({
    bodyLimit,
    logger: false,
    // Slow clients cannot hold connections: the head must arrive within `headersMs`, the whole
    // request (a body announced but never sent, an endless chunked body) within `requestMs`,
    // a silent connection is closed after `idleMs`, a kept-alive one after `keepAliveMs`.
    connectionTimeout: timeouts.idleMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      maxHeaderSize: MAX_HEADER_SIZE,
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // How often Node looks for expired requests: often enough for the shortest limit.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(timeouts.headersMs / 4))),
    },
    genReqId: generateRequestId,
    // A request Node's parser refuses (bad chunked framing, headers too large) or one that timed
    // out before reaching a route: the spec's error shape, then close.
    clientErrorHandler: answerClientError,
    routerOptions: {
      ignoreTrailingSlash: true,
      querystringParser: createQuerystringParser(queryLimits),
      // A parameter can be as long as the longest URL accepted (long encoded paths).
      maxParamLength: maxUrlLength,
    },
    // Errors of the router itself, raised before any hook runs.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      // A reply is thenable: sent, not returned.
      switch (error.code) {
        case 'FST_ERR_BAD_URL':
          sendDomainError(reply, DomainError.routeNotFound());
          return;
        case 'FST_ERR_MAX_PARAM_LENGTH':
          sendDomainError(reply, DomainError.uriTooLong());
          return;
        default:
          reply.send(error);
      }
    },
  });

  const instance = adapter.getInstance();
  // Before any route exists: the OpenAPI document lists every route, plain ones included.
  recordRoutes(instance);
  sendExactJsonContentType(instance);
  // Parses `Cookie` (the `_service_session` credential) and offers reply.setCookie.
  void adapter.register(fastifyCookie as never);
  instance.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    if ((request.raw.url ?? '').length > maxUrlLength) {
      sendDomainError(reply, DomainError.uriTooLong());
      return;
    }
    const queryError = queryParseError(request.query);
    if (queryError !== undefined) {
      sendDomainError(reply, DomainError.badRequest(queryError));
      return;
    }
    const malformed = findMalformedString(request.query) ?? findMalformedString(request.headers);
    if (malformed !== null) {
      sendDomainError(reply, malformedStringError(malformed));
      return;
    }
    done();
  });

  // gzip/deflate bodies decoded before parsing (body limit on the decoded size), other codings 415.
  instance.addHook('preParsing', decodeContentEncoding);

  // Path parameters and parsed bodies are known from here on.
  instance.addHook('preValidation', (request, reply, done) => {
    const malformed = findMalformedString(request.params) ?? findMalformedString(request.body);
    if (malformed !== null) {
      sendDomainError(reply, malformedStringError(malformed));
      return;
    }
    done();
  });

  // Grape merges query and body parameters: a POST/PUT may carry its parameters in either
  // (the spec: "Parameters are sent as query string or as a body"). Body values win.
  instance.addHook('preValidation', (request, _reply, done) => {
    const query = request.query;
    if (request.method !== 'GET' && request.method !== 'HEAD' && isPlainObject(query) && Object.keys(query).length > 0) {
      if (request.body === undefined || request.body === null) request.body = { ...query };
      else if (isPlainObject(request.body)) request.body = { ...query, ...request.body };
    }
    done();
  });

  adapter.useBodyParser('application/json', true, { bodyLimit: Math.max(bodyLimit, RAW_JSON_BODY_LIMIT) }, createJsonBodyParser(bodyLimit));
  adapter.useBodyParser('application/x-www-form-urlencoded', true, { bodyLimit }, createFormBodyParser(DEFAULT_PARAMETER_LIMITS));
  adapter.useBodyParser('text/plain', true, { bodyLimit }, textPlainBodyParser);
  // Streaming uploads: the stream stays unread for routes that declare `@StreamsMultipart()`.
  instance.addContentTypeParser('multipart/form-data', (request: FastifyRequest, _payload: unknown, done: (error: Error | null, body?: unknown) => void) => {
    if (routeConfigOf(request).streamMultipart) done(null, undefined);
    else done(DomainError.unsupportedMediaType());
  });
  adapter.useBodyParser('*', true, { bodyLimit }, otherBodyParser);
  return adapter;
}

const malformedStringError = (malformed: MalformedString): DomainError =>
  DomainError.badRequest(malformed === 'null-byte' ? 'Invalid null byte in parameter' : 'Invalid UTF-8 in parameter');

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
