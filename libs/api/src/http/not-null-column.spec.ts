import { QueryFailedError } from 'typeorm';
import { notNullColumn } from './api-exception.filter';

describe(notNullColumn.name, () => {
  const queryFailed = (driverError: Record<string, unknown>): QueryFailedError =>
    new QueryFailedError('UPDATE issues SET title = $1', [null], Object.assign(new Error('null value in column'), driverError));

  it('names the column of a not-null violation', () => {
    expect(notNullColumn(queryFailed({ code: '23502', column: 'title' }))).toBe('title');
  });

  it('ignores every other failure', () => {
    expect(notNullColumn(queryFailed({ code: '23505', column: 'title' }))).toBeUndefined();
    expect(notNullColumn(queryFailed({ code: '23502' }))).toBeUndefined();
    expect(notNullColumn(Object.assign(new Error('x'), { driverError: { code: '23502', column: 'title' } }))).toBeUndefined();
    expect(notNullColumn(undefined)).toBeUndefined();
  });
});
