import type { DataSource, EntityManager } from 'typeorm';

export interface TransactionBatcherOptions<I, O> {
  /** The work of one item inside the shared transaction. */
  run: (tx: EntityManager, item: I) => Promise<O>;
  /**
   * Wraps a whole batch inside its transaction (to write what its items collected in one
   * statement, for instance). Default: runs it as it is.
   */
  around?: <T>(tx: EntityManager, batch: () => Promise<T>) => Promise<T>;
  /** Items per transaction at most. */
  maxBatch: number;
  /**
   * How long a shared transaction waits for a lock (`lock_timeout`) before it gives up and its
   * items run apart: a row held long by another transaction then delays only the items that need
   * it, not every item queued behind them. Default: no limit.
   */
  batchLockTimeoutMs?: number;
}

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: the items submitted while a transaction is under way wait for it, then run
 * together in the next one, each with its own statements but with one `BEGIN`, one `COMMIT` and
 * whatever `around` writes once for all of them. Under load the fixed cost of a transaction is
 * shared by the items that arrived meanwhile; alone, an item waits for nobody. One batch runs at
 * a time per batcher.
 *
 * When a batch fails (a deadlock, one item's error, a lock awaited longer than
 * `batchLockTimeoutMs`), each of its items runs again in a transaction of its own, all at once and
 * beside the next batches, so that one item's failure or wait is its own only.
 */
export class TransactionBatcher<I, O> {
  private readonly queue: Waiting<I, O>[] = [];
  private running = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: TransactionBatcherOptions<I, O>,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.options.maxBatch);
        await this.runBatch(batch);
      }
    } finally {
      this.running = false;
    }
  }

  private async runBatch(batch: Waiting<I, O>[]): Promise<void> {
    if (batch.length > 1) {
      let results: O[] | null = null;
      try {
        results = await this.transaction(async (tx) => {
          if (this.options.batchLockTimeoutMs) await tx.query(`SET LOCAL lock_timeout = ${Math.floor(this.options.batchLockTimeoutMs)}`);
          const out: O[] = [];
          for (const waiting of batch) out.push(await this.options.run(tx, waiting.item));
          return out;
        });
      } catch {
        results = null;
      }
      if (results) {
        batch.forEach((waiting, i) => waiting.resolve(results[i]));
        return;
      }
      // Each item apart and at once, without holding up the items queued meanwhile.
      for (const waiting of batch) void this.runAlone(waiting);
      return;
    }
    await this.runAlone(batch[0]);
  }

  private async runAlone(waiting: Waiting<I, O>): Promise<void> {
    try {
      waiting.resolve(await this.transaction((tx) => this.options.run(tx, waiting.item)));
    } catch (error) {
      waiting.reject(error);
    }
  }

  private transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    const around = this.options.around;
    return this.dataSource.transaction((tx) => (around ? around(tx, () => work(tx)) : work(tx)));
  }
}
