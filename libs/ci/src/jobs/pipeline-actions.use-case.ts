import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource, EntityManager } from 'typeorm';
import { CI_EVENTS, CiEventScope, pipelineEvent } from '../events/ci.events';
import type { CiPipelineEntity } from '../entities/ci-pipeline.entity';
import { JobLifecycleService } from './job-lifecycle.service';
import { JobsRepository } from './jobs.repository';
import { PipelineProcessor } from '../pipelines/pipeline-processor';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { CANCELABLE_STATUSES } from '../status/ci-status';
import { JobActionsUseCase } from './job-actions.use-case';

/**
 * `POST …/pipelines/:id/retry` (failed and canceled jobs get a new attempt, the jobs their failure
 * skipped run again), `POST …/cancel` (every unfinished job canceled) and `DELETE` (the pipeline,
 * its jobs, logs and artifacts; its child pipelines stay).
 */
@Injectable()
export class PipelineActionsUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pipelines: PipelinesRepository,
    private readonly jobs: JobsRepository,
    private readonly lifecycle: JobLifecycleService,
    private readonly processor: PipelineProcessor,
    private readonly jobActions: JobActionsUseCase,
    private readonly outbox: OutboxService,
  ) {}

  async retry(pipeline: CiPipelineEntity, actorId: number): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const locked = await this.pipelines.lockPipeline(tx, pipeline.id);
      if (!locked) throw DomainError.notFound('Pipeline');
      if (locked.yamlErrors) throw DomainError.unprocessable('Pipeline cannot be retried: its configuration is invalid');
      const failed = (await this.pipelines.latestJobs(tx, pipeline.id)).filter((job) => job.status === 'failed' || job.status === 'canceled');
      for (const job of failed) await this.lifecycle.retry(tx, job, actorId, 'created');
      await this.jobActions.resetSkippedAfter(tx, pipeline.id, failed);
      await this.processor.process(tx, pipeline.id, await this.lifecycle.scopeOf(tx, pipeline.projectId), actorId);
    });
  }

  /**
   * Cancels every unfinished job of the pipeline and of its child pipelines (`trigger: include`,
   * at any depth), as GitLab's `CancelPipelineService` cascades to children, in one transaction:
   * parents are locked before their children.
   */
  async cancel(pipeline: CiPipelineEntity, actorId: number): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const locked = await this.pipelines.lockPipeline(tx, pipeline.id);
      if (!locked) throw DomainError.notFound('Pipeline');
      const scope = await this.lifecycle.scopeOf(tx, pipeline.projectId);
      await this.cancelJobsOf(tx, pipeline.id, scope, actorId);
      for (const child of await this.pipelines.descendants(tx, pipeline.id)) {
        if (!(await this.pipelines.lockPipeline(tx, child.id))) continue;
        await this.cancelJobsOf(
          tx,
          child.id,
          {
            projectId: child.projectId,
            groupId: scope.projectId === child.projectId ? scope.groupId : (await this.lifecycle.scopeOf(tx, child.projectId)).groupId,
          },
          actorId,
        );
      }
    });
  }

  private async cancelJobsOf(tx: EntityManager, pipelineId: number, scope: CiEventScope, actorId: number): Promise<void> {
    const alive = (await this.pipelines.latestJobs(tx, pipelineId)).filter((job) => CANCELABLE_STATUSES.has(job.status));
    for (const job of alive) {
      const current = await this.jobs.lock(tx, job.id);
      if (current && CANCELABLE_STATUSES.has(current.status)) await this.lifecycle.finish(tx, current, 'canceled', { actorId }, scope);
    }
    await this.processor.process(tx, pipelineId, scope, actorId);
  }

  async delete(pipeline: CiPipelineEntity, actorId: number): Promise<void> {
    const keys = await this.dataSource.transaction(async (tx) => {
      const locked = await this.pipelines.lockPipeline(tx, pipeline.id);
      if (!locked) throw DomainError.notFound('Pipeline');
      const objects = await this.pipelines.storageKeys(tx, pipeline.id);
      const scope = await this.lifecycle.scopeOf(tx, pipeline.projectId);
      await this.outbox.append(tx, pipelineEvent(CI_EVENTS.PIPELINE_DELETED, actorId, locked, scope));
      await this.pipelines.deletePipeline(tx, pipeline.id);
      return objects;
    });
    await this.jobActions.deleteObjects(keys);
  }
}
