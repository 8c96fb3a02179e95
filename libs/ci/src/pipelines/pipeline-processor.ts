import { Injectable } from '@nestjs/common';
import { OutboxService } from '@app/messaging';
import type { NewDomainEvent } from '@app/messaging';
import { EntityManager } from 'typeorm';
import { CI_EVENTS, CiEventScope, jobStatusEvent, pipelineEvent } from '../events/ci.events';
import type { CiJobEntity } from '../entities/ci-job.entity';
import type { CiPipelineEntity } from '../entities/ci-pipeline.entity';
import { COMPLETED_STATUSES, JobStatus } from '../status/ci-status';
import { compositeStatus } from '../status/composite-status';
import { processPipeline } from '../status/pipeline-processing';
import { PipelinesRepository } from './pipelines.repository';
import { JobQueueRepository } from '../queues/job-queue.repository';
import { ScheduledJobTimers } from '../queues/scheduled-job-timers';

/** Seconds between two dates, null when either is missing. */
const secondsBetween = (from: Date | null, to: Date | null): number | null =>
  from && to ? Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000)) : null;

/**
 * Brings a pipeline up to date after its jobs changed: enqueues, skips, makes manual or schedules
 * (delayed jobs, with their `scheduled_at` and timer) the jobs whose turn came (GitLab's atomic processing), then composes stage and pipeline statuses and
 * their timestamps. Runs inside the caller's transaction with the pipeline row locked, and
 * writes a domain event for every job and pipeline status change.
 */
@Injectable()
export class PipelineProcessor {
  constructor(
    private readonly pipelines: PipelinesRepository,
    private readonly outbox: OutboxService,
    private readonly timers: ScheduledJobTimers,
    private readonly jobQueue: JobQueueRepository,
  ) {}

  /**
   * `events` are written with the processing's own, in one outbox write (the caller's job
   * event, for instance).
   */
  async process(
    tx: EntityManager,
    pipelineId: number,
    scope: CiEventScope,
    actorId: number | null,
    events: NewDomainEvent[] = [],
  ): Promise<CiPipelineEntity | null> {
    const pipeline = await this.pipelines.lockForProcessing(tx, pipelineId);
    if (!pipeline) {
      if (events.length > 0) await this.outbox.append(tx, events);
      return null;
    }
    const jobs = await this.pipelines.latestJobsForProcessing(tx, pipelineId);
    await this.pipelines.markProcessed(
      tx,
      jobs.filter((job) => !job.processed).map((job) => job.id),
    );
    const now = new Date();
    const byId = new Map(jobs.map((job) => [job.id, job]));
    const moved = new Map<string, number[]>();
    for (const transition of processPipeline(
      jobs.map((job) => ({
        id: job.id,
        name: job.name,
        stageIdx: job.stageIdx,
        status: job.status,
        allowFailure: job.allowFailure,
        when: job.when,
        needs: job.needs,
      })),
    )) {
      const job = byId.get(transition.id)!;
      const from = job.status;
      job.status = transition.to;
      if (transition.to === 'pending') job.queuedAt = now;
      moved.set(transition.to, [...(moved.get(transition.to) ?? []), job.id]);
      events.push(jobStatusEvent(actorId, job, from, scope));
    }
    for (const [status, ids] of moved) await this.pipelines.setJobStatuses(tx, ids, status, status === 'pending' ? now : null);
    const scheduled = await this.pipelines.scheduleJobs(tx, moved.get('scheduled') ?? [], now);
    for (const { id, scheduledAt } of scheduled) byId.get(id)!.scheduledAt = scheduledAt;
    // Set before the commit: a timer that fires early waits for the pipeline lock, then finds the job scheduled.
    await this.timers.set(scheduled);
    const enqueued = moved.get('pending')?.length ?? 0;
    if (enqueued > 0) await this.jobQueue.notifyPending(tx, enqueued);

    const stageStatuses = new Map<string, string>();
    for (const name of new Set(jobs.map((job) => job.stage))) stageStatuses.set(name, compositeStatus(jobs.filter((job) => job.stage === name)) ?? 'skipped');
    await this.pipelines.setStageStatuses(tx, pipelineId, stageStatuses);

    const from = pipeline.status;
    const status: JobStatus = pipeline.yamlErrors ? 'failed' : (compositeStatus(jobs) ?? 'skipped');
    const coverage = pipelineCoverage(jobs);
    if (status !== from) {
      pipeline.status = status;
      if (!pipeline.startedAt && status === 'running') pipeline.startedAt = now;
      if (COMPLETED_STATUSES.has(status)) {
        pipeline.finishedAt = now;
        pipeline.duration = pipelineDuration(jobs);
        pipeline.queuedDuration = secondsBetween(pipeline.createdAt, pipeline.startedAt);
      } else {
        pipeline.finishedAt = null;
      }
      pipeline.coverage = coverage;
      await this.pipelines.saveProcessed(tx, pipeline);
      events.push(pipelineEvent(CI_EVENTS.PIPELINE_STATUS_CHANGED, actorId, pipeline, scope, { from, to: status }));
    } else if (coverage !== pipeline.coverage) {
      pipeline.coverage = coverage;
      await this.pipelines.saveProcessed(tx, pipeline);
    }
    if (events.length > 0) await this.outbox.append(tx, events);
    return pipeline;
  }

  /**
   * A job was given to a runner (`pending` → `running`; the claim made its stage and pipeline
   * `running`, see `JobsRepository.claimNextFor`): nothing becomes pending because a job
   * started, so the pipeline needs no processing. Writes the job's event, and the pipeline's
   * when the job started it (`startedFrom`, its status before), in one outbox write.
   */
  async jobStarted(tx: EntityManager, job: CiJobEntity, scope: CiEventScope, startedFrom: JobStatus | null): Promise<void> {
    const events: NewDomainEvent[] = [jobStatusEvent(null, job, 'pending', scope)];
    if (startedFrom !== null) {
      const pipeline = await this.pipelines.findById(tx, job.pipelineId);
      if (pipeline) events.push(pipelineEvent(CI_EVENTS.PIPELINE_STATUS_CHANGED, null, pipeline, scope, { from: startedFrom, to: 'running' }));
    }
    await this.outbox.append(tx, events);
  }
}

/** GitLab's pipeline duration: the length of the union of the periods its jobs ran. */
export function pipelineDuration(jobs: readonly Pick<CiJobEntity, 'startedAt' | 'finishedAt'>[]): number | null {
  const periods = jobs
    .filter((job) => job.startedAt && job.finishedAt)
    .map((job) => [job.startedAt!.getTime(), job.finishedAt!.getTime()] as const)
    .sort((a, b) => a[0] - b[0]);
  if (periods.length === 0) return null;
  let total = 0;
  let [start, end] = periods[0];
  for (const [from, to] of periods.slice(1)) {
    if (from > end) {
      total += end - start;
      [start, end] = [from, to];
    } else end = Math.max(end, to);
  }
  total += end - start;
  return Math.round(total / 1000);
}

/** The average coverage of the jobs that report one, as GitLab (string with two decimals) — null without any. */
export function pipelineCoverage(jobs: readonly Pick<CiJobEntity, 'coverage'>[]): string | null {
  const values = jobs
    .map((job) => job.coverage)
    .filter((c): c is string => c !== null)
    .map(Number);
  if (values.length === 0) return null;
  return (values.reduce((a, b) => a + b, 0) / values.length).toFixed(2);
}
