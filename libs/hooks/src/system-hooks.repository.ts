import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SystemHookEntity } from './entities/system-hook.entity';

const MAX_ID = 2_147_483_647;

/** Reads and writes `system_hooks`. The encrypted token is read only by `findWithToken`. */
@Injectable()
export class SystemHooksRepository {
  constructor(private readonly dataSource: DataSource) {}

  list(): Promise<SystemHookEntity[]> {
    return this.dataSource.getRepository(SystemHookEntity).find({ order: { id: 'ASC' } });
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
