import { isTransientError, TransientError } from './transient-error';

const withCode = (code: string): Error => Object.assign(new Error(`failed: ${code}`), { code });

describe(isTransientError.name, () => {
  it('recognizes an explicit TransientError', () => {
    expect(isTransientError(new TransientError('database is down'))).toBe(true);
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '40001', '40P01', '55P03', '57P01', '08006', '08001'])('treats code %s as transient', (code) => {
    expect(isTransientError(withCode(code))).toBe(true);
  });

  it.each(['23505', '22P02', '42P01', 'ERR_INVALID_ARG_TYPE'])('treats code %s as permanent', (code) => {
    expect(isTransientError(withCode(code))).toBe(false);
  });

  it('looks into the wrapped driver error of a TypeORM QueryFailedError', () => {
    const queryFailed = Object.assign(new Error('query failed'), { name: 'QueryFailedError', driverError: withCode('40P01') });
    expect(isTransientError(queryFailed)).toBe(true);
  });

  it('looks into the cause chain', () => {
    expect(isTransientError(new Error('outer', { cause: new Error('middle', { cause: withCode('ECONNRESET') }) }))).toBe(true);
  });

  it('recognizes a lost pg connection by its message', () => {
    expect(isTransientError(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('follows kafkajs retriable flags', () => {
    expect(isTransientError(Object.assign(new Error('leader not available'), { name: 'KafkaJSProtocolError', retriable: true }))).toBe(true);
    expect(isTransientError(Object.assign(new Error('message too large'), { name: 'KafkaJSProtocolError', retriable: false }))).toBe(false);
  });

  it('treats ordinary errors and non-errors as permanent', () => {
    expect(isTransientError(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isTransientError('boom')).toBe(false);
    expect(isTransientError(null)).toBe(false);
  });
});
