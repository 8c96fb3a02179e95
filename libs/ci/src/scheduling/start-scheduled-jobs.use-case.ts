import { Injectable } from '@nestjs/common';
import { OutboxService } from '@app/messaging';
import { DataSource, EntityManager } from 'typeorm';
import { jobStatusEvent } from '../events/ci.events';
import type { CiJobEntity } from '../entities/ci-job.entity';
import { JobLifecycleService } from '../jobs/job-lifecycle.service';
import { JobQueueRepository } from '../queues/job-queue.repository';
import { JobsRepository } from '../jobs/jobs.repository';
import { PipelineProcessor } from '../pipelines/pipeline-processor';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { ScheduledJobTimers } from '../queues/scheduled-job-timers';
import { ScheduledJobsRepository } from './scheduled-jobs.repository';

/** Timers of jobs due within this many seconds are put back by each sweep (one sweep a minute, plus margin). */
export const SCHEDULED_TIMER_HORIZON_SECONDS = 120;

/**
 * Delayed jobs (`when: delayed`): a `scheduled` job becomes `pending` when its `scheduled_at`
 * comes (its timer, or the sweep), or at once when a developer plays it. Each start runs in one
 * transaction with the pipeline and the job locked (the order every processing takes), writes
 * the job's event, wakes the runners and processes the pipeline.
 */
@Injectable()
export class StartScheduledJobsUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly scheduled: ScheduledJobsRepository,
    private readonly jobs: JobsRepository,
    private readonly pipelines: PipelinesRepository,
    private readonly lifecycle: JobLifecycleService,
    private readonly processor: PipelineProcessor,
    private readonly jobQueue: JobQueueRepository,
    private readonly outbox: OutboxService,
    private readonly timers: ScheduledJobTimers,
  ) {}

  /** The timer of one job fired: starts it when it is still scheduled and due. */
  async startIfDue(ciJobId: number): Promise<'started' | 'not-scheduled' | 'not-due'> {
    const outcome = await this.dataSource.transaction(async (tx) => {
      const pipelineId = (await this.jobs.findById(ciJobId, tx))?.pipelineId;
      if (pipelineId === undefined) return { result: 'not-scheduled' as const };
      await this.pipelines.lockPipeline(tx, pipelineId);
      const job = await this.jobs.lock(tx, ciJobId);
      if (!job || job.status !== 'scheduled' || job.retried) return { result: 'not-scheduled' as const };
      if (job.scheduledAt && job.scheduledAt.getTime() > Date.now()) return { result: 'not-due' as const, job };
      await this.enqueue(tx, job, null);
      return { result: 'started' as const };
    });
    // A timer that fired early (clock skew between hosts): set again for the remaining time.
    if (outcome.result === 'not-due') await this.timers.set([{ id: outcome.job.id, scheduledAt: outcome.job.scheduledAt! }]);
    return outcome.result;
  }

  /**
   * From PostgreSQL alone: starts the scheduled jobs that are due (their timers were lost with
   * Redis, or fired before the scheduling committed) and sets again the timers of those due
   * before the next sweep.
   */
  async sweep(batchSize: number): Promise<{ started: number; timers: number }> {
    let started = 0;
    for (const id of await this.scheduled.due(batchSize)) if ((await this.startIfDue(id)) === 'started') started++;
    const soon = await this.scheduled.dueWithin(SCHEDULED_TIMER_HORIZON_SECONDS, batchSize);
    await this.timers.set(soon);
    return { started, timers: soon.length };
  }

  /** `scheduled` → `pending` in the caller's transaction (job and pipeline locked); `actorId` plays it. */
  async enqueue(tx: EntityManager, job: CiJobEntity, actorId: number | null): Promise<void> {
    const scope = await this.lifecycle.scopeOf(tx, job.projectId);
    job.status = 'pending';
    job.queuedAt = new Date();
    if (actorId !== null) job.userId = actorId;
    await this.jobs.save(tx, job);
    await this.outbox.append(tx, jobStatusEvent(actorId, job, 'scheduled', scope));
    await this.jobQueue.notifyPending(tx);
    await this.processor.process(tx, job.pipelineId, scope, actorId);
  }
}
