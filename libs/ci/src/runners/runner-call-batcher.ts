import { TransactionBatcher } from '@app/database';
import type { OutboxService } from '@app/messaging';
import type { DataSource, EntityManager } from 'typeorm';

/** Runner calls that share a transaction at most. */
const CALLS_PER_TRANSACTION = 16;
/** How long a shared transaction waits for a lock before its calls run apart. */
const BATCH_LOCK_TIMEOUT_MS = 1000;

/**
 * Group commit of the runner protocol's calls (claims, job updates): those that arrive while one
 * is under way share the next transaction, with one outbox write for the events of all.
 */
export function runnerCallBatcher<I, O>(
  dataSource: DataSource,
  outbox: OutboxService,
  run: (tx: EntityManager, item: I) => Promise<O>,
): TransactionBatcher<I, O> {
  return new TransactionBatcher<I, O>(dataSource, {
    maxBatch: CALLS_PER_TRANSACTION,
    batchLockTimeoutMs: BATCH_LOCK_TIMEOUT_MS,
    around: (tx, batch) => outbox.collect(tx, batch),
    run,
  });
}
