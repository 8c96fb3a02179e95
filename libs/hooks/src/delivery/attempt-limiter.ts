/** What `tryRun` answers when the attempt waited too long in its hook's line and was not run. */
export const NOT_STARTED = Symbol('not started');

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

  /**
   * Like `run`, but gives up (answers `NOT_STARTED`, without running `attempt`) when the attempt
   * waited more than `lineWaitMs` in its hook's own line: the hook holds its whole share and
   * answers slowly, so the caller hands the attempt over rather than wait.
   */
  async tryRun<T>(hookId: number, attempt: () => Promise<T>, lineWaitMs: number): Promise<T | typeof NOT_STARTED> {
    if (!(await this.acquire(hookId, lineWaitMs))) return NOT_STARTED;
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

  /** Resolves true once the attempt holds a slot, or false when it waited `lineWaitMs` in its hook's line (then it holds nothing). */
  private async acquire(hookId: number, lineWaitMs = Infinity): Promise<boolean> {
    let hook = this.hooks.get(hookId);
    if (!hook) {
      hook = { running: 0, waiting: [] };
      this.hooks.set(hookId, hook);
    }
    const entry = hook;
    if (entry.running < this.perHookLimit && entry.waiting.length === 0) {
      entry.running += 1;
      await this.acquireSlot();
      return true;
    }
    const admitted = await new Promise<boolean>((resolve) => {
      let timer: NodeJS.Timeout | null = null;
      const admit = () => {
        if (timer) clearTimeout(timer);
        entry.running += 1;
        resolve(true);
      };
      entry.waiting.push(admit);
      if (Number.isFinite(lineWaitMs)) {
        timer = setTimeout(() => {
          const at = entry.waiting.indexOf(admit);
          if (at >= 0) entry.waiting.splice(at, 1);
          if (entry.running === 0 && entry.waiting.length === 0) this.hooks.delete(hookId);
          resolve(false);
        }, lineWaitMs);
      }
    });
    if (admitted) await this.acquireSlot();
    return admitted;
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
