import { Injectable } from '@nestjs/common';
import type { SystemHookEntity } from '../entities/system-hook.entity';
import { SystemHooksRepository } from '../core/system-hooks.repository';

const HOOK_CACHE_MS = 1_000;

/**
 * The hooks with their encrypted tokens, as the delivery worker sees them: read at most once a
 * second (health changes of this process are applied to the cached rows by the deliverer).
 */
@Injectable()
export class HookCache {
  private cached: { at: number; hooks: Promise<Map<number, SystemHookEntity>> } | null = null;

  constructor(private readonly hooks: SystemHooksRepository) {}

  /**
   * The hooks, read again when the cached read is a second old or lacks one of `needed` (a hook
   * created since: a hook missing from a fresh read is a deleted one).
   */
  async all(needed: Iterable<number> = []): Promise<Map<number, SystemHookEntity>> {
    const cached = this.cached && Date.now() - this.cached.at < HOOK_CACHE_MS ? await this.cached.hooks.catch(() => null) : null;
    if (cached && [...needed].every((id) => cached.has(id))) return cached;
    return this.read();
  }

  async get(id: number): Promise<SystemHookEntity | null> {
    return (await this.all([id])).get(id) ?? null;
  }

  private read(): Promise<Map<number, SystemHookEntity>> {
    const now = Date.now();
    const hooks = this.hooks.listWithTokens().then((rows) => new Map(rows.map((hook) => [hook.id, hook])));
    const entry = { at: now, hooks };
    this.cached = entry;
    hooks.catch(() => {
      if (this.cached === entry) this.cached = null;
    });
    return hooks;
  }
}
