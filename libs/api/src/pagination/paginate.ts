import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import {
  applyKeysetPaginationHeaders,
  isKeysetPaginationRequested,
  KeysetAccessors,
  KeysetOptions,
  parseKeysetPagination,
  sliceKeysetPage,
} from './keyset-pagination';
import { applyOffsetPaginationHeaders, OffsetPaginationOptions, parseOffsetPagination, sliceOffsetPage } from './offset-pagination';
import type { HeaderSink, PaginationRequest } from './page-url';
import { fetchKeysetPage, fetchOffsetPage, KeysetColumns } from './typeorm-pagination';

export interface UrlOptions {
  /** `config.http.externalUrl`: the base of the complete URLs in `Link`. */
  externalUrl: string;
}

/** Parses `page`/`per_page`, runs the page query and its capped count, sets the headers, returns the rows. */
export async function paginateOffset<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  request: PaginationRequest,
  reply: HeaderSink,
  options: UrlOptions & OffsetPaginationOptions,
): Promise<T[]> {
  const pagination = parseOffsetPagination(request.query, options);
  const { items, info } = await fetchOffsetPage(qb, pagination);
  applyOffsetPaginationHeaders(request, reply, { ...info, externalUrl: options.externalUrl });
  return items;
}

/** Parses the keyset parameters, runs the page query, sets `Link: rel="next"` when a page follows, returns the rows. */
export async function paginateKeyset<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  request: PaginationRequest,
  reply: HeaderSink,
  options: UrlOptions & { keyset: KeysetOptions; columns: KeysetColumns<T> },
): Promise<T[]> {
  const pagination = parseKeysetPagination(request.query, options.keyset);
  const { items, next } = await fetchKeysetPage(qb, pagination, options.columns);
  applyKeysetPaginationHeaders(request, reply, { pagination, next, externalUrl: options.externalUrl });
  return items;
}

/** Offset pagination of an in-memory list, with the same headers as `paginateOffset`. */
export function paginateArray<T>(rows: readonly T[], request: PaginationRequest, reply: HeaderSink, options: UrlOptions & OffsetPaginationOptions): T[] {
  const pagination = parseOffsetPagination(request.query, options);
  const { items, info } = sliceOffsetPage(rows, pagination);
  applyOffsetPaginationHeaders(request, reply, { ...info, externalUrl: options.externalUrl });
  return items;
}

/** Keyset pagination of an in-memory list, with the same headers as `paginateKeyset`. */
export function paginateKeysetArray<T>(
  rows: readonly T[],
  request: PaginationRequest,
  reply: HeaderSink,
  options: UrlOptions & { keyset: KeysetOptions; accessors: KeysetAccessors<T> },
): T[] {
  const pagination = parseKeysetPagination(request.query, options.keyset);
  const { items, next } = sliceKeysetPage(rows, pagination, options.accessors);
  applyKeysetPaginationHeaders(request, reply, { pagination, next, externalUrl: options.externalUrl });
  return items;
}

/** How a list is paged by keyset: the orders it supports and the columns behind them. */
export interface KeysetListing<T> {
  keyset: KeysetOptions;
  columns: KeysetColumns<T>;
}

/**
 * The one entry point of a paginated database list: keyset pagination when the request asks
 * for it (`pagination=keyset`) and the list has a `keyset` listing, offset pagination
 * otherwise (where `pagination=keyset` is a 405, as GitLab answers for lists it does not page
 * by keyset).
 */
export function paginateQuery<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  request: PaginationRequest,
  reply: HeaderSink,
  options: UrlOptions & OffsetPaginationOptions & { keyset?: KeysetListing<T> },
): Promise<T[]> {
  const { keyset, ...rest } = options;
  if (keyset && isKeysetPaginationRequested(request.query)) return paginateKeyset(qb, request, reply, { ...keyset, externalUrl: options.externalUrl });
  return paginateOffset(qb, request, reply, rest);
}
