import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import {
  buildKeysetPaginationHeaders,
  decodeKeysetCursor,
  encodeKeysetCursor,
  isKeysetPaginationRequested,
  KeysetOptions,
  parseKeysetPagination,
  sliceKeysetPage,
} from './keyset-pagination';

const options: KeysetOptions = { allowedOrderBy: ['id', 'name'], defaultOrderBy: 'id' };

function thrownBy(action: () => unknown): DomainError {
  try {
    action();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('nothing thrown');
}

describe(parseKeysetPagination.name, () => {
  it('defaults to the listing order, ascending, 20 per page, from the start', () => {
    expect(parseKeysetPagination({ pagination: 'keyset' }, options)).toEqual({ orderBy: 'id', sort: 'asc', perPage: 20, after: null });
  });

  it('reads id_after when ascending and id_before when descending', () => {
    expect(parseKeysetPagination({ id_after: '15', per_page: '500' }, options)).toEqual({ orderBy: 'id', sort: 'asc', perPage: 100, after: { id: 15 } });
    expect(parseKeysetPagination({ sort: 'desc', id_before: '9', id_after: '1' }, options).after).toEqual({ id: 9 });
  });

  it('refuses a non-numeric id position with 400', () => {
    expect(thrownBy(() => parseKeysetPagination({ id_after: 'x' }, options)).code).toBe(ErrorCode.BAD_REQUEST);
  });

  it('refuses unsupported orders and directions with 405', () => {
    const error = thrownBy(() => parseKeysetPagination({ order_by: 'created_at' }, options));
    expect(error.code).toBe(ErrorCode.METHOD_NOT_ALLOWED);
    expect(error.message).toBe('405 Method Not Allowed - Keyset pagination is not yet available for this type of request');
    expect(thrownBy(() => parseKeysetPagination({ order_by: 'name', sort: 'desc' }, { ...options, allowedSort: ['asc'] })).code).toBe(
      ErrorCode.METHOD_NOT_ALLOWED,
    );
  });

  it('reads a cursor for other orders', () => {
    const cursor = encodeKeysetCursor({ id: 7, value: 'beta' }, { orderBy: 'name', sort: 'asc' });
    expect(parseKeysetPagination({ order_by: 'name', cursor }, options).after).toEqual({ id: 7, value: 'beta' });
  });
});

describe(decodeKeysetCursor.name, () => {
  const order = { orderBy: 'name', sort: 'asc' as const };

  it('round-trips positions', () => {
    for (const position of [
      { id: 1, value: 'a b/é' },
      { id: '9007199254740993', value: 12.5 },
      { id: 3, value: null },
    ]) {
      expect(decodeKeysetCursor(encodeKeysetCursor(position, order), order)).toEqual(position);
    }
  });

  it.each([
    ['garbage characters', '!!!'],
    ['not JSON', Buffer.from('hello').toString('base64url')],
    ['an array', Buffer.from('[1]').toString('base64url')],
    ['another order', encodeKeysetCursor({ id: 1, value: 'a' }, { orderBy: 'id', sort: 'asc' })],
    ['another direction', encodeKeysetCursor({ id: 1, value: 'a' }, { orderBy: 'name', sort: 'desc' })],
    ['a missing id', Buffer.from(JSON.stringify({ o: 'name', s: 'asc', v: 'a' })).toString('base64url')],
    ['an object value', Buffer.from(JSON.stringify({ o: 'name', s: 'asc', v: { $gt: 1 }, i: 1 })).toString('base64url')],
  ])('refuses %s with 400', (_name, cursor) => {
    const error = thrownBy(() => decodeKeysetCursor(cursor, order));
    expect(error.code).toBe(ErrorCode.BAD_REQUEST);
    expect(error.message).toBe('400 Bad request - Invalid cursor parameter');
  });
});

describe(buildKeysetPaginationHeaders.name, () => {
  const target = { path: '/api/v4/projects', query: 'pagination=keyset&visibility=public&id_after=5&per_page=2' };

  it('links only to the next page, keeping other parameters and replacing the position', () => {
    const pagination = { orderBy: 'id', sort: 'asc' as const, perPage: 2, after: { id: 5 } };
    expect(buildKeysetPaginationHeaders(pagination, { id: 7 }, target, 'https://h')).toEqual({
      link: '<https://h/api/v4/projects?visibility=public&pagination=keyset&per_page=2&order_by=id&sort=asc&id_after=7>; rel="next"',
    });
  });

  it('carries an opaque cursor for other orders', () => {
    const pagination = { orderBy: 'name', sort: 'desc' as const, perPage: 2, after: null };
    const { link } = buildKeysetPaginationHeaders(pagination, { id: 7, value: 'x' }, target, 'https://h');
    const cursor = /cursor=([^>&]+)>/.exec(link)?.[1] as string;
    expect(decodeKeysetCursor(cursor, pagination)).toEqual({ id: 7, value: 'x' });
    expect(link).not.toContain('id_after');
  });

  it('has no Link at the end', () => {
    expect(buildKeysetPaginationHeaders({ orderBy: 'id', sort: 'asc', perPage: 2, after: null }, null, target, 'https://h')).toEqual({});
  });
});

describe(sliceKeysetPage.name, () => {
  const rows = [
    { id: 1, name: 'b' },
    { id: 2, name: 'a' },
    { id: 3, name: 'b' },
    { id: 4, name: 'c' },
  ];
  const accessors = { id: (row: { id: number }) => row.id, orderValues: { name: (row: { name: string }) => row.name } };

  it('orders by value then id and continues after the position', () => {
    const first = sliceKeysetPage(rows, { orderBy: 'name', sort: 'asc', perPage: 2, after: null }, accessors);
    expect(first.items.map((row) => row.id)).toEqual([2, 1]);
    const second = sliceKeysetPage(rows, { orderBy: 'name', sort: 'asc', perPage: 2, after: first.next }, accessors);
    expect(second.items.map((row) => row.id)).toEqual([3, 4]);
    const end = sliceKeysetPage(rows, { orderBy: 'name', sort: 'asc', perPage: 2, after: second.next }, accessors);
    expect(end).toEqual({ items: [], next: null });
  });

  it('gives no next position after a page that is not full', () => {
    expect(sliceKeysetPage(rows, { orderBy: 'id', sort: 'desc', perPage: 3, after: { id: 3 } }, accessors)).toEqual({
      items: [rows[1], rows[0]],
      next: null,
    });
  });
});

describe(isKeysetPaginationRequested.name, () => {
  it('is true only for pagination=keyset', () => {
    expect(isKeysetPaginationRequested({ pagination: 'keyset' })).toBe(true);
    expect(isKeysetPaginationRequested({ pagination: 'offset' })).toBe(false);
    expect(isKeysetPaginationRequested(undefined)).toBe(false);
  });
});
