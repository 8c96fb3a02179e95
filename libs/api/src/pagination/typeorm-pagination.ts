import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { KeysetAccessors, KeysetPagination, KeysetPosition, nextKeysetPosition } from './keyset-pagination';
import { OffsetPageInfo, OffsetPagination, TOTAL_COUNT_LIMIT } from './offset-pagination';

/**
 * Counts the distinct rows of `qb`, stopping at `cap + 1`: returns null when there are more
 * than `cap` (GitLab omits the totals then, and the count stays cheap on huge tables):
 * `SELECT count(*) FROM (SELECT DISTINCT <primary key> FROM ... LIMIT cap + 1)`.
 */
export async function countWithCap<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, cap = TOTAL_COUNT_LIMIT): Promise<number | null> {
  const alias = qb.alias;
  const metadata = qb.expressionMap.mainAlias?.metadata;
  if (!metadata) throw new Error('countWithCap needs a query builder over an entity');
  const keyColumns = metadata.primaryColumns.map((column) => `${qb.escape(alias)}.${qb.escape(column.databaseName)}`);
  const [sql, parameters] = qb
    .clone()
    .select(keyColumns.join(', '))
    .distinct(true)
    .orderBy()
    .skip(undefined)
    .take(undefined)
    .offset(undefined)
    .limit(cap + 1)
    .getQueryAndParameters();
  const rows = (await qb.connection.query(`SELECT count(*)::int AS count FROM (${sql}) AS capped`, parameters)) as Array<{ count: number }>;
  const count = Number(rows[0]?.count ?? 0);
  return count > cap ? null : count;
}

/**
 * One offset page of `qb` (which carries its own ORDER BY; without one, rows are ordered by
 * the primary key so that pages are stable). The total is counted up to `TOTAL_COUNT_LIMIT`;
 * past it, whether a next page exists is learned by fetching one row more.
 */
export async function fetchOffsetPage<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  pagination: OffsetPagination,
): Promise<{ items: T[]; info: OffsetPageInfo }> {
  const ordered = qb.clone();
  if (Object.keys(ordered.expressionMap.orderBys).length === 0) {
    for (const column of ordered.expressionMap.mainAlias?.metadata.primaryColumns ?? []) {
      ordered.addOrderBy(`${ordered.alias}.${column.propertyPath}`, 'ASC');
    }
  }
  const total = await countWithCap(qb);
  const base = { page: pagination.page, perPage: pagination.perPage };
  if (total !== null) {
    const items = pagination.offset >= total ? [] : await ordered.skip(pagination.offset).take(pagination.perPage).getMany();
    return { items, info: { ...base, total, hasNextPage: pagination.offset + pagination.perPage < total } };
  }
  const rows = await ordered
    .skip(pagination.offset)
    .take(pagination.perPage + 1)
    .getMany();
  return { items: rows.slice(0, pagination.perPage), info: { ...base, total: null, hasNextPage: rows.length > pagination.perPage } };
}

/** SQL expressions (`alias.property`) of the keyset columns, with how to read them from a row. */
export interface KeysetColumns<T> extends KeysetAccessors<T> {
  /** The unique tie breaker, e.g. `project.id`. */
  idExpression: string;
  /** One per supported `order_by` other than `id`, e.g. `{ name: 'group.name' }`. NOT NULL columns only. */
  orderExpressions?: Record<string, string>;
}

/**
 * One keyset page of `qb`: rows strictly after `pagination.after` in the order
 * `(order column, id)`, `perPage` of them. `next` is the position of the last row when the
 * page is full, else null (end of the collection; as GitLab, a full last page is followed
 * by an empty one).
 */
export async function fetchKeysetPage<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  pagination: KeysetPagination,
  columns: KeysetColumns<T>,
): Promise<{ items: T[]; next: KeysetPosition | null }> {
  const direction = pagination.sort === 'asc' ? 'ASC' : 'DESC';
  const operator = pagination.sort === 'asc' ? '>' : '<';
  const query = qb.clone().orderBy();
  const after = pagination.after;
  if (pagination.orderBy === 'id') {
    if (after) query.andWhere(`${columns.idExpression} ${operator} :keysetId`, { keysetId: after.id });
    query.orderBy(columns.idExpression, direction);
  } else {
    const expression = columns.orderExpressions?.[pagination.orderBy];
    if (!expression) throw new Error(`No keyset column for order_by=${pagination.orderBy}`);
    if (after) {
      // A row comparison (not `a < x OR (a = x AND id < y)`): PostgreSQL turns it into an index
      // range, so a deep page starts where the cursor points instead of filtering every row before it.
      query.andWhere(`(${expression}, ${columns.idExpression}) ${operator} (:keysetValue, :keysetId)`, { keysetValue: after.value, keysetId: after.id });
    }
    query.orderBy(expression, direction).addOrderBy(columns.idExpression, direction);
  }
  const items = await query.take(pagination.perPage).getMany();
  return { items, next: nextKeysetPosition(items, pagination, columns) };
}
