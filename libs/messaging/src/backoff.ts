/** Exponential backoff settings (milliseconds). */
export interface BackoffOptions {
  /** Delay before the first retry. */
  initialMs: number;
  /** Upper bound of any delay. */
  maxMs: number;
  /** Growth per attempt (default 2). */
  factor?: number;
  /**
   * Fraction of the delay that is randomized (0 = none, 1 = "full jitter"), so that several
   * processes failing at the same moment do not retry in lockstep. Default 0.2.
   */
  jitter?: number;
}

/** The relay's and the consumers' default: 100 ms, 200 ms, 400 ms ... capped at 5 s. */
export const DEFAULT_BACKOFF: Readonly<Required<BackoffOptions>> = { initialMs: 100, maxMs: 5_000, factor: 2, jitter: 0.2 };

/**
 * Delay before retry number `attempt` (1 = the first retry): `initialMs * factor^(attempt-1)`
 * capped at `maxMs`, then reduced by up to `jitter` of itself. `random` returns [0, 1).
 */
export function computeBackoff(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const { initialMs, maxMs } = options;
  const factor = options.factor ?? DEFAULT_BACKOFF.factor;
  const jitter = Math.min(Math.max(options.jitter ?? DEFAULT_BACKOFF.jitter, 0), 1);
  const exponent = Math.max(Math.floor(attempt), 1) - 1;
  // Cap the exponent so that large attempt counts do not overflow to Infinity/NaN.
  const raw = initialMs * Math.pow(factor, Math.min(exponent, 64));
  const capped = Math.min(Number.isFinite(raw) ? raw : maxMs, maxMs);
  return Math.round(capped * (1 - jitter * random()));
}
