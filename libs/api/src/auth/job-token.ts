/** What a running job's token (`CI_JOB_TOKEN`) stands for. */
export interface JobTokenIdentity {
  jobId: number;
  projectId: number;
  userId: number | null;
}

/**
 * Resolves job tokens; provided by the CI library. A token is valid only while its job runs:
 * null for unknown tokens and for jobs that finished.
 */
export interface JobTokenResolver {
  resolveRunning(token: string): Promise<JobTokenIdentity | null>;
}

export const JOB_TOKEN_RESOLVER = Symbol('JOB_TOKEN_RESOLVER');

/** The user name git clients send with a job token (GitLab's). */
export const JOB_TOKEN_GIT_USER = 'gitlab-ci-token';
