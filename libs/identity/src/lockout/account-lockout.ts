/**
 * Account lockout after wrong passwords, as GitLab's Devise `lockable` configuration:
 * `maximum_attempts` 10 and `unlock_in` 10 minutes (unlock strategy `time`). Every door that
 * checks a user's password (web sign-in, OAuth password grant, git HTTP Basic) counts its
 * failures on the same user row.
 */
export const MAX_LOGIN_ATTEMPTS = 10;

/** Seconds an account stays locked after its last allowed failure. */
export const UNLOCK_IN_SECONDS = 10 * 60;

/** What Devise shows for a locked account (`devise.failure.locked`). */
export const ACCOUNT_LOCKED_MESSAGE = 'Your account is locked.';

/** GitLab's `access_locked?`: locked, and the unlock period has not passed yet. */
export function isAccessLocked(lockedAt: Date | null | undefined, now = Date.now()): boolean {
  return lockedAt instanceof Date && lockedAt.getTime() + UNLOCK_IN_SECONDS * 1000 > now;
}
