import type { ProjectWithNamespace } from '@app/namespaces';

/**
 * What merge requests need from the project's git repository, implemented by the repository
 * module (which depends on this one, hence a token rather than an import). Optional: without it
 * branches are not checked and merge requests show GitLab's defaults.
 */
export const MERGE_REQUEST_GIT = Symbol('MERGE_REQUEST_GIT');

/** The git side of an open merge request. */
export interface MergeRequestGitStatus {
  /** Head of the source branch, null when the branch does not exist. */
  sha: string | null;
  /** `merge_status`. */
  mergeStatus: 'can_be_merged' | 'cannot_be_merged';
  /** `detailed_merge_status` as far as git decides it (draft and state are the presenter's). */
  detailedMergeStatus: 'mergeable' | 'conflict' | 'need_rebase' | 'broken_status';
  hasConflicts: boolean;
  /** `diff_refs`: source head, merge base and target head; null when a branch does not exist. */
  diffRefs: { baseSha: string; headSha: string; startSha: string } | null;
}

export interface MergeRequestGit {
  /** The names among `branches` that are not branches of the project's repository. */
  missingBranches(project: ProjectWithNamespace, branches: string[]): Promise<string[]>;
  /** The git status of each (source, target) pair, in order. */
  statuses(project: ProjectWithNamespace, pairs: Array<{ sourceBranch: string; targetBranch: string }>): Promise<MergeRequestGitStatus[]>;
}
