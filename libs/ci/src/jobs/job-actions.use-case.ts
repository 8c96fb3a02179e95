import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource, EntityManager } from 'typeorm';
import { CI_EVENTS, jobStatusEvent } from '../events/ci.events';
import type { CiJobEntity } from '../entities/ci-job.entity';
import { JobLifecycleService } from './job-lifecycle.service';
import { JobQueueRepository } from '../queues/job-queue.repository';
import { JobsRepository } from './jobs.repository';
import { PipelineProcessor } from '../pipelines/pipeline-processor';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { CANCELABLE_STATUSES, COMPLETED_STATUSES, RETRYABLE_STATUSES } from '../status/ci-status';
import { ObjectStorage } from '../storage/object-storage';

/**
 * The user's actions on one job (`POST /projects/:id/jobs/:job_id/cancel|retry|play|erase`), each
 * in one transaction with the job row locked, its domain events, and the pipeline's processing.
 */
@Injectable()
export class JobActionsUseCase {
  private readonly logger = new Logger(JobActionsUseCase.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobsRepository,
    private readonly pipelines: PipelinesRepository,
    private readonly lifecycle: JobLifecycleService,
    private readonly processor: PipelineProcessor,
    private readonly jobQueue: JobQueueRepository,
    private readonly outbox: OutboxService,
    private readonly storage: ObjectStorage,
  ) {}

  private async locked<T>(job: CiJobEntity, work: (tx: EntityManager, current: CiJobEntity) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (tx) => {
      // Pipeline first, then the job: the order every processing takes (no deadlock with a runner's update).
      await this.pipelines.lockPipeline(tx, job.pipelineId);
      const current = await this.jobs.lock(tx, job.id);
      if (!current) throw DomainError.notFound('Job');
      return work(tx, current);
    });
  }

  /** Cancels a job that has not finished; a finished (or manual) job is answered as it is, as GitLab does. */
  async cancel(job: CiJobEntity, actorId: number): Promise<CiJobEntity> {
    return this.locked(job, async (tx, current) => {
      if (!CANCELABLE_STATUSES.has(current.status)) return current;
      await this.lifecycle.finish(tx, current, 'canceled', { actorId });
      return current;
    });
  }

  /** A new attempt of a finished job (`pending`); the old one stays, `retried`. 403 `Job is not retryable` otherwise. */
  async retry(job: CiJobEntity, actorId: number): Promise<CiJobEntity> {
    return this.locked(job, async (tx, current) => {
      if (!RETRYABLE_STATUSES.has(current.status) || current.retried) throw DomainError.forbidden('Job is not retryable');
      const next = await this.lifecycle.retry(tx, current, actorId, 'pending');
      await this.resetSkippedAfter(tx, current.pipelineId, [current]);
      await this.processor.process(tx, current.pipelineId, await this.lifecycle.scopeOf(tx, current.projectId), actorId);
      return (await this.jobs.findById(next.id, tx)) ?? next;
    });
  }

  /**
   * Starts a manual job (`manual` → `pending`, played by the caller) or a delayed one at once
   * (`scheduled` → `pending`, GitLab's "Run now"); a finished manual or delayed job is played
   * again as a new attempt. 400 `Unplayable Job` for any other job.
   */
  async play(job: CiJobEntity, actorId: number): Promise<CiJobEntity> {
    return this.locked(job, async (tx, current) => {
      const scope = await this.lifecycle.scopeOf(tx, current.projectId);
      if ((current.status === 'manual' || current.status === 'scheduled') && !current.retried) {
        const from = current.status;
        current.status = 'pending';
        current.userId = actorId;
        current.queuedAt = new Date();
        await this.jobs.save(tx, current);
        await this.outbox.append(tx, jobStatusEvent(actorId, current, from, scope));
        await this.jobQueue.notifyPending(tx);
        await this.processor.process(tx, current.pipelineId, scope, actorId);
        return current;
      }
      if ((current.when === 'manual' || current.when === 'delayed') && RETRYABLE_STATUSES.has(current.status) && !current.retried) {
        const next = await this.lifecycle.retry(tx, current, actorId, 'pending');
        await this.resetSkippedAfter(tx, current.pipelineId, [current]);
        await this.processor.process(tx, current.pipelineId, scope, actorId);
        return (await this.jobs.findById(next.id, tx)) ?? next;
      }
      throw DomainError.badRequest('Unplayable Job');
    });
  }

  /** Removes the artifacts and the log of a finished job and records who erased it. 403 `Job is not erasable!` otherwise. */
  async erase(job: CiJobEntity, actorId: number): Promise<CiJobEntity> {
    const { erased, keys } = await this.locked(job, async (tx, current) => {
      const artifacts = await this.jobs.artifacts([current.id]);
      const trace = await this.jobs.trace(current.id, tx);
      if (current.type !== 'build' || !COMPLETED_STATUSES.has(current.status) || (artifacts.length === 0 && (!trace || Number(trace.size) === 0))) {
        throw DomainError.forbidden('Job is not erasable!');
      }
      const removed = await this.jobs.deleteArtifacts(tx, current.id);
      const removedTrace = await this.jobs.deleteTrace(tx, current.id);
      current.erasedAt = new Date();
      current.erasedById = actorId;
      current.artifactsExpireAt = null;
      await this.jobs.save(tx, current);
      const scope = await this.lifecycle.scopeOf(tx, current.projectId);
      const event = jobStatusEvent(actorId, current, current.status, scope);
      await this.outbox.append(tx, {
        ...event,
        type: CI_EVENTS.JOB_ERASED,
        data: { ...event.data, erased_by_id: actorId, artifacts_removed: removed.length, trace_removed: removedTrace !== null },
      });
      return { erased: current, keys: [...removed.map((a) => a.storageKey), ...(removedTrace ? [removedTrace.storageKey] : [])] };
    });
    await this.deleteObjects(keys);
    return erased;
  }

  /**
   * After jobs of a pipeline are retried: the later jobs that their failure had skipped (later
   * stages, or needing them) are `created` again, so the processing runs them in turn (GitLab's
   * `ResetSkippedJobsService`).
   */
  async resetSkippedAfter(tx: EntityManager, pipelineId: number, retried: CiJobEntity[]): Promise<void> {
    if (retried.length === 0) return;
    const minStage = Math.min(...retried.map((job) => job.stageIdx));
    const names = new Set(retried.map((job) => job.name));
    const scope = await this.lifecycle.scopeOf(tx, retried[0].projectId);
    const jobs = await this.pipelines.latestJobs(tx, pipelineId);
    const reset = jobs.filter(
      (job) => job.status === 'skipped' && (job.needs ? job.needs.some((name) => names.has(name)) || job.stageIdx > minStage : job.stageIdx > minStage),
    );
    for (const job of reset) {
      job.status = 'created';
      job.finishedAt = null;
    }
    await this.pipelines.saveJobs(tx, reset);
    if (reset.length > 0)
      await this.outbox.append(
        tx,
        reset.map((job) => jobStatusEvent(null, job, 'skipped', scope)),
      );
  }

  /** Removes objects after the rows are gone (committed); a failure leaves an orphan file, logged. */
  async deleteObjects(keys: string[]): Promise<void> {
    for (const key of keys) {
      await this.storage.delete(key).catch((error: unknown) => this.logger.warn(`could not delete ${key}: ${String(error)}`));
    }
  }
}
