import { DomainError } from '../errors/domain-error';
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

const POSITIVE_INTEGER = /^\+?0*[1-9]\d*$/;

function positiveInteger(value: unknown): number | undefined {
  const single = Array.isArray(value) ? value[value.length - 1] : value;
  if (typeof single === 'number') return Number.isSafeInteger(single) && single > 0 ? single : undefined;
  if (typeof single !== 'string' || !POSITIVE_INTEGER.test(single.trim())) return undefined;
  const parsed = Number(single.trim());
  return Number.isSafeInteger(parsed) ? parsed : undefined;
}

/**
 * Reads `page` and `per_page`. Choices, as GitLab (Kaminari) behaves:
 * - `per_page` defaults to 20; above 100 it is clamped to 100;
 * - a `page` or `per_page` that is not a positive integer (`0`, `-1`, `abc`, `1.5`) is
 *   replaced by its default (1 and 20), rather than refused;
 * - with `maxOffset`, a request with `page * per_page > maxOffset` is refused with 405 and
 *   GitLab's message pointing to keyset pagination.
 */
export function parseOffsetPagination(query: unknown, options: OffsetPaginationOptions = {}): OffsetPagination {
  const params = (query ?? {}) as Record<string, unknown>;
  const page = positiveInteger(params['page']) ?? 1;
  const perPage = Math.min(positiveInteger(params['per_page']) ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
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
export function buildOffsetPaginationHeaders(
  info: OffsetPageInfo,
  target: { path: string; query: string },
  externalUrl: string,
): Record<string, string> {
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
export function applyOffsetPaginationHeaders(
  request: PaginationRequest,
  reply: HeaderSink,
  info: OffsetPageInfo & { externalUrl: string },
): void {
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
