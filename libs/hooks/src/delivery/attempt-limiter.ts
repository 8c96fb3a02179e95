/**
 * Bounds the delivery attempts in flight in this process (`HOOK_WORKER_CONCURRENCY`), first come
 * first served, and the share one hook may hold: a hook never has more than `perHookLimit`
 * attempts running, and its further attempts wait in its own line without holding a slot, so
 * that a slow hook leaves the other hooks at least `limit - perHookLimit` slots.
 */
export class AttemptLimiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly hooks = new Map<number, { running: number; waiting: Array<() => void> }>();

  constructor(
    readonly limit: number,
    readonly perHookLimit = Math.max(1, limit - Math.floor(limit / 4)),
  ) {}

  /** Runs `attempt` once a slot is free for it (in the order of the calls, per hook and overall). */
  async run<T>(hookId: number, attempt: () => Promise<T>): Promise<T> {
    await this.acquire(hookId);
    try {
      return await attempt();
    } finally {
      this.release(hookId);
    }
  }

  /** Attempts of `hookId` running or waiting for a slot (not those waiting in the hook's own line). */
  inFlight(hookId: number): number {
    return this.hooks.get(hookId)?.running ?? 0;
  }

  /** Attempts of every hook running now. */
  get active(): number {
    return this.running;
  }

  private acquire(hookId: number): Promise<void> {
    let hook = this.hooks.get(hookId);
    if (!hook) {
      hook = { running: 0, waiting: [] };
      this.hooks.set(hookId, hook);
    }
    const entry = hook;
    if (entry.running < this.perHookLimit && entry.waiting.length === 0) {
      entry.running += 1;
      return this.acquireSlot();
    }
    return new Promise<void>((resolve) =>
      entry.waiting.push(() => {
        entry.running += 1;
        void this.acquireSlot().then(resolve);
      }),
    );
  }

  private acquireSlot(): Promise<void> {
    if (this.running < this.limit && this.waiting.length === 0) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) =>
      this.waiting.push(() => {
        this.running += 1;
        resolve();
      }),
    );
  }

  private release(hookId: number): void {
    this.running -= 1;
    const next = this.waiting.shift();
    if (next) next();
    const hook = this.hooks.get(hookId);
    if (!hook) return;
    hook.running -= 1;
    const own = hook.waiting.shift();
    if (own) own();
    else if (hook.running === 0) this.hooks.delete(hookId);
  }
}
