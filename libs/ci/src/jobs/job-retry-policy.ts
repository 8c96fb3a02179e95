import type { CiRetry } from '../config/ci-config.types';

/**
 * Whether a failed job is retried automatically (`retry:`): attempts left, and the failure
 * reason listed (`always` matches every reason) or, with `exit_codes`, the exit code listed.
 */
export function shouldAutoRetry(retry: CiRetry | undefined, retryCount: number, failureReason: string, exitCode: number | null): boolean {
  if (!retry || retry.max <= retryCount) return false;
  const reasonMatches = retry.when.includes('always') || retry.when.includes(failureReason);
  if (retry.exitCodes.length > 0) {
    const codeMatches = exitCode !== null && retry.exitCodes.includes(exitCode);
    // GitLab: with both, either one matching is enough; with `exit_codes` alone, the code decides.
    return retry.when.length === 1 && retry.when[0] === 'always' ? codeMatches : reasonMatches || codeMatches;
  }
  return reasonMatches;
}
