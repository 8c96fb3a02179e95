import { DomainError } from '../errors/domain-error';
import {
  applyOffsetPaginationHeaders,
  buildOffsetPaginationHeaders,
  parseOffsetPagination,
  sliceOffsetPage,
  TOTAL_COUNT_LIMIT,
  totalPages,
} from './offset-pagination';

const target = { path: '/api/v4/projects/a%2Fb/issues', query: 'state=opened&labels[]=x&page=2&per_page=5' };
const externalUrl = 'https://gitlab.example.com';
const url = (page: number, perPage = 5) => `https://gitlab.example.com/api/v4/projects/a%2Fb/issues?state=opened&labels[]=x&page=${page}&per_page=${perPage}`;

describe(parseOffsetPagination.name, () => {
  it('defaults to page 1 and 20 per page', () => {
    expect(parseOffsetPagination({})).toEqual({ page: 1, perPage: 20, offset: 0 });
    expect(parseOffsetPagination(undefined)).toEqual({ page: 1, perPage: 20, offset: 0 });
  });

  it('reads page and per_page and computes the offset', () => {
    expect(parseOffsetPagination({ page: '3', per_page: '50' })).toEqual({ page: 3, perPage: 50, offset: 100 });
  });

  it('clamps per_page to 100', () => {
    expect(parseOffsetPagination({ per_page: '1000' }).perPage).toBe(100);
  });

  const refusal = (query: Record<string, unknown>): { code: string; message: string; errorKey?: boolean } => {
    try {
      parseOffsetPagination(query);
    } catch (error) {
      if (error instanceof DomainError) return { code: error.code, message: error.message, errorKey: error.details.errorKey };
    }
    throw new Error('not refused');
  };

  it.each(['abc', '1.5', '', '1e3', '0x10', '1 2'])('refuses a page or per_page of %j as Grape types it: 400 "<name> is invalid"', (value) => {
    expect(refusal({ page: value })).toEqual({ code: 'BAD_REQUEST', message: 'page is invalid', errorKey: true });
    expect(refusal({ per_page: value })).toEqual({ code: 'BAD_REQUEST', message: 'per_page is invalid', errorKey: true });
  });

  it('refuses per_page=0 as GitLab (a value not allowed)', () => {
    expect(refusal({ per_page: '0' })).toEqual({ code: 'BAD_REQUEST', message: 'per_page has a value not allowed', errorKey: true });
  });

  it('clamps integers out of range as Kaminari: a page below 1 is page 1, a negative per_page the default, a huge page the last possible one', () => {
    expect(parseOffsetPagination({ page: '0', per_page: '-5' })).toEqual({ page: 1, perPage: 20, offset: 0 });
    expect(parseOffsetPagination({ page: '-3', per_page: '+7' })).toEqual({ page: 1, perPage: 7, offset: 0 });
    expect(parseOffsetPagination({ page: '9'.repeat(30), per_page: '9'.repeat(30) }).page).toBe(2_147_483_647);
    expect(parseOffsetPagination({ page: '9'.repeat(30), per_page: '9'.repeat(30) }).perPage).toBe(100);
  });

  it('uses the last value when a parameter is repeated into an array', () => {
    expect(parseOffsetPagination({ page: ['2', '4'] }).page).toBe(4);
  });

  it('refuses page * per_page beyond maxOffset with a 405 pointing to keyset pagination', () => {
    expect(parseOffsetPagination({ page: '500', per_page: '100' }, { maxOffset: 50_000, resourceType: 'Project' }).offset).toBe(49_900);
    let thrown: unknown;
    try {
      parseOffsetPagination({ page: '501', per_page: '100' }, { maxOffset: 50_000, resourceType: 'Project' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect((thrown as DomainError).message).toBe(
      '405 Method Not Allowed - Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Project. Remaining records can be retrieved using keyset pagination.',
    );
  });
});

describe(totalPages.name, () => {
  it('is at least 1', () => {
    expect(totalPages(0, 20)).toBe(1);
    expect(totalPages(20, 20)).toBe(1);
    expect(totalPages(21, 20)).toBe(2);
  });
});

describe(buildOffsetPaginationHeaders.name, () => {
  it('gives every header and the four links for a middle page', () => {
    expect(buildOffsetPaginationHeaders({ page: 2, perPage: 5, total: 12, hasNextPage: true }, target, externalUrl)).toEqual({
      'x-page': '2',
      'x-per-page': '5',
      'x-next-page': '3',
      'x-prev-page': '1',
      'x-total': '12',
      'x-total-pages': '3',
      link: `<${url(1)}>; rel="prev", <${url(3)}>; rel="next", <${url(1)}>; rel="first", <${url(3)}>; rel="last"`,
    });
  });

  it('leaves next empty on the last page and prev empty on the first', () => {
    const last = buildOffsetPaginationHeaders({ page: 3, perPage: 5, total: 12, hasNextPage: false }, target, externalUrl);
    expect(last['x-next-page']).toBe('');
    expect(last.link).not.toContain('rel="next"');
    const first = buildOffsetPaginationHeaders({ page: 1, perPage: 5, total: 12, hasNextPage: true }, target, externalUrl);
    expect(first['x-prev-page']).toBe('');
    expect(first.link).not.toContain('rel="prev"');
  });

  it('gives an empty listing one page', () => {
    const headers = buildOffsetPaginationHeaders({ page: 1, perPage: 5, total: 0, hasNextPage: false }, target, externalUrl);
    expect(headers['x-total']).toBe('0');
    expect(headers['x-total-pages']).toBe('1');
    expect(headers.link).toBe(`<${url(1)}>; rel="first", <${url(1)}>; rel="last"`);
  });

  it('has neither prev nor next past the last page (as Kaminari)', () => {
    const headers = buildOffsetPaginationHeaders({ page: 9, perPage: 5, total: 12, hasNextPage: false }, target, externalUrl);
    expect(headers['x-prev-page']).toBe('');
    expect(headers['x-next-page']).toBe('');
  });

  it('omits the totals and rel="last" when the total was not counted', () => {
    const headers = buildOffsetPaginationHeaders({ page: 2, perPage: 5, total: null, hasNextPage: true }, target, externalUrl);
    expect(headers).not.toHaveProperty('x-total');
    expect(headers).not.toHaveProperty('x-total-pages');
    expect(headers['x-next-page']).toBe('3');
    expect(headers.link).toBe(`<${url(1)}>; rel="prev", <${url(3)}>; rel="next", <${url(1)}>; rel="first"`);
  });

  it('has no next page without a count when the lookahead found none', () => {
    const headers = buildOffsetPaginationHeaders({ page: 2, perPage: 5, total: null, hasNextPage: false }, target, externalUrl);
    expect(headers['x-next-page']).toBe('');
  });
});

describe(applyOffsetPaginationHeaders.name, () => {
  it('sets the headers on the reply from the raw request target', () => {
    const headers: Record<string, string> = {};
    applyOffsetPaginationHeaders(
      { url: '/ignored', raw: { url: '/api/v4/groups?search=a+b&page=1' } },
      { header: (name, value) => (headers[name] = value) },
      { page: 1, perPage: 20, total: 1, hasNextPage: false, externalUrl: 'https://h.example/' },
    );
    expect(headers.link).toBe(
      '<https://h.example/api/v4/groups?search=a+b&page=1&per_page=20>; rel="first", <https://h.example/api/v4/groups?search=a+b&page=1&per_page=20>; rel="last"',
    );
  });
});

describe(sliceOffsetPage.name, () => {
  it('slices a list and counts it', () => {
    const rows = Array.from({ length: 12 }, (_, index) => index + 1);
    expect(sliceOffsetPage(rows, { page: 3, perPage: 5, offset: 10 })).toEqual({
      items: [11, 12],
      info: { page: 3, perPage: 5, total: 12, hasNextPage: false },
    });
  });

  it('does not report a total above the cap', () => {
    const rows = Array.from({ length: TOTAL_COUNT_LIMIT + 1 }, (_, index) => index);
    expect(sliceOffsetPage(rows, { page: 1, perPage: 20, offset: 0 }).info).toEqual({ page: 1, perPage: 20, total: null, hasNextPage: true });
  });
});
