import { Injectable } from '@nestjs/common';
import type { TransactionBatcher } from '@app/database';
import { OutboxService } from '@app/messaging';
import { DataSource, EntityManager } from 'typeorm';
import type { CiEventScope } from '../events/ci.events';
import { CiJobEntity } from '../entities/ci-job.entity';
import { JobLifecycleService } from '../jobs/job-lifecycle.service';
import { JobsRepository } from '../jobs/jobs.repository';
import { PipelineProcessingLine } from '../pipelines/pipeline-processing-line';
import { runnerCallBatcher } from './runner-call-batcher';

export interface UpdateJobCommand {
  jobId: number;
  /** The job token the runner sent. */
  token: string;
  state?: string;
  failureReason?: string;
  exitCode?: number;
}

/**
 * `accepted`: a heartbeat or the job's end was recorded; `job-not-running`: the job ended before
 * (canceled, erased, timed out), so the runner stops; `not-found`: a wrong id or token;
 * `invalid-state`: a state other than `running`, `success` or `failed`.
 */
export type UpdateJobOutcome =
  { result: 'accepted'; job: CiJobEntity } | { result: 'job-not-running'; job: CiJobEntity } | { result: 'not-found' } | { result: 'invalid-state' };

/**
 * `PUT /jobs/:id` from the runner: `running` is a heartbeat; `success` / `failed` (with
 * `failure_reason`, `exit_code`) end the job and move the pipeline on. A job that is no longer
 * running (canceled, erased, timed out) is `job-not-running` (the controller answers 403 with its
 * status, so that the runner stops); a wrong id or token is `not-found`. The job is found by its token and locked in one query.
 * The updates that arrive while one is under way share the next transaction
 * (`TransactionBatcher`: one `BEGIN`, `COMMIT` and outbox write for all); each ended job's
 * pipeline is processed after the commit by the `PipelineProcessingLine`.
 */
@Injectable()
export class UpdateJobUseCase {
  private readonly updates: TransactionBatcher<UpdateJobCommand, { outcome: UpdateJobOutcome; ended: CiEventScope | null }>;

  constructor(
    dataSource: DataSource,
    private readonly jobs: JobsRepository,
    private readonly lifecycle: JobLifecycleService,
    private readonly processing: PipelineProcessingLine,
    outbox: OutboxService,
  ) {
    this.updates = runnerCallBatcher(dataSource, outbox, (tx, command: UpdateJobCommand) => this.apply(tx, command));
  }

  async execute(command: UpdateJobCommand): Promise<UpdateJobOutcome> {
    const { outcome, ended } = await this.updates.submit(command);
    // The pipeline moves on once the job's end is committed, with the ends of its other jobs reported meanwhile.
    if (ended && outcome.result === 'accepted') await this.processing.request(outcome.job.pipelineId, ended);
    return outcome;
  }

  private async apply(tx: EntityManager, command: UpdateJobCommand): Promise<{ outcome: UpdateJobOutcome; ended: CiEventScope | null }> {
    const state = command.state ?? 'running';
    const found = await this.jobs.lockByToken(tx, command.jobId, command.token);
    if (!found) return { outcome: { result: 'not-found' }, ended: null };
    const { job, project } = found;
    if (!['running', 'success', 'failed'].includes(state)) return { outcome: { result: 'invalid-state' }, ended: null };
    if (job.status !== 'running') return { outcome: { result: 'job-not-running', job }, ended: null };
    job.lastContactAt = new Date();
    if (state === 'running') {
      await this.jobs.touchContact(tx, job.id, job.lastContactAt);
      return { outcome: { result: 'accepted', job }, ended: null };
    }
    const scope = { projectId: job.projectId, groupId: project.groupId };
    await this.lifecycle.finish(
      tx,
      job,
      state as 'success' | 'failed',
      { failureReason: command.failureReason ?? null, exitCode: command.exitCode ?? null, actorId: null },
      scope,
      { deferProcessing: true },
    );
    return { outcome: { result: 'accepted', job }, ended: scope };
  }
}
