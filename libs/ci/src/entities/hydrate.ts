import type { EntityManager } from 'typeorm';

/** An entity from a row of `RETURNING *` (column names, values as the driver gives them). */
export function hydrate<T extends object>(manager: EntityManager, target: new () => T, row: Record<string, unknown>): T {
  const metadata = manager.connection.getMetadata(target);
  const entity = metadata.create() as T;
  for (const column of metadata.columns) {
    if (column.databaseName in row) column.setEntityValue(entity, manager.connection.driver.prepareHydratedValue(row[column.databaseName], column));
  }
  return entity;
}
