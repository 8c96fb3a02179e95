import { createHash, randomBytes } from 'node:crypto';

/** Prefix of runner authentication tokens (what `gitlab-runner register --token` expects). */
export const RUNNER_TOKEN_PREFIX = 'glrt-';
/** Prefix of job tokens (`CI_JOB_TOKEN`). */
export const JOB_TOKEN_PREFIX = 'glcbt-';

export const digestSecret = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
export const generateRunnerToken = (): string => `${RUNNER_TOKEN_PREFIX}${randomBytes(20).toString('base64url')}`;
export const generateJobToken = (): string => `${JOB_TOKEN_PREFIX}${randomBytes(24).toString('base64url')}`;

/** A runner is online when it asked for jobs in the last two hours (GitLab's `ONLINE_CONTACT_TIMEOUT`). */
export const RUNNER_ONLINE_SECONDS = 2 * 3600;
/** GitLab's `STALE_TIMEOUT`: no contact (or never, created this long ago) for 7 days. */
export const RUNNER_STALE_SECONDS = 7 * 86400;

export type RunnerStatus = 'online' | 'offline' | 'stale' | 'never_contacted';

export function runnerStatus(runner: { contactedAt: Date | null; createdAt: Date }, now = new Date()): RunnerStatus {
  const age = (date: Date): number => (now.getTime() - date.getTime()) / 1000;
  if (!runner.contactedAt) return age(runner.createdAt) > RUNNER_STALE_SECONDS ? 'stale' : 'never_contacted';
  if (age(runner.contactedAt) <= RUNNER_ONLINE_SECONDS) return 'online';
  return age(runner.contactedAt) > RUNNER_STALE_SECONDS ? 'stale' : 'offline';
}
