import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';
import { internalErrorResponse, toErrorResponse } from './error-response';

describe(toErrorResponse.name, () => {
  it.each<[string, DomainError, number, Record<string, unknown>, Record<string, string>]>([
    ['missing attribute', DomainError.missing('name'), 400, { message: '400 (Bad request) "name" not given' }, {}],
    [
      'validation',
      DomainError.invalid({ name: ['is invalid'], nested: { key: ["can't be blank"] } }),
      400,
      { message: { name: ['is invalid'], nested: { key: ["can't be blank"] } } },
      {},
    ],
    ['bad request', DomainError.badRequest('nope'), 400, { message: '400 Bad request - nope' }, {}],
    ['unauthorized', DomainError.unauthorized(), 401, { message: '401 Unauthorized' }, {}],
    ['forbidden', DomainError.forbidden(), 403, { message: '403 Forbidden' }, {}],
    ['forbidden with reason', DomainError.forbidden('Must be admin to use sudo'), 403, { message: '403 Forbidden - Must be admin to use sudo' }, {}],
    [
      'insufficient scope',
      DomainError.insufficientScope('sudo'),
      403,
      { error: 'insufficient_scope', error_description: 'The request requires higher privileges than provided by the access token.', scope: 'sudo' },
      {},
    ],
    ['not found', DomainError.notFound('Project'), 404, { message: '404 Project Not Found' }, {}],
    ['route not found', DomainError.routeNotFound(), 404, { error: '404 Not Found' }, {}],
    ['method not allowed', DomainError.methodNotAllowed(['GET', 'POST']), 405, { error: '405 Method Not Allowed' }, { allow: 'GET, POST' }],
    ['method not allowed with reason', DomainError.methodNotAllowedBecause('why'), 405, { message: '405 Method Not Allowed - why' }, {}],
    ['conflict', DomainError.conflict('Project name has already been taken'), 409, { message: 'Project name has already been taken' }, {}],
    ['precondition failed', DomainError.preconditionFailed(), 412, { message: '412 Precondition Failed' }, {}],
    ['payload too large', DomainError.payloadTooLarge(10), 413, { message: '413 Request Entity Too Large - the request body is larger than 10 bytes' }, {}],
    ['uri too long', DomainError.uriTooLong(), 414, { error: '414 Request-URI Too Large' }, {}],
    ['unsupported media type', DomainError.unsupportedMediaType(), 415, { message: '415 Unsupported Media Type' }, {}],
    ['unprocessable', DomainError.unprocessable('cannot'), 422, { message: 'cannot' }, {}],
    ['rate limited', DomainError.rateLimited(2.2), 429, { message: 'Retry later' }, { 'retry-after': '3' }],
    ['unavailable', DomainError.unavailable(), 503, { message: '503 Service Unavailable' }, {}],
  ])('maps %s', (_name, error, status, body, headers) => {
    const sut = toErrorResponse(error);
    expect(sut.status).toBe(status);
    expect(sut.body).toEqual(body);
    expect(sut.headers).toEqual(headers);
  });

  it('has a response for every error code', () => {
    for (const code of Object.values(ErrorCode)) {
      const sut = toErrorResponse(new DomainError(code, 'text'));
      expect(sut.status).toBeGreaterThanOrEqual(400);
      expect(sut.status).toBeLessThan(600);
    }
  });

  it('uses the error key when the error asks for it', () => {
    const sut = toErrorResponse(new DomainError(ErrorCode.BAD_REQUEST, 'id is invalid', { errorKey: true }));
    expect(sut.body).toEqual({ error: 'id is invalid' });
  });

  it('never sends a negative Retry-After', () => {
    expect(toErrorResponse(DomainError.rateLimited(-5)).headers).toEqual({ 'retry-after': '0' });
  });
});

describe(internalErrorResponse.name, () => {
  it('carries only the generic message and the correlation id', () => {
    expect(internalErrorResponse('req-1')).toEqual({
      status: 500,
      body: { message: '500 Internal Server Error', correlation_id: 'req-1' },
      headers: {},
    });
  });
});
