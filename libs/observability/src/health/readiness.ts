/** One dependency the process needs in order to serve: PostgreSQL, Redis, Kafka, ... */
export interface ReadinessCheck {
  /** Key of the check in the readiness report (`postgres`, `redis`, ...). */
  readonly name: string;
  /** Resolves when the dependency answers; rejects with the reason otherwise. */
  check(): Promise<void>;
}

export type CheckResult = { status: 'up' } | { status: 'down'; error: string };

export interface ReadinessReport {
  status: 'ok' | 'failed';
  checks: Record<string, CheckResult>;
}

/** Longest time one readiness check may take before it counts as down. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

export class CheckTimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'CheckTimeoutError';
  }
}

/** `promise`, or a `CheckTimeoutError` after `ms` (the promise itself keeps running). */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeoutError(ms)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const reasonOf = (error: unknown): string => {
  if (error instanceof AggregateError && error.errors.length) return reasonOf(error.errors[0]);
  if (error instanceof Error) return error.message || error.name;
  return String(error);
};

/** Runs every check in parallel, each bounded by `timeoutMs`; `ok` only when all are up. */
export async function runReadinessChecks(checks: readonly ReadinessCheck[], timeoutMs = READINESS_CHECK_TIMEOUT_MS): Promise<ReadinessReport> {
  const results = await Promise.all(
    checks.map(async (c): Promise<[string, CheckResult]> => {
      try {
        await withTimeout(Promise.resolve().then(() => c.check()), timeoutMs);
        return [c.name, { status: 'up' }];
      } catch (error) {
        return [c.name, { status: 'down', error: reasonOf(error) }];
      }
    }),
  );
  return {
    status: results.every(([, r]) => r.status === 'up') ? 'ok' : 'failed',
    checks: Object.fromEntries(results),
  };
}
