import { isAccessLocked, UNLOCK_IN_SECONDS } from './account-lockout';

describe(isAccessLocked.name, () => {
  const now = Date.parse('2026-11-24T12:00:00Z');

  it('is not locked without a lock time', () => {
    expect(isAccessLocked(null, now)).toBe(false);
    expect(isAccessLocked(undefined, now)).toBe(false);
  });

  it('is locked until the unlock period has passed, and not from then on', () => {
    expect(isAccessLocked(new Date(now), now)).toBe(true);
    expect(isAccessLocked(new Date(now - UNLOCK_IN_SECONDS * 1000 + 1), now)).toBe(true);
    expect(isAccessLocked(new Date(now - UNLOCK_IN_SECONDS * 1000), now)).toBe(false);
    expect(isAccessLocked(new Date(now - 24 * 3600 * 1000), now)).toBe(false);
  });

  it('keeps the GitLab defaults: 10 minutes', () => {
    expect(UNLOCK_IN_SECONDS).toBe(600);
  });
});
