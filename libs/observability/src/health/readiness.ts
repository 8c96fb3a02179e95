/** One dependency of the process: PostgreSQL, Redis, Kafka, ... */
export interface ReadinessCheck {
  /** Key of the check in the readiness report (`postgres`, `redis`, ...). */
  readonly name: string;
  /**
   * The process still serves while this dependency is away (Kafka: writes go to the outbox and
   * are published once it is back): then it is `degraded`, not `down`, and the process stays ready.
   */
  readonly optional?: boolean;
  /** Resolves when the dependency answers; rejects with the reason otherwise. */
  check(): Promise<void>;
}

/** `down`: a dependency the process cannot serve without; `degraded`: an `optional` one. */
export type CheckResult = { status: 'up' } | { status: 'down' | 'degraded'; error: string };

/**
 * `ok`: every dependency answers; `degraded`: only optional ones do not (still ready: 200);
 * `failed`: a required one does not (503).
 */
export interface ReadinessReport {
  status: 'ok' | 'degraded' | 'failed';
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

/** Runs one check bounded by `timeoutMs`: `up`, or `down` (`degraded` when the check is optional) with the reason. */
export async function runCheck(c: ReadinessCheck, timeoutMs = READINESS_CHECK_TIMEOUT_MS): Promise<CheckResult> {
  try {
    await withTimeout(
      Promise.resolve().then(() => c.check()),
      timeoutMs,
    );
    return { status: 'up' };
  } catch (error) {
    return { status: c.optional ? 'degraded' : 'down', error: reasonOf(error) };
  }
}

/** The status of a set of results: `failed` if one is down, else `degraded` if one is, else `ok`. */
export function overallStatus(results: readonly CheckResult[]): ReadinessReport['status'] {
  if (results.some((r) => r.status === 'down')) return 'failed';
  return results.some((r) => r.status === 'degraded') ? 'degraded' : 'ok';
}

/** Runs every check in parallel, each bounded by `timeoutMs`: `failed` when a required one is down. */
export async function runReadinessChecks(checks: readonly ReadinessCheck[], timeoutMs = READINESS_CHECK_TIMEOUT_MS): Promise<ReadinessReport> {
  const results = await Promise.all(checks.map(async (c): Promise<[string, CheckResult]> => [c.name, await runCheck(c, timeoutMs)]));
  return { status: overallStatus(results.map(([, r]) => r)), checks: Object.fromEntries(results) };
}
