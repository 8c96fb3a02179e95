import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { IidUsage, InternalIdEntity } from '../entities/internal-id.entity';

/**
 * Hands out per-project (or per-group) `iid`s. Call inside the creating transaction: the
 * upsert locks the counter row until commit, so concurrent creations queue up behind each
 * other, and a rollback returns the number (no gaps).
 */
@Injectable()
export class InternalIdsRepository {
  async next(tx: EntityManager, scopeType: 'project' | 'group', scopeId: number, usage: IidUsage): Promise<number> {
    const rows = (await tx.query(
      `INSERT INTO internal_ids (scope_type, scope_id, usage, last_value) VALUES ($1, $2, $3, 1)
       ON CONFLICT (scope_type, scope_id, usage) DO UPDATE SET last_value = internal_ids.last_value + 1
       RETURNING last_value`,
      [scopeType, scopeId, usage],
    )) as { last_value: number }[];
    return rows[0].last_value;
  }

  /** Sets a counter to `lastValue` (an import's highest iid), creating it when missing. */
  async setImported(tx: EntityManager, scopeType: 'project' | 'group', scopeId: number, usage: IidUsage, lastValue: number): Promise<void> {
    await tx
      .createQueryBuilder()
      .insert()
      .into(InternalIdEntity)
      .values({ scopeType, scopeId, usage, lastValue })
      .orUpdate(['last_value'], ['scope_type', 'scope_id', 'usage'])
      .execute();
  }
}
