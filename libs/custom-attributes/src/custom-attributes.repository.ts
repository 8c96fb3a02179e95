import { Injectable } from '@nestjs/common';
import { parseIdOrName } from '@app/api';
import { DataSource, EntityManager } from 'typeorm';
import { CUSTOM_ATTRIBUTE_TABLES, CustomAttributeResourceType, CustomAttributeView } from './custom-attribute-resource';

interface Row {
  resource_id: number;
  key: string;
  value: string;
}

/** The attributes of users, groups and projects (one table per resource type). */
@Injectable()
export class CustomAttributesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The user that carries attributes, by id or (case-insensitive) username, as identity's
   * `UsersRepository.findByIdOrUsername` finds it; null when there is none. Read here from the
   * `users` table so that this lib stays below identity (which uses the list filters).
   */
  async findUser(ref: string): Promise<{ id: number; username: string } | null> {
    const parsed = parseIdOrName(ref);
    if (parsed === null) return null;
    const rows: Array<{ id: number; username: string }> =
      'id' in parsed
        ? await this.dataSource.query('SELECT id, username FROM users WHERE id = $1', [parsed.id])
        : await this.dataSource.query('SELECT id, username FROM users WHERE lower(username) = lower($1) LIMIT 1', [parsed.name]);
    return rows[0] ?? null;
  }

  async list(type: CustomAttributeResourceType, resourceId: number, manager: EntityManager = this.dataSource.manager): Promise<CustomAttributeView[]> {
    const { table, column } = CUSTOM_ATTRIBUTE_TABLES[type];
    return manager.query(`SELECT key, value FROM ${table} WHERE ${column} = $1 ORDER BY key`, [resourceId]);
  }

  async find(
    type: CustomAttributeResourceType,
    resourceId: number,
    key: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<CustomAttributeView | null> {
    const { table, column } = CUSTOM_ATTRIBUTE_TABLES[type];
    const rows: CustomAttributeView[] = await manager.query(`SELECT key, value FROM ${table} WHERE ${column} = $1 AND key = $2`, [resourceId, key]);
    return rows[0] ?? null;
  }

  /** Creates or updates; returns the previous value (null when the attribute is new). */
  async upsert(
    type: CustomAttributeResourceType,
    resourceId: number,
    key: string,
    value: string,
    manager: EntityManager,
  ): Promise<{ previous: string | null }> {
    const { table, column } = CUSTOM_ATTRIBUTE_TABLES[type];
    const before: Array<{ value: string }> = await manager.query(`SELECT value FROM ${table} WHERE ${column} = $1 AND key = $2 FOR UPDATE`, [resourceId, key]);
    await manager.query(
      `INSERT INTO ${table} (${column}, key, value) VALUES ($1, $2, $3)
       ON CONFLICT (${column}, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [resourceId, key, value],
    );
    return { previous: before[0]?.value ?? null };
  }

  /** Removes the attribute; null when there was none. */
  async delete(type: CustomAttributeResourceType, resourceId: number, key: string, manager: EntityManager): Promise<CustomAttributeView | null> {
    const { table, column } = CUSTOM_ATTRIBUTE_TABLES[type];
    const result: unknown[] = await manager.query(`DELETE FROM ${table} WHERE ${column} = $1 AND key = $2 RETURNING key, value`, [resourceId, key]);
    // The driver answers a DELETE with [rows, count].
    const rows = (Array.isArray(result[0]) ? result[0] : result) as CustomAttributeView[];
    return rows[0] ?? null;
  }

  /** The attributes of many resources at once, by resource id. */
  async forResources(type: CustomAttributeResourceType, resourceIds: number[]): Promise<Map<number, CustomAttributeView[]>> {
    const byResource = new Map<number, CustomAttributeView[]>(resourceIds.map((id) => [id, []]));
    if (resourceIds.length === 0) return byResource;
    const { table, column } = CUSTOM_ATTRIBUTE_TABLES[type];
    const rows: Row[] = await this.dataSource.query(`SELECT ${column} AS resource_id, key, value FROM ${table} WHERE ${column} = ANY($1) ORDER BY key`, [
      resourceIds,
    ]);
    for (const row of rows) byResource.get(row.resource_id)?.push({ key: row.key, value: row.value });
    return byResource;
  }
}
