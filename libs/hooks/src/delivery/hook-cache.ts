import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SystemHookEntity } from '../entities/system-hook.entity';

const HOOK_CACHE_MS = 1_000;

/**
 * The hooks with their encrypted tokens, as the delivery worker sees them: read at most once a
 * second (health changes of this process are applied to the cached rows by the deliverer).
 */
@Injectable()
export class HookCache {
  private cached: { at: number; hooks: Promise<Map<number, SystemHookEntity>> } | null = null;

  constructor(private readonly dataSource: DataSource) {}

  all(): Promise<Map<number, SystemHookEntity>> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < HOOK_CACHE_MS) return this.cached.hooks;
    const hooks = this.dataSource
      .getRepository(SystemHookEntity)
      .createQueryBuilder('h')
      .addSelect('h.encryptedToken')
      .getMany()
      .then((rows) => new Map(rows.map((hook) => [hook.id, hook])));
    const entry = { at: now, hooks };
    this.cached = entry;
    hooks.catch(() => {
      if (this.cached === entry) this.cached = null;
    });
    return hooks;
  }

  async get(id: number): Promise<SystemHookEntity | null> {
    return (await this.all()).get(id) ?? null;
  }
}
