import { defineQueue, JobSchedule } from '@app/queue';

// The BullMQ queues of the CI lib. Never rename a queue or a job: stored in Redis with every job.

export interface CiMaintenancePayload {
  /** Rows handled per run at most (the next run takes the rest). */
  batchSize: number;
}

/** Housekeeping of pipelines: jobs that stopped reporting or waited too long, expired artifacts. */
export const CI_MAINTENANCE = defineQueue<{ 'drop-stuck-jobs': CiMaintenancePayload; 'expire-artifacts': CiMaintenancePayload }>()('ci-maintenance', {
  /** Fails running jobs past their timeout and pending jobs nobody took for a day (`stuck_or_timeout_failure`). */
  DROP_STUCK_JOBS: 'drop-stuck-jobs',
  /** Removes artifacts past their `expire_at`. */
  EXPIRE_ARTIFACTS: 'expire-artifacts',
});

/** Every minute: a job's timeout is counted in minutes. */
export const DROP_STUCK_JOBS_SCHEDULE: JobSchedule = { everyMs: 60_000 };
/** Every 10 minutes, off the minute. */
export const EXPIRE_ARTIFACTS_SCHEDULE: JobSchedule = { cron: '7-59/10 * * * *' };
export const CI_MAINTENANCE_BATCH = 500;
