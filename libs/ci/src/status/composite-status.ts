import type { JobStatus } from './ci-status';

/** One job as the composition sees it. */
export interface StatusItem {
  status: JobStatus;
  allowFailure: boolean;
}

type Member = JobStatus | 'success_with_warnings' | 'ignored';

/** An allowed failure (or cancellation) counts as a success with warnings; an allowed manual job is ignored. */
function memberOf(item: StatusItem): Member {
  if (item.allowFailure && (item.status === 'failed' || item.status === 'canceled')) return 'success_with_warnings';
  if (item.allowFailure && item.status === 'manual') return 'ignored';
  return item.status;
}

/**
 * The status of a group of jobs (a stage, a pipeline, the jobs before a job, the needs of a
 * DAG job), composed as GitLab's `Gitlab::Ci::Status::Composite` does: the order of the checks
 * matters. `null` for no jobs. With `dag`, a skipped or ignored need skips the job, and needs
 * that are not all complete keep it `pending` (waiting).
 */
export function compositeStatus(items: readonly StatusItem[], options: { dag?: boolean } = {}): JobStatus | null {
  const set = new Set<Member>(items.map(memberOf));
  if (set.size === 0) return null;
  const any = (...names: Member[]): boolean => names.some((name) => set.has(name));
  const only = (...names: Member[]): boolean => {
    const matching = names.filter((name) => set.has(name)).length;
    return matching > 0 && matching === set.size;
  };
  if (options.dag && any('skipped', 'ignored')) return 'skipped';
  if (options.dag && !only('success', 'failed', 'canceled', 'skipped', 'success_with_warnings')) return 'pending';
  if (only('skipped', 'ignored')) return 'skipped';
  if (only('success', 'skipped', 'success_with_warnings', 'ignored')) return 'success';
  if (only('created', 'success_with_warnings', 'ignored')) return 'created';
  if (only('preparing', 'success_with_warnings', 'ignored')) return 'preparing';
  if (only('canceled', 'success', 'skipped', 'success_with_warnings', 'ignored')) return 'canceled';
  if (only('pending', 'created', 'skipped', 'success_with_warnings', 'ignored')) return 'pending';
  if (any('running', 'pending')) return 'running';
  if (any('waiting_for_resource')) return 'waiting_for_resource';
  if (any('manual')) return 'manual';
  if (any('scheduled')) return 'scheduled';
  if (any('preparing')) return 'preparing';
  if (any('created')) return 'running';
  return 'failed';
}

/** Whether the composition has allowed failures (GitLab's "passed with warnings"). */
export function hasWarnings(items: readonly StatusItem[]): boolean {
  return items.some((item) => memberOf(item) === 'success_with_warnings');
}
