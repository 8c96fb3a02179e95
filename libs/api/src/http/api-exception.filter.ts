import { STATUS_CODES } from 'node:http';
import { randomUUID } from 'node:crypto';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpServer, Logger, NotFoundException } from '@nestjs/common';
import { isConnectionLost } from '@app/database';
import type { FastifyInstance } from 'fastify';
import { findAllowedMethods } from './allowed-methods';
import { getRequestId } from './request-id';
import { JSON_CONTENT_TYPE } from './json-content-type';
import { isClientDisconnect } from '../errors/client-disconnect';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { ErrorResponse, internalErrorResponse, toErrorResponse } from '../errors/error-response';

export interface ApiExceptionFilterOptions {
  /** The body limit, named in the 413 message. */
  bodyLimit?: number;
}

interface Resolved {
  status: number;
  body?: Record<string, unknown>;
  headers: Record<string, string>;
}

/** Fastify body errors that reach us wrapped in an HttpException (`cause`). */
const FASTIFY_BODY_ERRORS: Record<string, (options: ApiExceptionFilterOptions) => DomainError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: (options) => DomainError.payloadTooLarge(options.bodyLimit),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => DomainError.unsupportedMediaType(),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => DomainError.badRequest('The request body does not match its Content-Length'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => DomainError.badRequest('The request body is not valid JSON'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => DomainError.badRequest('The request body is not valid JSON'),
  FST_ERR_BAD_URL: () => DomainError.routeNotFound(),
  FST_ERR_MAX_PARAM_LENGTH: () => DomainError.uriTooLong(),
};

/** Statuses an HttpException may carry that have a spec body of their own. */
function domainErrorForStatus(status: number, message: string): DomainError | undefined {
  switch (status) {
    case 400:
      return new DomainError(ErrorCode.BAD_REQUEST, message && message !== 'Bad Request' ? `400 Bad request - ${message}` : '400 Bad request');
    case 401:
      return DomainError.unauthorized();
    case 403:
      return DomainError.forbidden();
    case 404:
      return new DomainError(ErrorCode.NOT_FOUND, '404 Not Found');
    case 405:
      return DomainError.methodNotAllowed([]);
    case 409:
      return DomainError.conflict(message || '409 Conflict');
    case 412:
      return DomainError.preconditionFailed();
    case 413:
      return DomainError.payloadTooLarge();
    case 414:
      return DomainError.uriTooLong();
    case 415:
      return DomainError.unsupportedMediaType();
    case 422:
      return DomainError.unprocessable(message || '422 Unprocessable Entity');
    case 429:
      return DomainError.rateLimited(60);
    case 503:
      return DomainError.unavailable();
    default:
      return undefined;
  }
}

/**
 * The one exception filter of the HTTP API. It turns every failure into the spec's status
 * and body (document 1, "Errors"):
 * - `DomainError`: by code (see `toErrorResponse`, an exhaustive switch);
 * - the router's not-found: 405 with `Allow` when the path exists for other methods (204
 *   with `Allow` for OPTIONS), else 404 `{"error":"404 Not Found"}`;
 * - Fastify body errors (too large, unsupported media type, bad content length) and other
 *   4xx `HttpException`s: the matching spec body;
 * - a PostgreSQL connection cut under the request (restart, failover): 503 `{"message":"503 Service Unavailable"}`;
 * - anything else: 500 `{"message":"500 Internal Server Error","correlation_id":<request id>}`,
 *   the error itself logged, never sent.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(ApiExceptionFilter.name);

  constructor(
    private readonly httpAdapter: HttpServer,
    private readonly options: ApiExceptionFilterOptions = {},
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const http = host.switchToHttp();
    const request = http.getRequest<unknown>();
    const response = http.getResponse<unknown>();

    const resolved = this.resolve(exception, request);
    if (this.httpAdapter.isHeadersSent(response)) {
      this.logger.warn(`A failure after the response was sent (request ${getRequestId(request) ?? 'unknown'}): ${String(exception)}`);
      return;
    }
    for (const [name, value] of Object.entries(resolved.headers)) this.httpAdapter.setHeader(response, name, value);
    if (resolved.body !== undefined) this.httpAdapter.setHeader(response, 'content-type', JSON_CONTENT_TYPE);
    this.httpAdapter.reply(response, resolved.body, resolved.status);
  }

  private resolve(exception: unknown, request: unknown): Resolved {
    if (exception instanceof DomainError) return toErrorResponse(exception);
    const blank = notNullColumn(exception);
    if (blank !== undefined) {
      // A null the route's validation let through (an optional attribute sent as JSON null):
      // GitLab's model validation answer, not a 500. Logged: the DTO should refuse it itself.
      this.logger.warn(
        `${this.safely(() => this.httpAdapter.getRequestMethod?.(request) ?? '?')} ${this.safely(() => (this.httpAdapter.getRequestUrl?.(request) ?? '?').split('?')[0])}: null for the NOT NULL column ${blank}`,
      );
      return toErrorResponse(DomainError.invalid({ [blank]: ["can't be blank"] }));
    }
    if (exception instanceof HttpException) {
      if (exception instanceof NotFoundException && this.isRouterNotFound(exception, request)) {
        return this.routeNotFound(request);
      }
      const fastifyCode = (exception.cause as { code?: unknown } | undefined)?.code;
      const fromFastify = typeof fastifyCode === 'string' ? FASTIFY_BODY_ERRORS[fastifyCode] : undefined;
      if (fromFastify) return toErrorResponse(fromFastify(this.options));
      const status = exception.getStatus();
      if (status < 500) {
        const mapped = domainErrorForStatus(status, exception.message);
        if (mapped) return toErrorResponse(mapped);
        return { status, body: { message: `${status} ${STATUS_CODES[status] ?? 'Error'}` }, headers: {} };
      }
      if (status === 503) return toErrorResponse(DomainError.unavailable());
    }
    return this.internalError(exception, request);
  }

  /** Nest's not-found handler throws `Cannot <METHOD> <url>` for requests no route matched. */
  private isRouterNotFound(exception: NotFoundException, request: unknown): boolean {
    return (request as { is404?: boolean }).is404 === true || /^Cannot [A-Z]+ \//.test(exception.message);
  }

  private routeNotFound(request: unknown): Resolved {
    const method = this.httpAdapter.getRequestMethod?.(request) ?? '';
    const url = this.httpAdapter.getRequestUrl?.(request) ?? '';
    const instance = this.httpAdapter.getInstance() as FastifyInstance;
    const allowed = findAllowedMethods(instance, url);
    if (allowed.length === 0 || allowed.includes(method)) return toErrorResponse(DomainError.routeNotFound());
    if (method === 'OPTIONS') return { status: 204, headers: { allow: [...allowed, 'OPTIONS'].join(', ') } };
    return toErrorResponse(DomainError.methodNotAllowed(allowed));
  }

  private internalError(exception: unknown, request: unknown): ErrorResponse {
    const correlationId = getRequestId(request) ?? randomUUID();
    const method = this.safely(() => this.httpAdapter.getRequestMethod?.(request) ?? '?');
    // The path only: a query string may carry tokens (private_token, access_token).
    const path = this.safely(() => (this.httpAdapter.getRequestUrl?.(request) ?? '?').split('?')[0]);
    if (isClientDisconnect(exception, request)) {
      // Nothing failed here: the client hung up; the answer cannot reach it anyway.
      this.logger.debug(`${method} ${path}: the client closed the connection (correlation_id ${correlationId}): ${describe(exception)}`);
      return internalErrorResponse(correlationId);
    }
    if (isConnectionLost(exception)) {
      // PostgreSQL cut the connection (restart, failover): nothing of it committed, or the
      // outcome is unknown; the client may try again (503, as for any unavailable dependency).
      this.logger.warn(`${method} ${path}: its PostgreSQL connection was cut (correlation_id ${correlationId}): ${describe(exception)}`);
      return toErrorResponse(DomainError.unavailable());
    }
    const stack = exception instanceof Error ? exception.stack : undefined;
    this.logger.error(`${method} ${path} failed (correlation_id ${correlationId}): ${describe(exception)}`, stack);
    return internalErrorResponse(correlationId);
  }

  private safely(read: () => string): string {
    try {
      return read();
    } catch {
      return '?';
    }
  }
}

/**
 * The column of a PostgreSQL not-null violation (SQLSTATE 23502) raised by a query, if the
 * exception is one: a request that set a required attribute to null.
 */
export function notNullColumn(exception: unknown): string | undefined {
  if (!(exception instanceof Error) || exception.name !== 'QueryFailedError') return undefined;
  const driverError = (exception as { driverError?: { code?: unknown; column?: unknown } }).driverError;
  return driverError?.code === '23502' && typeof driverError.column === 'string' ? driverError.column : undefined;
}

function describe(exception: unknown): string {
  if (exception instanceof Error) return `${exception.name}: ${exception.message}`;
  try {
    return JSON.stringify(exception);
  } catch {
    return String(exception);
  }
}
