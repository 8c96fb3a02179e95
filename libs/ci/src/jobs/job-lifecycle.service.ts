import { Injectable } from '@nestjs/common';
import { OutboxService } from '@app/messaging';
import { EntityManager } from 'typeorm';
import { CiEventScope, jobStatusEvent } from '../events/ci.events';
import { CiJobEntity } from '../entities/ci-job.entity';
import { PipelineProcessor } from '../pipelines/pipeline-processor';
import { RUNNER_FAILURE_REASONS } from './job-payload';
import { shouldAutoRetry } from './job-retry-policy';
import { JobQueueRepository } from '../queues/job-queue.repository';
import { JobsRepository } from './jobs.repository';
import { ObjectStorage } from '../storage/object-storage';
import { COVERAGE_SCAN_BYTES, extractCoverage } from './coverage';

export type FinishedStatus = 'success' | 'failed' | 'canceled';

/** Failure reasons of bridges (set by the service, never by a runner). */
export const BRIDGE_FAILURE_REASONS = [
  'downstream_pipeline_creation_failed',
  'downstream_pipeline_failed',
  'insufficient_bridge_permissions',
  'downstream_bridge_project_not_found',
  'invalid_bridge_trigger',
] as const;

/**
 * The transitions of a job that a runner, a user or the stuck-job check cause, each with its
 * domain event, followed by the pipeline's processing (next jobs, statuses), in the caller's
 * transaction. A failure the job's `retry:` covers creates the next attempt at once.
 */
@Injectable()
export class JobLifecycleService {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly outbox: OutboxService,
    private readonly processor: PipelineProcessor,
    private readonly jobQueue: JobQueueRepository,
    private readonly storage: ObjectStorage,
  ) {}

  async scopeOf(tx: EntityManager, projectId: number): Promise<CiEventScope> {
    return this.jobs.scopeOf(tx, projectId);
  }

  /**
   * Ends a job; returns the automatic retry when one was created. With `deferProcessing` the
   * pipeline is not processed here: the caller hands it to the `PipelineProcessingLine` after
   * the commit (the job stays `processed = false` until then).
   */
  async finish(
    tx: EntityManager,
    job: CiJobEntity,
    status: FinishedStatus,
    details: { failureReason?: string | null; exitCode?: number | null; actorId: number | null },
    knownScope?: CiEventScope,
    options: { deferProcessing?: boolean } = {},
  ): Promise<CiJobEntity | null> {
    const from = job.status;
    const now = new Date();
    job.status = status;
    job.finishedAt = now;
    job.startedAt ??= status === 'canceled' ? null : now;
    job.exitCode = details.exitCode ?? job.exitCode;
    if (status === 'failed') {
      const reason = details.failureReason ?? 'unknown_failure';
      const known: readonly string[] = job.type === 'bridge' ? BRIDGE_FAILURE_REASONS : RUNNER_FAILURE_REASONS;
      job.failureReason = known.includes(reason) ? reason : 'unknown_failure';
      if (job.exitCode !== null && job.options.allowFailureExitCodes?.includes(job.exitCode)) job.allowFailure = true;
    }
    if (status !== 'canceled' && job.options.coverageRegex) job.coverage = await this.coverageOf(tx, job, job.options.coverageRegex);
    job.processed = !options.deferProcessing;
    await this.jobs.saveFinished(tx, job);
    const scope = knownScope ?? (await this.scopeOf(tx, job.projectId));
    const events = [jobStatusEvent(details.actorId, job, from, scope)];
    let retry: CiJobEntity | null = null;
    if (status === 'failed' && shouldAutoRetry(job.options.retry, job.retryCount, job.failureReason ?? 'unknown_failure', job.exitCode)) {
      await this.outbox.append(tx, events.splice(0));
      retry = await this.retry(tx, job, details.actorId, 'pending');
    }
    if (options.deferProcessing) {
      if (events.length > 0) await this.outbox.append(tx, events);
      return retry;
    }
    await this.processor.process(tx, job.pipelineId, scope, details.actorId, events);
    return retry;
  }

  /** The coverage the end of the job's log reports with the job's `coverage:` regex (string with two decimals), or null. */
  private async coverageOf(tx: EntityManager, job: CiJobEntity, regex: string): Promise<string | null> {
    const trace = await this.jobs.trace(job.id, tx);
    if (!trace) return null;
    const size = Number(trace.size);
    const object = await this.storage.get(trace.storageKey, { start: Math.max(0, size - COVERAGE_SCAN_BYTES), length: Math.min(size, COVERAGE_SCAN_BYTES) });
    if (!object) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of object.stream as AsyncIterable<Buffer>) chunks.push(chunk);
    const value = extractCoverage(regex, Buffer.concat(chunks).toString('utf8'));
    return value === null ? null : value.toFixed(2);
  }

  /** A new attempt of `job` (kept, marked `retried`), in `pending` (or `manual` for a manual job played again). */
  async retry(tx: EntityManager, job: CiJobEntity, actorId: number | null, status: 'pending' | 'created' | 'manual'): Promise<CiJobEntity> {
    job.retried = true;
    // A retried attempt is out of its pipeline's processing: nothing is left for it to see.
    job.processed = true;
    await this.jobs.save(tx, job);
    const saved = await this.jobs.insertJob(tx, {
      projectId: job.projectId,
      pipelineId: job.pipelineId,
      type: job.type,
      name: job.name,
      stage: job.stage,
      stageIdx: job.stageIdx,
      status,
      when: job.when,
      allowFailure: job.allowFailure && job.options.allowFailureExitCodes?.length ? false : job.allowFailure,
      needs: job.needs,
      options: job.options,
      yamlVariables: job.yamlVariables,
      tagList: job.tagList,
      ref: job.ref,
      sha: job.sha,
      tag: job.tag,
      protected: job.protected,
      retryCount: job.retryCount + 1,
      userId: actorId ?? job.userId,
      timeout: job.timeout,
      queuedAt: status === 'pending' ? new Date() : null,
    });
    const scope = await this.scopeOf(tx, job.projectId);
    await this.outbox.append(tx, jobStatusEvent(actorId, saved, 'created', scope));
    if (status === 'pending') await this.jobQueue.notifyPending(tx);
    return saved;
  }
}
