/** What `tryRun` answers when the attempt waited too long for its slow hook and was not run. */
export const NOT_STARTED = Symbol('not started');

interface Waiter {
  hookId: number;
  /** Arrival order across hooks (first come, first served). */
  seq: number;
  /** Resolves the wait: true once admitted, false when it gave up. */
  settle: (admitted: boolean) => void;
  /** When it may give up (`tryRun`: arrival + line wait), or Infinity (`run`). */
  deadline: number;
  /** Gave up waiting (`tryRun`): skipped when its turn comes. */
  cancelled: boolean;
}

/** A hook's waiting attempts in arrival order; `head` is the first not yet admitted. */
interface HookLine {
  items: (Waiter | undefined)[];
  head: number;
}

/**
 * Bounds the delivery attempts in flight in this process (`HOOK_WORKER_CONCURRENCY`), first come
 * first served, and the share one hook may hold: a hook never has more than `perHookLimit`
 * attempts running. The attempts of a hook that holds its whole share wait without holding a
 * slot, and the attempts behind them are not held up: the next free slot goes to the first
 * waiting attempt whose hook is below its share. So a slow hook leaves the other hooks at least
 * `limit - perHookLimit` slots.
 */
export class AttemptLimiter {
  private running = 0;
  /**
   * Waiting attempts, one line per hook: admitting takes the oldest head among the hooks below
   * their share, O(hooks waiting) per slot, however many attempts wait (a burst queues tens of
   * thousands behind the slots; one array scanned and spliced per release cost O(waiting)).
   */
  private readonly lines = new Map<number, HookLine>();
  private waitingCount = 0;
  private seq = 0;
  /** Attempts running by hook (absent: none running). */
  private readonly hooks = new Map<number, number>();
  private sweeper: NodeJS.Timeout | null = null;
  private sweepPeriod = Infinity;

  constructor(
    readonly limit: number,
    readonly perHookLimit = Math.max(1, limit - Math.floor(limit / 4)),
  ) {}

  /** Runs `attempt` once a slot is free for it (in the order of the calls, but for hooks holding their share). */
  async run<T>(hookId: number, attempt: () => Promise<T>): Promise<T> {
    await this.acquire(hookId, Infinity);
    try {
      return await attempt();
    } finally {
      this.release(hookId);
    }
  }

  /**
   * Like `run`, but gives up (answers `NOT_STARTED`, without running `attempt`) when the attempt
   * has waited `lineWaitMs` and its hook holds its whole share then: the hook is stuck, or busy
   * but answering slower than its events come (the caller hands the attempt over rather than let
   * the hook pace everything behind it). Waiting for slots other hooks hold does not count.
   */
  async tryRun<T>(hookId: number, attempt: () => Promise<T>, lineWaitMs: number): Promise<T | typeof NOT_STARTED> {
    if (!(await this.acquire(hookId, lineWaitMs))) return NOT_STARTED;
    try {
      return await attempt();
    } finally {
      this.release(hookId);
    }
  }

  /** Attempts of `hookId` running now. */
  inFlight(hookId: number): number {
    return this.hooks.get(hookId) ?? 0;
  }

  /** Attempts of every hook running now. */
  get active(): number {
    return this.running;
  }

  /** Resolves true once the attempt holds a slot, or false when, after waiting `lineWaitMs`, its hook holds its share (then it holds nothing). */
  private acquire(hookId: number, lineWaitMs: number): Promise<boolean> {
    // After every release, no waiting attempt could take a free slot: a new one that can goes first.
    if (this.running < this.limit && this.inFlight(hookId) < this.perHookLimit) {
      this.take(hookId);
      return Promise.resolve(true);
    }
    return new Promise<boolean>((settle) => {
      const finite = Number.isFinite(lineWaitMs);
      this.enqueue({ hookId, seq: this.seq++, settle, deadline: finite ? Date.now() + lineWaitMs : Infinity, cancelled: false });
      if (finite) this.watch(lineWaitMs);
    });
  }

  /**
   * One timer for every attempt that may give up (rather than one each: a burst keeps tens of
   * thousands waiting): every quarter of the shortest line wait, the lines of the hooks holding
   * their whole share give up their attempts whose wait has run out. Waiting for slots other
   * hooks hold does not count: the lines of hooks below their share are left alone.
   */
  private watch(lineWaitMs: number): void {
    const period = Math.max(1, Math.floor(lineWaitMs / 4));
    if (this.sweeper && this.sweepPeriod <= period) return;
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweepPeriod = period;
    this.sweeper = setInterval(() => this.sweep(), period);
    this.sweeper.unref();
  }

  private sweep(): void {
    const now = Date.now();
    let patient = false;
    for (const [hookId, line] of this.lines) {
      const full = this.inFlight(hookId) >= this.perHookLimit;
      for (let i = line.head; i < line.items.length; i++) {
        const waiter = line.items[i];
        if (!waiter || waiter.cancelled || waiter.deadline === Infinity) continue;
        if (!full || waiter.deadline > now) {
          // A line's attempts wait in arrival order, and so run out in that order.
          patient = true;
          break;
        }
        waiter.cancelled = true;
        this.waitingCount -= 1;
        waiter.settle(false);
      }
      this.headOf(hookId, line);
    }
    if (!patient && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
      this.sweepPeriod = Infinity;
    }
  }

  private take(hookId: number): void {
    this.running += 1;
    this.hooks.set(hookId, (this.hooks.get(hookId) ?? 0) + 1);
  }

  private release(hookId: number): void {
    this.running -= 1;
    const running = this.hooks.get(hookId) ?? 0;
    if (running > 1) this.hooks.set(hookId, running - 1);
    else this.hooks.delete(hookId);
    this.admit();
  }

  private enqueue(waiter: Waiter): void {
    let line = this.lines.get(waiter.hookId);
    if (!line) {
      line = { items: [], head: 0 };
      this.lines.set(waiter.hookId, line);
    }
    line.items.push(waiter);
    this.waitingCount += 1;
  }

  /** The first waiter of a line that has not given up, or undefined (the line is then dropped). */
  private headOf(hookId: number, line: HookLine): Waiter | undefined {
    while (line.head < line.items.length) {
      const waiter = line.items[line.head];
      if (waiter && !waiter.cancelled) return waiter;
      line.items[line.head] = undefined;
      line.head += 1;
    }
    this.lines.delete(hookId);
    return undefined;
  }

  /** Gives the free slots to the first waiting attempts whose hooks are below their share. */
  private admit(): void {
    while (this.running < this.limit && this.waitingCount > 0) {
      let next: { waiter: Waiter; line: HookLine } | undefined;
      for (const [hookId, line] of this.lines) {
        const waiter = this.headOf(hookId, line);
        if (!waiter || this.inFlight(hookId) >= this.perHookLimit) continue;
        if (!next || waiter.seq < next.waiter.seq) next = { waiter, line };
      }
      if (!next) return;
      const { waiter, line } = next;
      line.items[line.head] = undefined;
      line.head += 1;
      if (line.head >= line.items.length) this.lines.delete(waiter.hookId);
      else if (line.head >= 1024 && line.head * 2 >= line.items.length) {
        line.items = line.items.slice(line.head);
        line.head = 0;
      }
      this.waitingCount -= 1;
      this.take(waiter.hookId);
      waiter.settle(true);
    }
  }
}
