import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { assertUnmodifiedSince, readIfUnmodifiedSince } from './if-unmodified-since';

const requestWith = (value?: string) => ({ headers: value === undefined ? {} : { 'if-unmodified-since': value } });
const lastModified = new Date('2024-05-01T12:00:00.900Z');

describe(assertUnmodifiedSince.name, () => {
  it('passes without the header', () => {
    expect(() => assertUnmodifiedSince(requestWith(), lastModified)).not.toThrow();
  });

  it('ignores an unparseable date', () => {
    expect(() => assertUnmodifiedSince(requestWith('not a date'), lastModified)).not.toThrow();
  });

  it('passes when the resource did not change after the date (same second, milliseconds ignored)', () => {
    expect(() => assertUnmodifiedSince(requestWith('Wed, 01 May 2024 12:00:00 GMT'), lastModified)).not.toThrow();
    expect(() => assertUnmodifiedSince(requestWith('Wed, 01 May 2024 13:00:00 GMT'), lastModified)).not.toThrow();
  });

  it('throws PRECONDITION_FAILED when the resource changed after the date', () => {
    let thrown: unknown;
    try {
      assertUnmodifiedSince(requestWith('Wed, 01 May 2024 11:59:59 GMT'), lastModified);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect((thrown as DomainError).code).toBe(ErrorCode.PRECONDITION_FAILED);
  });
});

describe(readIfUnmodifiedSince.name, () => {
  it('reads the first value of a repeated header', () => {
    expect(readIfUnmodifiedSince({ headers: { 'if-unmodified-since': ['Wed, 01 May 2024 12:00:00 GMT', 'x'] } })?.toISOString()).toBe(
      '2024-05-01T12:00:00.000Z',
    );
  });
});
