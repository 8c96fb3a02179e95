import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { dbIntOrNull, idParam, INT32_MAX, intParam, parseIdOrName } from './int-param';

const thrown = (action: () => unknown): DomainError => {
  try {
    action();
  } catch (error) {
    if (error instanceof DomainError) return error;
  }
  throw new Error('no DomainError thrown');
};

describe(intParam.name, () => {
  it('reads integers a row can hold', () => {
    expect(intParam('issue_iid', '0', 'Issue')).toBe(0);
    expect(intParam('issue_iid', String(INT32_MAX), 'Issue')).toBe(INT32_MAX);
  });

  it('answers 400 "<name> is invalid" for what is not an integer', () => {
    for (const raw of ['abc', '-1', '1.5', '', ' 1']) {
      const error = thrown(() => intParam('issue_iid', raw, 'Issue'));
      expect(error.code).toBe(ErrorCode.BAD_REQUEST);
      expect(error.message).toBe('issue_iid is invalid');
    }
  });

  it('answers 404 for integers beyond the column range (they name nothing)', () => {
    for (const raw of ['2147483648', '99999999999999999999999']) {
      const error = thrown(() => intParam('issue_iid', raw, 'Issue'));
      expect(error.code).toBe(ErrorCode.NOT_FOUND);
      expect(error.message).toBe('404 Issue Not Found');
    }
  });
});

describe(idParam.name, () => {
  it('is a 404 for anything but an id in range', () => {
    expect(idParam('12', 'Hook')).toBe(12);
    expect(thrown(() => idParam('x', 'Hook')).message).toBe('404 Hook Not Found');
    expect(thrown(() => idParam('2147483648', 'Hook')).code).toBe(ErrorCode.NOT_FOUND);
  });
});

describe(parseIdOrName.name, () => {
  it('tells ids, names and impossible ids apart', () => {
    expect(parseIdOrName('42')).toEqual({ id: 42 });
    expect(parseIdOrName('alice')).toEqual({ name: 'alice' });
    expect(parseIdOrName('99999999999')).toBeNull();
    expect(dbIntOrNull('007')).toBe(7);
  });
});
