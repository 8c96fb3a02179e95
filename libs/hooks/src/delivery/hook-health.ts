import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { HookAlertStatus } from '../entities/system-hook.entity';
import { SystemHookEntity } from '../entities/system-hook.entity';

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

/** Reads and writes the health columns of `system_hooks`. */
@Injectable()
export class HookHealthService {
  constructor(private readonly dataSource: DataSource) {}

  /** Records a failed attempt atomically and answers the new state (null when the hook is gone). */
  async recordFailure(hookId: number, now = new Date()): Promise<HookHealthState | null> {
    return this.dataSource.transaction(async (tx) => {
      const row = await tx.getRepository(SystemHookEntity).createQueryBuilder('h').setLock('pessimistic_write').where('h.id = :hookId', { hookId }).getOne();
      if (!row) return null;
      const next = afterFailure(row, now);
      await tx.update(SystemHookEntity, { id: hookId }, next);
      return next;
    });
  }

  /** Records a success: the hook is executable again with no failure counted. */
  async recordSuccess(hookId: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE system_hooks SET alert_status = 'executable', disabled_until = NULL, recent_failures = 0, backoff_count = 0
        WHERE id = $1 AND (alert_status <> 'executable' OR recent_failures <> 0 OR backoff_count <> 0)`,
      [hookId],
    );
  }
}
