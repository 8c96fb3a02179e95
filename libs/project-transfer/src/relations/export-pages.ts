import { EntityManager, EntityTarget, FindOptionsWhere, In, MoreThan, ObjectLiteral } from 'typeorm';

/** Rows read per query: memory holds one page of a relation (and its nested records) at a time. */
export const EXPORT_PAGE = 500;

/** Calls `each` with the rows of `entity` matching `where`, page by page in id order. */
export async function eachPage<T extends ObjectLiteral & { id: number }>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  where: FindOptionsWhere<T>,
  each: (rows: T[]) => Promise<void>,
  page = EXPORT_PAGE,
): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = await manager.find(entity, { where: { ...where, id: MoreThan(after) } as FindOptionsWhere<T>, order: { id: 'ASC' } as never, take: page });
    if (rows.length === 0) return;
    await each(rows);
    after = rows[rows.length - 1].id;
    if (rows.length < page) return;
  }
}

/** The rows of `entity` with these ids (nulls and repeats ignored), by id. */
export async function byId<T extends { id: number }>(manager: EntityManager, entity: EntityTarget<T>, ids: Array<number | null>): Promise<Map<number, T>> {
  const unique = [...new Set(ids.filter((id): id is number => id !== null))];
  if (unique.length === 0) return new Map();
  const rows = await manager.find(entity, { where: { id: In(unique) } as unknown as FindOptionsWhere<T> });
  return new Map(rows.map((row) => [row.id, row]));
}

export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
