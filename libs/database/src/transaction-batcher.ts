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
 * When a batch fails (a deadlock, one item's error), each of its items runs again in a
 * transaction of its own, so that one item's failure is its own only.
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
    }
    for (const waiting of batch) {
      try {
        waiting.resolve(await this.transaction((tx) => this.options.run(tx, waiting.item)));
      } catch (error) {
        waiting.reject(error);
      }
    }
  }

  private transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    const around = this.options.around;
    return this.dataSource.transaction((tx) => (around ? around(tx, () => work(tx)) : work(tx)));
  }
}
