import type { AppConfig } from '@app/config';
import type { JobsOptions } from 'bullmq';
import { HOOK_LOG_RETENTION_DAYS } from './hook-delivery-log';

/** Thrown for a failed attempt that will be retried; carries the delay chosen by the schedule. */
export class HookDeliveryRetry extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
    this.name = 'HookDeliveryRetry';
  }
}

/**
 * Thrown when an attempt could not start: its hook holds its whole share of the attempt slots
 * and answers slowly. The job is put back, delayed by `delayMs`, without counting an attempt.
 */
export class HookDeliveryPostponed extends Error {
  constructor(readonly delayMs: number) {
    super(`hook busy: postponed by ${delayMs} ms`);
    this.name = 'HookDeliveryPostponed';
  }
}

/**
 * How long an attempt may wait in its hook's own line (the hook holding its whole share of the
 * attempt slots) before it is handed over to a job of its own (fan-out) or postponed (retry job).
 */
export const HOOK_LINE_WAIT_MS = 1_000;

/** ±20 % around the scheduled delay, so that deliveries failing together do not retry together. */
export const RETRY_JITTER = 0.2;

/**
 * The delay before the retry that follows attempt `attemptsMade + 1`: the schedule's entry with
 * jitter, and at least the receiver's `Retry-After`.
 */
export function retryDelay(scheduleMs: readonly number[], attemptsMade: number, retryAfterMs: number | null, random = Math.random): number {
  const scheduled = scheduleMs[Math.min(attemptsMade, scheduleMs.length - 1)] ?? 0;
  const jittered = Math.round(scheduled * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
  return Math.max(jittered, retryAfterMs ?? 0);
}

/** BullMQ backoff strategy of the queue: the delay the processor decided (see `HookDeliveryRetry`). */
export const hookBackoffStrategy = (_attemptsMade: number, _type?: string, error?: Error): number =>
  error instanceof HookDeliveryRetry || error?.name === 'HookDeliveryRetry' ? (error as HookDeliveryRetry).delayMs : 5_000;

/** Backoff type of the delivery jobs (resolved by `hookBackoffStrategy`). */
export const HOOK_BACKOFF_TYPE = 'hook-schedule';

/** The job id of the retries of one event to one hook: rebuilt under the same id from `system_hook_retries`. */
export const deliveryJobId = (eventId: string, hookId: number): string => `${eventId}_${hookId}`;

/** The job id of a fan-out: named after its first event, recorded with each of its events. */
export const fanOutJobId = (firstEventId: string): string => `fan-out_${firstEventId}`;

/** Every attempt of a delivery from the first: one plus one per retry of the schedule. */
export const totalAttempts = (config: AppConfig): number => config.hooks.retryScheduleMs.length + 1;

/**
 * Options of a delivery job (retries of an (event, hook), a handed-over attempt, a resend):
 * `attempts` runs at most. Removed once done (PostgreSQL keeps what is owed); a job that used
 * its attempts is kept as long as the log.
 */
export function deliveryJobOptions(jobId: string, attempts: number, delayMs = 0): JobsOptions {
  return {
    jobId,
    attempts,
    delay: delayMs > 0 ? delayMs : undefined,
    backoff: { type: HOOK_BACKOFF_TYPE },
    removeOnComplete: true,
    removeOnFail: { age: HOOK_LOG_RETENTION_DAYS * 86_400 },
  };
}

/**
 * Options of a fan-out job. It fails only when PostgreSQL or Redis does: tried a few times, then
 * removed (the events stay pending in `system_hook_events`, and the recovery enqueues them again).
 */
export function fanOutJobOptions(jobId: string): JobsOptions {
  return { jobId, attempts: 5, backoff: { type: 'exponential', delay: 1_000 }, removeOnComplete: true, removeOnFail: true };
}
