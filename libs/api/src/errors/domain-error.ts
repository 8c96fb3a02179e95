import { ErrorCode, ValidationMessages } from './error-code';

/** A failure with a code the API layer knows how to present. Safe to throw from workers. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: {
      /** NOT_FOUND: the resource name ("Project"); MISSING_ATTRIBUTE: the attribute. */
      subject?: string;
      validation?: ValidationMessages;
      scope?: string;
      retryAfterSeconds?: number;
      /** Use the `{error: ...}` body key instead of `{message: ...}` (GitLab does both). */
      errorKey?: boolean;
      /** METHOD_NOT_ALLOWED: the methods the path supports (`Allow` header). */
      allow?: string[];
    } = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static notFound(resource: string): DomainError {
    return new DomainError(ErrorCode.NOT_FOUND, `404 ${resource} Not Found`, { subject: resource });
  }

  static missing(attribute: string): DomainError {
    return new DomainError(ErrorCode.MISSING_ATTRIBUTE, `400 (Bad request) "${attribute}" not given`, { subject: attribute });
  }

  static invalid(validation: ValidationMessages): DomainError {
    return new DomainError(ErrorCode.VALIDATION_FAILED, 'validation failed', { validation });
  }

  static badRequest(text: string): DomainError {
    return new DomainError(ErrorCode.BAD_REQUEST, `400 Bad request - ${text}`);
  }

  static unauthorized(): DomainError {
    return new DomainError(ErrorCode.UNAUTHORIZED, '401 Unauthorized');
  }

  static forbidden(reason?: string): DomainError {
    return new DomainError(ErrorCode.FORBIDDEN, reason ? `403 Forbidden - ${reason}` : '403 Forbidden');
  }

  static insufficientScope(scope: string): DomainError {
    return new DomainError(ErrorCode.INSUFFICIENT_SCOPE, 'The request requires higher privileges than provided by the access token.', { scope });
  }

  static conflict(text: string): DomainError {
    return new DomainError(ErrorCode.CONFLICT, text);
  }

  /** An unknown route, a wrongly encoded path or an API version that does not exist. */
  static routeNotFound(): DomainError {
    return new DomainError(ErrorCode.ROUTE_NOT_FOUND, '404 Not Found', { errorKey: true });
  }

  /** The path exists but not for this method; `allow` lists the methods it supports. */
  static methodNotAllowed(allow: string[]): DomainError {
    return new DomainError(ErrorCode.METHOD_NOT_ALLOWED, '405 Method Not Allowed', { errorKey: true, allow });
  }

  /** The route exists but refuses the request for a reason (e.g. the offset pagination limit). */
  static methodNotAllowedBecause(reason: string): DomainError {
    return new DomainError(ErrorCode.METHOD_NOT_ALLOWED, `405 Method Not Allowed - ${reason}`);
  }

  static preconditionFailed(): DomainError {
    return new DomainError(ErrorCode.PRECONDITION_FAILED, '412 Precondition Failed');
  }

  static payloadTooLarge(limitBytes?: number): DomainError {
    const suffix = limitBytes === undefined ? '' : ` - the request body is larger than ${limitBytes} bytes`;
    return new DomainError(ErrorCode.PAYLOAD_TOO_LARGE, `413 Request Entity Too Large${suffix}`);
  }

  static uriTooLong(): DomainError {
    return new DomainError(ErrorCode.URI_TOO_LONG, '414 Request-URI Too Large', { errorKey: true });
  }

  static unsupportedMediaType(): DomainError {
    return new DomainError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, '415 Unsupported Media Type');
  }

  static unprocessable(text: string): DomainError {
    return new DomainError(ErrorCode.UNPROCESSABLE, text);
  }

  static rateLimited(retryAfterSeconds: number): DomainError {
    return new DomainError(ErrorCode.RATE_LIMITED, 'Retry later', { retryAfterSeconds });
  }

  static unavailable(text = '503 Service Unavailable'): DomainError {
    return new DomainError(ErrorCode.UNAVAILABLE, text);
  }
}
