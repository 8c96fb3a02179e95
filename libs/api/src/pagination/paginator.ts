import { Injectable } from '@nestjs/common';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { AppConfig } from '@app/config';
import { isKeysetPaginationRequested, KeysetAccessors, KeysetOptions } from './keyset-pagination';
import type { OffsetPaginationOptions } from './offset-pagination';
import type { HeaderSink, PaginationRequest } from './page-url';
import { paginateArray, paginateKeyset, paginateKeysetArray, paginateOffset } from './paginate';
import type { KeysetColumns } from './typeorm-pagination';

/**
 * The pagination helpers bound to the instance's external URL, for controllers:
 * `return this.paginator.offset(qb, request, reply)`. Provide it in the module that uses it.
 */
@Injectable()
export class Paginator {
  constructor(private readonly config: AppConfig) {}

  offset<T extends ObjectLiteral>(
    qb: SelectQueryBuilder<T>,
    request: PaginationRequest,
    reply: HeaderSink,
    options: OffsetPaginationOptions = {},
  ): Promise<T[]> {
    return paginateOffset(qb, request, reply, { ...options, externalUrl: this.config.http.externalUrl });
  }

  keyset<T extends ObjectLiteral>(
    qb: SelectQueryBuilder<T>,
    request: PaginationRequest,
    reply: HeaderSink,
    options: { keyset: KeysetOptions; columns: KeysetColumns<T> },
  ): Promise<T[]> {
    return paginateKeyset(qb, request, reply, { ...options, externalUrl: this.config.http.externalUrl });
  }

  /** Keyset when the request asks for it (`pagination=keyset`), offset otherwise. */
  auto<T extends ObjectLiteral>(
    qb: SelectQueryBuilder<T>,
    request: PaginationRequest,
    reply: HeaderSink,
    options: OffsetPaginationOptions & { keyset: KeysetOptions; columns: KeysetColumns<T> },
  ): Promise<T[]> {
    return isKeysetPaginationRequested(request.query) ? this.keyset(qb, request, reply, options) : this.offset(qb, request, reply, options);
  }

  array<T>(rows: readonly T[], request: PaginationRequest, reply: HeaderSink, options: OffsetPaginationOptions = {}): T[] {
    return paginateArray(rows, request, reply, { ...options, externalUrl: this.config.http.externalUrl });
  }

  keysetArray<T>(rows: readonly T[], request: PaginationRequest, reply: HeaderSink, options: { keyset: KeysetOptions; accessors: KeysetAccessors<T> }): T[] {
    return paginateKeysetArray(rows, request, reply, { ...options, externalUrl: this.config.http.externalUrl });
  }
}
