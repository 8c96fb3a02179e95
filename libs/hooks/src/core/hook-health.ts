import { Injectable } from '@nestjs/common';
import type { HookAlertStatus } from '../entities/system-hook.entity';
import { SystemHooksRepository } from './system-hooks.repository';

/** From this many consecutive failures a hook is disabled temporarily... */
export const TEMPORARILY_DISABLE_AFTER = 4;
/** ...and from this many, permanently (until an administrator re-enables it). */
export const PERMANENTLY_DISABLE_AFTER = 40;
export const FIRST_DISABLE_PERIOD_MS = 60_000;
export const MAX_DISABLE_PERIOD_MS = 86_400_000;

export interface HookHealthState {
  alertStatus: HookAlertStatus;
  disabledUntil: Date | null;
  recentFailures: number;
  backoffCount: number;
}

export const HEALTHY: HookHealthState = { alertStatus: 'executable', disabledUntil: null, recentFailures: 0, backoffCount: 0 };

export const isHealthy = (state: HookHealthState): boolean => state.alertStatus === 'executable' && state.recentFailures === 0 && state.backoffCount === 0;

/**
 * The state after one more failed attempt, as GitLab's web hooks: from the 4th consecutive
 * failure the hook is disabled for 1 minute, doubling with every further disabling up to one
 * day; from the 40th it is disabled until re-enabled. A failure of an attempt that was already
 * in flight while the hook was disabled counts, but does not extend the period.
 */
export function afterFailure(state: HookHealthState, now: Date): HookHealthState {
  const recentFailures = state.recentFailures + 1;
  if (recentFailures >= PERMANENTLY_DISABLE_AFTER) return { ...state, alertStatus: 'disabled', disabledUntil: null, recentFailures };
  if (recentFailures < TEMPORARILY_DISABLE_AFTER) return { ...state, recentFailures };
  if (state.alertStatus === 'temporarily_disabled' && state.disabledUntil && state.disabledUntil > now) return { ...state, recentFailures };
  const period = Math.min(MAX_DISABLE_PERIOD_MS, FIRST_DISABLE_PERIOD_MS * 2 ** Math.min(state.backoffCount, 20));
  return { alertStatus: 'temporarily_disabled', disabledUntil: new Date(now.getTime() + period), recentFailures, backoffCount: state.backoffCount + 1 };
}

/** Why a hook in `state` receives nothing now, or null when it may be delivered to. */
export function disabledReason(state: HookHealthState, now: Date): string | null {
  if (state.alertStatus === 'disabled') return `hook disabled after ${state.recentFailures} consecutive failures; re-enable it with PUT /hooks/:id`;
  if (state.alertStatus === 'temporarily_disabled' && state.disabledUntil && state.disabledUntil > now) {
    return `hook temporarily disabled until ${state.disabledUntil.toISOString()} after ${state.recentFailures} consecutive failures`;
  }
  return null;
}

/** Records the outcome of attempts in the health columns of `system_hooks`. */
@Injectable()
export class HookHealthService {
  constructor(private readonly hooks: SystemHooksRepository) {}

  /** Records a failed attempt atomically and answers the new state (null when the hook is gone). */
  recordFailure(hookId: number, now = new Date()): Promise<HookHealthState | null> {
    return this.hooks.updateHealth(hookId, (state) => afterFailure(state, now));
  }

  /** Records a success: the hook is executable again with no failure counted. */
  recordSuccess(hookId: number): Promise<void> {
    return this.hooks.resetHealth(hookId);
  }
}
