import type { DefaultJobOptions } from 'bullmq';

/**
 * Options every job gets unless its `add()` says otherwise. The one place where retry and
 * retention policy is decided.
 *
 * - 8 attempts with exponential backoff from 10 s (10 s, 20 s, 40 s ... ~21 min) and 50 %
 *   jitter, so that jobs failing together (a receiver that is down) do not retry in lockstep;
 * - completed jobs are kept one day, at most 1000 per queue (enough to look at recent work);
 * - failed jobs are kept: they are what an operator inspects and retries.
 */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 10_000, jitter: 0.5 },
  removeOnComplete: { age: 24 * 60 * 60, count: 1000 },
  removeOnFail: false,
} as const satisfies DefaultJobOptions;
