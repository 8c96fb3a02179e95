import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobLifecycleService } from '../jobs/job-lifecycle.service';
import { JobsRepository } from '../jobs/jobs.repository';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { MaintenanceRepository } from './maintenance.repository';
import { DEFAULT_JOB_TIMEOUT } from '../pipelines/create-pipeline.use-case';

/** Pending jobs no runner took for this long are failed (GitLab's `BUILD_PENDING_OUTDATED_TIMEOUT`, 1 day). */
export const PENDING_OUTDATED_SECONDS = 24 * 3600;
/** A running job is failed once its timeout passed by this much (the runner enforces the timeout itself first). */
export const RUNNING_TIMEOUT_GRACE_SECONDS = 300;

/**
 * Fails with `stuck_or_timeout_failure` the jobs whose runner stopped reporting (no trace or state
 * update for the job's timeout), the jobs that ran past their timeout (plus a grace period), and the
 * pending jobs no runner took for a day. Everything it reads is in PostgreSQL (a Redis that
 * restarted empty loses nothing); each job is failed in its own transaction with the pipeline
 * and job locked, as a runner's `failed` would be, so `retry:` and the pipeline's processing apply.
 */
@Injectable()
export class DropStuckJobsUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly maintenance: MaintenanceRepository,
    private readonly jobs: JobsRepository,
    private readonly pipelines: PipelinesRepository,
    private readonly lifecycle: JobLifecycleService,
  ) {}

  async execute(batchSize: number): Promise<{ dropped: number }> {
    const candidates = await this.maintenance.stuckCandidates(batchSize, {
      defaultTimeout: DEFAULT_JOB_TIMEOUT,
      graceSeconds: RUNNING_TIMEOUT_GRACE_SECONDS,
      pendingOutdatedSeconds: PENDING_OUTDATED_SECONDS,
    });
    let dropped = 0;
    for (const candidate of candidates) {
      const done = await this.dataSource.transaction(async (tx) => {
        await this.pipelines.lockPipeline(tx, candidate.pipeline_id);
        const job = await this.jobs.lock(tx, candidate.id);
        if (!job || (job.status !== 'running' && job.status !== 'pending')) return false;
        if (!isStuck(job, new Date())) return false;
        await this.lifecycle.finish(tx, job, 'failed', { failureReason: 'stuck_or_timeout_failure', actorId: null });
        return true;
      });
      if (done) dropped++;
    }
    return { dropped };
  }
}

/** The same test as the query, on the locked row (a runner may have reported in between). */
export function isStuck(
  job: { status: string; type: string; timeout: number | null; lastContactAt: Date | null; startedAt: Date | null; queuedAt: Date | null; createdAt: Date },
  now: Date,
): boolean {
  const timeout = (job.timeout ?? DEFAULT_JOB_TIMEOUT) * 1000;
  if (job.status === 'running') {
    const contact = job.lastContactAt ?? job.startedAt;
    return (
      (contact !== null && contact.getTime() < now.getTime() - timeout) ||
      (job.startedAt !== null && job.startedAt.getTime() < now.getTime() - timeout - RUNNING_TIMEOUT_GRACE_SECONDS * 1000)
    );
  }
  return job.status === 'pending' && job.type === 'build' && (job.queuedAt ?? job.createdAt).getTime() < now.getTime() - PENDING_OUTDATED_SECONDS * 1000;
}
