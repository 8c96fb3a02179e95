import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { HookHealthState } from './hook-health';
import { SystemHookEntity } from '../entities/system-hook.entity';

const MAX_ID = 2_147_483_647;

/** Reads and writes `system_hooks`. The encrypted token is read only by `findWithToken`. */
@Injectable()
export class SystemHooksRepository {
  constructor(private readonly dataSource: DataSource) {}

  list(): Promise<SystemHookEntity[]> {
    return this.dataSource.getRepository(SystemHookEntity).find({ order: { id: 'ASC' } });
  }

  /** Every hook with its encrypted token (the delivery worker's cache). */
  listWithTokens(): Promise<SystemHookEntity[]> {
    return this.dataSource.getRepository(SystemHookEntity).createQueryBuilder('h').addSelect('h.encryptedToken').getMany();
  }

  /** How many hooks are not executable, by `alert_status` (`temporarily_disabled`, `disabled`). */
  async countNotExecutable(): Promise<Map<string, number>> {
    const rows: Array<{ status: string; count: string }> = await this.dataSource.query(
      `SELECT alert_status AS status, count(*)::text AS count FROM system_hooks WHERE alert_status <> 'executable' GROUP BY 1`,
    );
    return new Map(rows.map((r) => [r.status, Number(r.count)]));
  }

  /**
   * Sets the hook's health to `next(current)` atomically (the row locked meanwhile) and answers
   * the new state (null when the hook is gone).
   */
  updateHealth(hookId: number, next: (current: HookHealthState) => HookHealthState): Promise<HookHealthState | null> {
    return this.dataSource.transaction(async (tx) => {
      const row = await tx.getRepository(SystemHookEntity).createQueryBuilder('h').setLock('pessimistic_write').where('h.id = :hookId', { hookId }).getOne();
      if (!row) return null;
      const state = next(row);
      await tx.update(SystemHookEntity, { id: hookId }, state);
      return state;
    });
  }

  /** The hook is executable again with no failure counted (no write when it already is). */
  async resetHealth(hookId: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE system_hooks SET alert_status = 'executable', disabled_until = NULL, recent_failures = 0, backoff_count = 0
        WHERE id = $1 AND (alert_status <> 'executable' OR recent_failures <> 0 OR backoff_count <> 0)`,
      [hookId],
    );
  }

  find(id: number, manager: EntityManager = this.dataSource.manager): Promise<SystemHookEntity | null> {
    if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) return Promise.resolve(null);
    return manager.getRepository(SystemHookEntity).findOneBy({ id });
  }

  /** The hook with its encrypted token, locked for update when inside a transaction. */
  async findWithToken(id: number, manager: EntityManager = this.dataSource.manager, lock = false): Promise<SystemHookEntity | null> {
    if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) return null;
    const qb = manager.getRepository(SystemHookEntity).createQueryBuilder('h').addSelect('h.encryptedToken').where('h.id = :id', { id });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  save(hook: SystemHookEntity, manager: EntityManager): Promise<SystemHookEntity> {
    return manager.getRepository(SystemHookEntity).save(hook);
  }

  async delete(id: number, manager: EntityManager): Promise<void> {
    await manager.getRepository(SystemHookEntity).delete({ id });
  }
}
