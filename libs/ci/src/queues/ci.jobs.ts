import { defineQueue, JobSchedule } from '@app/queue';

// The BullMQ queues of the CI lib. Never rename a queue or a job: stored in Redis with every job.

export interface CiMaintenancePayload {
  /** Rows handled per run at most (the next run takes the rest). */
  batchSize: number;
}

export interface StartScheduledJobPayload {
  /** The `scheduled` (delayed) CI job to make pending when due. */
  ciJobId: number;
}

/**
 * Housekeeping of pipelines: jobs that stopped reporting or waited too long, expired artifacts,
 * and delayed jobs that are due.
 */
export const CI_MAINTENANCE = defineQueue<{
  'drop-stuck-jobs': CiMaintenancePayload;
  'expire-artifacts': CiMaintenancePayload;
  'start-scheduled-job': StartScheduledJobPayload;
  'start-due-scheduled-jobs': CiMaintenancePayload;
  'process-unprocessed-pipelines': CiMaintenancePayload;
}>()('ci-maintenance', {
  /** Fails running jobs past their timeout and pending jobs nobody took for a day (`stuck_or_timeout_failure`). */
  DROP_STUCK_JOBS: 'drop-stuck-jobs',
  /** Removes artifacts past their `expire_at`. */
  EXPIRE_ARTIFACTS: 'expire-artifacts',
  /** One delayed job, added with its `start_in` as the delay: makes it `pending`. */
  START_SCHEDULED_JOB: 'start-scheduled-job',
  /**
   * From PostgreSQL: starts the delayed jobs that are due and puts back the delayed queue jobs of
   * those due soon (Redis may have lost them).
   */
  START_DUE_SCHEDULED_JOBS: 'start-due-scheduled-jobs',
  /** From PostgreSQL: processes the pipelines of job ends that no processing saw (the process ended in between). */
  PROCESS_UNPROCESSED_PIPELINES: 'process-unprocessed-pipelines',
});

/** Every minute: a job's timeout is counted in minutes. */
export const DROP_STUCK_JOBS_SCHEDULE: JobSchedule = { everyMs: 60_000 };
/** Every 10 minutes, off the minute. */
export const EXPIRE_ARTIFACTS_SCHEDULE: JobSchedule = { cron: '7-59/10 * * * *' };
export const CI_MAINTENANCE_BATCH = 500;
/** Every minute: a delayed job whose queue job was lost starts at most this late. */
export const START_DUE_SCHEDULED_JOBS_SCHEDULE: JobSchedule = { everyMs: 60_000 };
/** Every minute: a pipeline whose processing was lost moves on at most this late (after its grace). */
export const PROCESS_UNPROCESSED_PIPELINES_SCHEDULE: JobSchedule = { everyMs: 60_000 };
