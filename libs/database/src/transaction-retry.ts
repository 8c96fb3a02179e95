/** PostgreSQL errors after which re-running the whole transaction is correct: deadlock, serialization failure. */
const RETRYABLE_CODES = new Set(['40P01', '40001']);

export const isRetryableTransactionError = (error: unknown): boolean => {
  const e = error as { code?: string; driverError?: { code?: string } };
  return RETRYABLE_CODES.has(e.code ?? e.driverError?.code ?? '');
};

/**
 * Runs `transaction` again (up to `attempts` times, with a short random pause) when
 * PostgreSQL aborted it as a deadlock victim or for a serialization failure. Under
 * concurrent writes to the same rows such aborts are expected; surfacing them as a 500 is not.
 * `transaction` must open its own transaction so that a retry starts from scratch.
 */
export async function retryTransaction<T>(transaction: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isRetryableTransactionError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 10 * attempt) + 1));
    }
  }
}
