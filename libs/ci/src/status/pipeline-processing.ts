import { COMPLETED_STATUSES, JobStatus } from './ci-status';
import { compositeStatus, StatusItem } from './composite-status';

export type JobWhen = 'on_success' | 'on_failure' | 'always' | 'manual' | 'delayed' | 'never';

/** A (latest, not retried) job of a pipeline as the processing sees it. */
export interface ProcessableJob extends StatusItem {
  id: number;
  name: string;
  stageIdx: number;
  when: JobWhen;
  /** Names of the jobs it needs (DAG); null for a stage-ordered job. */
  needs: string[] | null;
}

export interface JobTransition {
  id: number;
  to: Extract<JobStatus, 'pending' | 'manual' | 'skipped' | 'scheduled'>;
}

/** Statuses of the previous jobs that let a job run (GitLab's `ProcessBuildService#valid_statuses_for_processable`). */
function runsAfter(when: JobWhen, dag: boolean): readonly JobStatus[] {
  switch (when) {
    case 'on_success':
    case 'manual':
    case 'delayed':
      return dag ? ['success'] : ['success', 'skipped'];
    case 'on_failure':
      return ['failed'];
    case 'always':
      return ['success', 'failed', 'skipped'];
    case 'never':
      return [];
  }
}

function started(when: JobWhen): JobTransition['to'] {
  if (when === 'manual') return 'manual';
  if (when === 'delayed') return 'scheduled';
  return 'pending';
}

/**
 * What happens to the `created` jobs of a pipeline now (GitLab's atomic processing): stage by
 * stage, a job whose previous stages (or, for a DAG job, whose needs) are complete is enqueued
 * (`pending`), made `manual`, or `skipped` when the outcome before it does not match its `when`.
 * Decisions feed the following stages in the same pass. Pure: the caller applies the transitions.
 */
export function processPipeline(jobs: readonly ProcessableJob[]): JobTransition[] {
  const current = new Map<number, ProcessableJob>(jobs.map((job) => [job.id, { ...job }]));
  const byName = new Map<string, ProcessableJob>();
  for (const job of current.values()) byName.set(job.name, job);
  const transitions: JobTransition[] = [];
  const ordered = [...current.values()].sort((a, b) => a.stageIdx - b.stageIdx || a.id - b.id);
  for (const job of ordered) {
    if (job.status !== 'created') continue;
    const dag = job.needs !== null && job.needs.length > 0;
    let before: JobStatus | null;
    if (dag) {
      const needed = job.needs!.map((name) => byName.get(name)).filter((need): need is ProcessableJob => need !== undefined);
      before = compositeStatus(needed, { dag: true }) ?? 'success';
    } else if (job.needs !== null) {
      // `needs: []`: starts at once.
      before = 'success';
    } else {
      before = compositeStatus(ordered.filter((other) => other.stageIdx < job.stageIdx)) ?? 'success';
    }
    if (!COMPLETED_STATUSES.has(before)) continue;
    const to: JobTransition['to'] = runsAfter(job.when, dag).includes(before) ? started(job.when) : 'skipped';
    job.status = to;
    transitions.push({ id: job.id, to });
  }
  return transitions;
}

/** The pipeline's status from its latest jobs (null when it has none). */
export function pipelineStatus(jobs: readonly StatusItem[]): JobStatus | null {
  return compositeStatus(jobs);
}
