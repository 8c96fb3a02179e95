import { DomainError } from '../errors/domain-error';
import { dbIntOrNull } from '../params/int-param';
import { KEYSET_NOT_AVAILABLE, parsePerPage } from './offset-pagination';
import { buildPageUrl, HeaderSink, linkEntry, PaginationRequest, splitRequestTarget } from './page-url';

export type SortDirection = 'asc' | 'desc';

/** A value a keyset cursor can carry (dates travel as ISO 8601 strings). */
export type KeysetValue = string | number | null;

/** Where the previous page ended: the tie-breaking id and, unless ordering by id, the order value. */
export interface KeysetPosition {
  id: string | number;
  value?: KeysetValue;
}

export interface KeysetPagination {
  orderBy: string;
  sort: SortDirection;
  perPage: number;
  /** The position the page starts after; null for the first page. */
  after: KeysetPosition | null;
}

export interface KeysetOptions {
  /** `order_by` values this listing supports with keyset pagination (e.g. `['id']`). */
  allowedOrderBy: readonly string[];
  defaultOrderBy: string;
  /** Default: both directions. */
  allowedSort?: readonly SortDirection[];
  /** Default: `asc`. */
  defaultSort?: SortDirection;
}

/** Query parameters that carry the position; replaced in the `next` link, never kept. */
export const KEYSET_CURSOR_PARAMS = ['id_after', 'id_before', 'cursor'] as const;

const INVALID_CURSOR = 'Invalid cursor parameter';

const single = (value: unknown): unknown => (Array.isArray(value) ? value[value.length - 1] : value);

/** Whether the request asks for keyset pagination (`pagination=keyset`). */
export function isKeysetPaginationRequested(query: unknown): boolean {
  return single((query as Record<string, unknown> | undefined)?.['pagination']) === 'keyset';
}

/**
 * Reads `order_by`, `sort`, `per_page` and the position of a keyset-paginated request.
 * - an `order_by` or `sort` the listing does not support: 405 "Keyset pagination is not yet
 *   available for this type of request" (GitLab's answer);
 * - `order_by=id`: the position is `id_after=<id>` (ascending) or `id_before=<id>`
 *   (descending), a positive integer, else 400;
 * - any other order: `cursor=<opaque>` (see `encodeKeysetCursor`); one that does not
 *   decode, or was issued for another order, is a 400.
 * `per_page` follows the offset rules (default 20, clamped to 100).
 */
export function parseKeysetPagination(query: unknown, options: KeysetOptions): KeysetPagination {
  const params = (query ?? {}) as Record<string, unknown>;
  const orderByParam = single(params['order_by']);
  const sortParam = single(params['sort']);
  const orderBy = orderByParam === undefined || orderByParam === '' ? options.defaultOrderBy : orderByParam;
  const sort = sortParam === undefined || sortParam === '' ? (options.defaultSort ?? 'asc') : sortParam;
  const allowedSort = options.allowedSort ?? ['asc', 'desc'];
  if (typeof orderBy !== 'string' || !options.allowedOrderBy.includes(orderBy)) {
    throw DomainError.methodNotAllowedBecause(KEYSET_NOT_AVAILABLE);
  }
  if (typeof sort !== 'string' || !allowedSort.includes(sort as SortDirection)) {
    throw DomainError.methodNotAllowedBecause(KEYSET_NOT_AVAILABLE);
  }
  const direction = sort as SortDirection;
  const perPage = parsePerPage(params['per_page']);

  if (orderBy === 'id') {
    const name = direction === 'asc' ? 'id_after' : 'id_before';
    const raw = single(params[name]);
    if (raw === undefined || raw === '') return { orderBy, sort: direction, perPage, after: null };
    // A position is an id: beyond the integer range it is refused before any query.
    const id = typeof raw === 'string' ? dbIntOrNull(raw) : null;
    if (id === null) throw DomainError.badRequest(`${name} is invalid`);
    return { orderBy, sort: direction, perPage, after: { id } };
  }

  const cursor = single(params['cursor']);
  if (cursor === undefined || cursor === '') return { orderBy, sort: direction, perPage, after: null };
  if (typeof cursor !== 'string') throw DomainError.badRequest(INVALID_CURSOR);
  return { orderBy, sort: direction, perPage, after: decodeKeysetCursor(cursor, { orderBy, sort: direction }) };
}

interface CursorPayload {
  o: string;
  s: SortDirection;
  v: KeysetValue;
  i: string | number;
}

/** An opaque cursor (base64url JSON) for a position in a listing ordered by `orderBy` / `sort`. */
export function encodeKeysetCursor(position: KeysetPosition, order: { orderBy: string; sort: SortDirection }): string {
  const payload: CursorPayload = { o: order.orderBy, s: order.sort, v: position.value ?? null, i: position.id };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

const isKeysetValue = (value: unknown): value is KeysetValue =>
  value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** Reads a cursor made by `encodeKeysetCursor`; a tampered cursor or one of another order is a 400. */
export function decodeKeysetCursor(cursor: string, order: { orderBy: string; sort: SortDirection }): KeysetPosition {
  let payload: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw DomainError.badRequest(INVALID_CURSOR);
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) throw DomainError.badRequest(INVALID_CURSOR);
  const { o, s, v, i } = payload as Partial<CursorPayload>;
  const validId = (typeof i === 'number' && Number.isSafeInteger(i)) || (typeof i === 'string' && i.length > 0);
  if (o !== order.orderBy || s !== order.sort || !isKeysetValue(v) || !validId) {
    throw DomainError.badRequest(INVALID_CURSOR);
  }
  return { id: i as string | number, value: v };
}

/** The query parameters that point at the page after `position`. */
export function nextKeysetParams(pagination: KeysetPagination, position: KeysetPosition): Array<[string, string]> {
  if (pagination.orderBy === 'id') {
    return [[pagination.sort === 'asc' ? 'id_after' : 'id_before', String(position.id)]];
  }
  return [['cursor', encodeKeysetCursor(position, pagination)]];
}

/**
 * The `link` header of a keyset page: only `rel="next"`, whose URL keeps every other query
 * parameter of the request and carries the new position; none when `next` is null (the
 * page was not full: the end of the collection).
 */
export function buildKeysetPaginationHeaders(
  pagination: KeysetPagination,
  next: KeysetPosition | null,
  target: { path: string; query: string },
  externalUrl: string,
): Record<string, string> {
  if (next === null) return {};
  const url = buildPageUrl(
    externalUrl,
    target,
    [
      ['pagination', 'keyset'],
      ['per_page', String(pagination.perPage)],
      ['order_by', pagination.orderBy],
      ['sort', pagination.sort],
      ...nextKeysetParams(pagination, next),
    ],
    KEYSET_CURSOR_PARAMS,
  );
  return { link: linkEntry(url, 'next') };
}

export function applyKeysetPaginationHeaders(
  request: PaginationRequest,
  reply: HeaderSink,
  page: { pagination: KeysetPagination; next: KeysetPosition | null; externalUrl: string },
): void {
  const headers = buildKeysetPaginationHeaders(page.pagination, page.next, splitRequestTarget(request), page.externalUrl);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
}

/** How to read the keyset of a row: its id and the value of each supported `order_by`. */
export interface KeysetAccessors<T> {
  id: (row: T) => string | number;
  orderValues?: Record<string, (row: T) => KeysetValue | Date>;
}

const normalizeValue = (value: KeysetValue | Date): KeysetValue => (value instanceof Date ? value.toISOString() : value);

/** The position of `row` in a listing ordered by `pagination.orderBy`. */
export function keysetPositionOf<T>(row: T, pagination: KeysetPagination, accessors: KeysetAccessors<T>): KeysetPosition {
  if (pagination.orderBy === 'id') return { id: accessors.id(row) };
  const read = accessors.orderValues?.[pagination.orderBy];
  if (!read) throw new Error(`No keyset accessor for order_by=${pagination.orderBy}`);
  return { id: accessors.id(row), value: normalizeValue(read(row)) };
}

/** The position of the next page: after the last row of a full page, none after a short one. */
export function nextKeysetPosition<T>(items: readonly T[], pagination: KeysetPagination, accessors: KeysetAccessors<T>): KeysetPosition | null {
  if (items.length === 0 || items.length < pagination.perPage) return null;
  return keysetPositionOf(items[items.length - 1], pagination, accessors);
}

const compare = (a: KeysetValue | string | number, b: KeysetValue | string | number): number => {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
};

/** Keyset pagination over an in-memory list (fixtures, small static lists); same semantics as the SQL helper. */
export function sliceKeysetPage<T>(
  rows: readonly T[],
  pagination: KeysetPagination,
  accessors: KeysetAccessors<T>,
): { items: T[]; next: KeysetPosition | null } {
  const sign = pagination.sort === 'asc' ? 1 : -1;
  const keyOf = (row: T): KeysetPosition => (pagination.orderBy === 'id' ? { id: accessors.id(row) } : keysetPositionOf(row, pagination, accessors));
  const order = (a: KeysetPosition, b: KeysetPosition): number =>
    sign * (pagination.orderBy === 'id' ? compare(a.id, b.id) : compare(a.value ?? null, b.value ?? null) || compare(a.id, b.id));
  const after = pagination.after;
  const sorted = [...rows].sort((a, b) => order(keyOf(a), keyOf(b)));
  const remaining = after === null ? sorted : sorted.filter((row) => order(keyOf(row), after) > 0);
  const items = remaining.slice(0, pagination.perPage);
  return { items, next: nextKeysetPosition(items, pagination, accessors) };
}
