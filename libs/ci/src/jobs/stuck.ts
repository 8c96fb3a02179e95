/**
 * GitLab's "stuck" pending job (`Ci::Build#stuck?`): pending, and no online runner can take it.
 * A runner can take it when it may run the project's jobs (project, group or instance runner, as
 * the assignment decides), is not paused, asked for jobs in the last 2 hours (`ONLINE_CONTACT_TIMEOUT`),
 * has every tag of the job and, for an untagged job, runs untagged jobs.
 */
export interface RunnerCoverage {
  /** An online runner can take the job. */
  online: boolean;
  /** An active (not paused) runner may run the project's jobs, whatever its tags and last contact. */
  available: boolean;
}

/** The texts of GitLab's job page (its "stuck" block), chosen as it does. */
export const STUCK_REASONS = {
  tags: "This job is stuck because you don't have any active runners online or available with any of these tags assigned to them:",
  offline: "This job is stuck because the project doesn't have any runners online assigned to it.",
  none: "This job is stuck because you don't have any active runners that can run this job.",
} as const;

/**
 * Why a pending job is stuck, or null when it is not: a tagged job names its tags; otherwise the
 * project has runners that are offline (or cannot take it), or no active runner at all.
 */
export function stuckReason(job: { status: string; type: string; tagList: string[] }, coverage: RunnerCoverage | undefined): string | null {
  if (job.status !== 'pending' || job.type !== 'build' || !coverage || coverage.online) return null;
  if (job.tagList.length > 0) return `${STUCK_REASONS.tags} ${job.tagList.join(', ')}`;
  return coverage.available ? STUCK_REASONS.offline : STUCK_REASONS.none;
}
