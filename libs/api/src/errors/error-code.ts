/**
 * Every failure a use case can report. The API exception filter maps each code to an HTTP
 * status and the spec's body shape with an exhaustive switch; code run by workers throws
 * these too (never HttpException).
 */
export enum ErrorCode {
  /** 400 `{message: '400 (Bad request) <attribute> not given'}` */
  MISSING_ATTRIBUTE = 'MISSING_ATTRIBUTE',
  /** 400 `{message: {<property>: [<text>...]}}` */
  VALIDATION_FAILED = 'VALIDATION_FAILED',
  /** 400 `{message: '400 Bad request - <text>'}` or `{error: <text>}` for malformed input */
  BAD_REQUEST = 'BAD_REQUEST',
  /** 401 `{message: '401 Unauthorized'}` */
  UNAUTHORIZED = 'UNAUTHORIZED',
  /** 403 `{message: '403 Forbidden'}` or `{message: '403 Forbidden - <text>'}` */
  FORBIDDEN = 'FORBIDDEN',
  /** 403 `{error: 'insufficient_scope', error_description, scope}` */
  INSUFFICIENT_SCOPE = 'INSUFFICIENT_SCOPE',
  /** 404 `{message: '404 <Resource> Not Found'}` */
  NOT_FOUND = 'NOT_FOUND',
  /** 404 `{error: '404 Not Found'}` */
  ROUTE_NOT_FOUND = 'ROUTE_NOT_FOUND',
  /** 405 `{error: '405 Method Not Allowed'}` */
  METHOD_NOT_ALLOWED = 'METHOD_NOT_ALLOWED',
  /** 409 `{message: <text>}` */
  CONFLICT = 'CONFLICT',
  /** 412 `{message: '412 Precondition Failed'}` */
  PRECONDITION_FAILED = 'PRECONDITION_FAILED',
  /** 413 body larger than the limit */
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  /** 414 `{error: '414 Request-URI Too Large'}` */
  URI_TOO_LONG = 'URI_TOO_LONG',
  /** 415 unsupported content type */
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  /** 422 `{message: <text>}` */
  UNPROCESSABLE = 'UNPROCESSABLE',
  /** 429 `{message: 'Retry later'}` with Retry-After */
  RATE_LIMITED = 'RATE_LIMITED',
  /** 503 a dependency is unavailable */
  UNAVAILABLE = 'UNAVAILABLE',
}

export type ValidationMessages = { [property: string]: string[] | ValidationMessages };
