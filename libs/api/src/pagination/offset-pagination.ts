import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { buildPageUrl, HeaderSink, linkEntry, PaginationRequest, splitRequestTarget } from './page-url';

/** Limits of offset pagination (spec document 1, "Limits"). */
export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
/** Above this many records, `x-total`, `x-total-pages` and `rel="last"` are left out. */
export const TOTAL_COUNT_LIMIT = 10_000;
/** Deepest offset of the project list (GitLab's default); beyond it clients must use keyset pagination. */
export const PROJECT_LIST_MAX_OFFSET = 50_000;

export interface OffsetPagination {
  page: number;
  perPage: number;
  /** Rows to skip: `(page - 1) * perPage`. */
  offset: number;
}

export interface OffsetPaginationOptions {
  /** Deepest record reachable: a request with `page * per_page` beyond it is refused with 405. */
  maxOffset?: number;
  /** Named in the 405 message ("objects of type Project"). */
  resourceType?: string;
}

/** One page of an offset-paginated listing, as fetched. */
export interface OffsetPageInfo {
  page: number;
  perPage: number;
  /** Number of records, or null when it exceeds `TOTAL_COUNT_LIMIT` (not counted further). */
  total: number | null;
  /** Whether a page follows; used when `total` is null (it is derived from `total` otherwise). */
  hasNextPage: boolean;
}

/** GitLab's answer to `pagination=keyset` (or an order it does not page by keyset). */
export const KEYSET_NOT_AVAILABLE = 'Keyset pagination is not yet available for this type of request';

/** Grape's Integer coercion: an optional sign and decimal digits, nothing else. */
const INTEGER = /^[+-]?\d+$/;
/** Deepest page number read: beyond it every listing is empty anyway, and the offset stays a valid bigint. */
const MAX_PAGE = 2_147_483_647;

const lastValue = (value: unknown): unknown => (Array.isArray(value) ? value[value.length - 1] : value);

/** The integer value of `page`/`per_page`, undefined when absent; 400 `{"error":"<name> is invalid"}` when not an integer. */
export function paginationInteger(name: 'page' | 'per_page', value: unknown): number | undefined {
  const single = lastValue(value);
  if (single === undefined || single === null) return undefined;
  if (typeof single === 'number' && Number.isInteger(single)) return single;
  if (typeof single !== 'string' || !INTEGER.test(single.trim())) {
    throw new DomainError(ErrorCode.BAD_REQUEST, `${name} is invalid`, { errorKey: true });
  }
  return Number(single.trim());
}

/**
 * `per_page` as GitLab reads it: default 20; `0` is refused (Grape's `except_values: [0]`);
 * a negative value is ignored (Kaminari keeps the default); above 100 it is clamped to 100.
 */
export function parsePerPage(value: unknown): number {
  const perPage = paginationInteger('per_page', value);
  if (perPage === undefined || perPage < 0) return DEFAULT_PER_PAGE;
  if (perPage === 0) throw new DomainError(ErrorCode.BAD_REQUEST, 'per_page has a value not allowed', { errorKey: true });
  return Math.min(perPage, MAX_PER_PAGE);
}

/**
 * Reads `page` and `per_page`. Choices, as GitLab (Grape types, then Kaminari) behaves:
 * - `page` or `per_page` that is not an integer (`abc`, `1.5`, empty): 400
 *   `{"error":"page is invalid"}` (`per_page is invalid`);
 * - `per_page` defaults to 20; `0` is a 400 (`per_page has a value not allowed`); a negative
 *   value is the default; above 100 it is clamped to 100;
 * - a `page` below 1 is page 1; pages beyond 2147483647 are read as that page (empty);
 * - `pagination=keyset` on a list without keyset pagination: 405, GitLab's
 *   "Keyset pagination is not yet available for this type of request";
 * - with `maxOffset`, a request with `page * per_page > maxOffset` is refused with 405 and
 *   GitLab's message pointing to keyset pagination.
 */
export function parseOffsetPagination(query: unknown, options: OffsetPaginationOptions = {}): OffsetPagination {
  const params = (query ?? {}) as Record<string, unknown>;
  // A list that reaches offset pagination has no keyset pagination (those lists branch before).
  if (lastValue(params['pagination']) === 'keyset') throw DomainError.methodNotAllowedBecause(KEYSET_NOT_AVAILABLE);
  const requestedPage = paginationInteger('page', params['page']) ?? 1;
  const page = Math.min(Math.max(requestedPage, 1), MAX_PAGE);
  const perPage = parsePerPage(params['per_page']);
  if (options.maxOffset !== undefined && options.maxOffset > 0 && page * perPage > options.maxOffset) {
    throw DomainError.methodNotAllowedBecause(
      `Offset pagination has a maximum allowed offset of ${options.maxOffset} for requests that return objects of type ${options.resourceType ?? 'Resource'}. Remaining records can be retrieved using keyset pagination.`,
    );
  }
  return { page, perPage, offset: (page - 1) * perPage };
}

/** Total pages as GitLab reports it: at least 1, even for an empty listing. */
export const totalPages = (total: number, perPage: number): number => Math.max(Math.ceil(total / perPage), 1);

/**
 * The pagination headers of one page (names lower-case, as sent over HTTP/1.1 and /2):
 * `link` (`prev`, `next`, `first`, `last` with complete URLs), `x-page`, `x-per-page`,
 * `x-next-page`, `x-prev-page` (empty when there is none), `x-total`, `x-total-pages`
 * (left out, as is `rel="last"`, when the total was not counted). Like Kaminari, a page past
 * the last one has neither a previous nor a next page.
 */
export function buildOffsetPaginationHeaders(info: OffsetPageInfo, target: { path: string; query: string }, externalUrl: string): Record<string, string> {
  const { page, perPage, total } = info;
  const pages = total === null ? undefined : totalPages(total, perPage);
  const outOfRange = pages !== undefined && page > pages;
  const next = pages === undefined ? (info.hasNextPage ? page + 1 : undefined) : page < pages ? page + 1 : undefined;
  const prev = page > 1 && !outOfRange ? page - 1 : undefined;

  const urlFor = (targetPage: number): string =>
    buildPageUrl(externalUrl, target, [
      ['page', String(targetPage)],
      ['per_page', String(perPage)],
    ]);
  const links: string[] = [];
  if (prev !== undefined) links.push(linkEntry(urlFor(prev), 'prev'));
  if (next !== undefined) links.push(linkEntry(urlFor(next), 'next'));
  links.push(linkEntry(urlFor(1), 'first'));
  if (pages !== undefined) links.push(linkEntry(urlFor(pages), 'last'));

  const headers: Record<string, string> = {
    'x-per-page': String(perPage),
    'x-page': String(page),
    'x-next-page': next === undefined ? '' : String(next),
    'x-prev-page': prev === undefined ? '' : String(prev),
    link: links.join(', '),
  };
  if (total !== null && pages !== undefined) {
    headers['x-total'] = String(total);
    headers['x-total-pages'] = String(pages);
  }
  return headers;
}

/** Sets the offset pagination headers of `info` on `reply`. */
export function applyOffsetPaginationHeaders(request: PaginationRequest, reply: HeaderSink, info: OffsetPageInfo & { externalUrl: string }): void {
  const headers = buildOffsetPaginationHeaders(info, splitRequestTarget(request), info.externalUrl);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
}

/** Slices an in-memory list like the database helpers page a query (fixtures, small static lists). */
export function sliceOffsetPage<T>(rows: readonly T[], pagination: OffsetPagination): { items: T[]; info: OffsetPageInfo } {
  const total = rows.length;
  const items = rows.slice(pagination.offset, pagination.offset + pagination.perPage);
  const countedTotal = total > TOTAL_COUNT_LIMIT ? null : total;
  return {
    items,
    info: {
      page: pagination.page,
      perPage: pagination.perPage,
      total: countedTotal,
      hasNextPage: pagination.offset + pagination.perPage < total,
    },
  };
}
