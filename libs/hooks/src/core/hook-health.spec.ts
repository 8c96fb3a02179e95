import { afterFailure, disabledReason, HEALTHY, HookHealthState } from './hook-health';

const now = new Date('2026-01-01T00:00:00Z');
const fail = (state: HookHealthState, times: number, at = now): HookHealthState => {
  let s = state;
  for (let i = 0; i < times; i++) s = afterFailure(s, at);
  return s;
};

describe(afterFailure.name, () => {
  it('keeps the hook executable for 3 consecutive failures', () => {
    expect(fail(HEALTHY, 3)).toEqual({ ...HEALTHY, recentFailures: 3 });
  });

  it('disables temporarily for 1 minute at the 4th failure', () => {
    expect(fail(HEALTHY, 4)).toEqual({
      alertStatus: 'temporarily_disabled',
      disabledUntil: new Date(now.getTime() + 60_000),
      recentFailures: 4,
      backoffCount: 1,
    });
  });

  it('does not extend the period for failures while disabled, doubles it after, up to one day', () => {
    const first = fail(HEALTHY, 4);
    expect(afterFailure(first, now)).toEqual({ ...first, recentFailures: 5 });
    const later = new Date(now.getTime() + 61_000);
    expect(afterFailure(first, later).disabledUntil).toEqual(new Date(later.getTime() + 120_000));
    let state = first;
    let at = now;
    for (let i = 0; i < 36; i++) {
      at = new Date((state.disabledUntil ?? at).getTime() + 1);
      state = afterFailure(state, at);
    }
    expect(state.alertStatus).toBe('disabled');
    const capped = afterFailure({ ...HEALTHY, recentFailures: 10, backoffCount: 15 }, now);
    expect(capped.disabledUntil).toEqual(new Date(now.getTime() + 86_400_000));
  });

  it('disables permanently at the 40th consecutive failure', () => {
    const state = afterFailure({ ...HEALTHY, alertStatus: 'temporarily_disabled', recentFailures: 39, backoffCount: 5, disabledUntil: now }, now);
    expect(state.alertStatus).toBe('disabled');
    expect(disabledReason(state, now)).toMatch(/disabled after 40 consecutive failures/);
  });
});

describe(disabledReason.name, () => {
  it('lets an executable hook or an expired temporary disabling through', () => {
    expect(disabledReason(HEALTHY, now)).toBeNull();
    expect(disabledReason({ ...HEALTHY, alertStatus: 'temporarily_disabled', disabledUntil: new Date(now.getTime() - 1) }, now)).toBeNull();
    expect(disabledReason({ ...HEALTHY, alertStatus: 'temporarily_disabled', disabledUntil: new Date(now.getTime() + 1) }, now)).toMatch(
      /temporarily disabled until/,
    );
  });
});
