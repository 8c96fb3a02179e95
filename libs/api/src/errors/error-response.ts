import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';

/** What the HTTP layer sends for a failure: status, JSON body and extra headers. */
export interface ErrorResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

const INTERNAL_SERVER_ERROR_MESSAGE = '500 Internal Server Error';

const textBody = (error: DomainError): Record<string, unknown> => (error.details.errorKey ? { error: error.message } : { message: error.message });

const respond = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): ErrorResponse => ({
  status,
  body,
  headers,
});

/**
 * The one mapping from error codes to the spec's status codes and body shapes
 * (document 1, "Errors" and "Authentication"). The switch is exhaustive: adding an
 * `ErrorCode` without a case here fails to compile.
 */
export function toErrorResponse(error: DomainError): ErrorResponse {
  const code = error.code;
  switch (code) {
    case ErrorCode.MISSING_ATTRIBUTE:
    case ErrorCode.BAD_REQUEST:
      return respond(400, textBody(error));
    case ErrorCode.VALIDATION_FAILED:
      return respond(400, { message: error.details.validation ?? {} });
    case ErrorCode.UNAUTHORIZED:
      return respond(401, { message: '401 Unauthorized' });
    case ErrorCode.FORBIDDEN:
      return respond(403, textBody(error));
    case ErrorCode.INSUFFICIENT_SCOPE:
      return respond(403, {
        error: 'insufficient_scope',
        error_description: error.message,
        scope: error.details.scope ?? 'api',
      });
    case ErrorCode.NOT_FOUND:
      return respond(404, textBody(error));
    case ErrorCode.ROUTE_NOT_FOUND:
      return respond(404, { error: '404 Not Found' });
    case ErrorCode.METHOD_NOT_ALLOWED: {
      const allow = error.details.allow;
      return respond(405, textBody(error), allow && allow.length > 0 ? { allow: allow.join(', ') } : {});
    }
    case ErrorCode.CONFLICT:
      return respond(409, textBody(error));
    case ErrorCode.PRECONDITION_FAILED:
      return respond(412, { message: '412 Precondition Failed' });
    case ErrorCode.PAYLOAD_TOO_LARGE:
      return respond(413, textBody(error));
    case ErrorCode.URI_TOO_LONG:
      return respond(414, { error: '414 Request-URI Too Large' });
    case ErrorCode.UNSUPPORTED_MEDIA_TYPE:
      return respond(415, { message: '415 Unsupported Media Type' });
    case ErrorCode.UNPROCESSABLE:
      return respond(422, textBody(error));
    case ErrorCode.RATE_LIMITED: {
      const seconds = Math.max(0, Math.ceil(error.details.retryAfterSeconds ?? 60));
      return respond(429, { message: 'Retry later' }, { 'retry-after': String(seconds) });
    }
    case ErrorCode.UNAVAILABLE:
      return respond(503, { message: error.message });
    default:
      return assertNever(code);
  }
}

/** The body of every unexpected failure: nothing from the error itself, only the request id. */
export function internalErrorResponse(correlationId: string): ErrorResponse {
  return respond(500, { message: INTERNAL_SERVER_ERROR_MESSAGE, correlation_id: correlationId });
}

function assertNever(value: never): never {
  throw new Error(`Unhandled error code: ${String(value)}`);
}
