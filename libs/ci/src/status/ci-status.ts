/** Job statuses (stored values; never rename). */
export const JOB_STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Pipeline statuses: the same set as jobs. */
export type PipelineStatus = JobStatus;
export const PIPELINE_STATUSES = JOB_STATUSES;

/** Statuses a job or pipeline does not leave on its own. */
export const COMPLETED_STATUSES: ReadonlySet<JobStatus> = new Set(['success', 'failed', 'canceled', 'skipped']);
/** Statuses of work that is still going on or can still start (cancel applies to them). */
export const ALIVE_STATUSES: ReadonlySet<JobStatus> = new Set(['created', 'waiting_for_resource', 'preparing', 'pending', 'running']);
export const CANCELABLE_STATUSES: ReadonlySet<JobStatus> = new Set(['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled']);
/** Statuses after which a job may be retried. */
export const RETRYABLE_STATUSES: ReadonlySet<JobStatus> = new Set(['success', 'failed', 'canceled']);

export const isJobStatus = (value: unknown): value is JobStatus => typeof value === 'string' && (JOB_STATUSES as readonly string[]).includes(value);
export const isCompleted = (status: JobStatus): boolean => COMPLETED_STATUSES.has(status);
