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

export type UpdateJobOutcome = { status: 200; job: CiJobEntity } | { status: 403; job: CiJobEntity | null } | { status: 400; message: string };

/**
 * `PUT /jobs/:id` from the runner: `running` is a heartbeat; `success` / `failed` (with
 * `failure_reason`, `exit_code`) end the job and move the pipeline on. A job that is no longer
 * running (canceled, erased, timed out) answers 403 with its status, so that the runner stops;
 * a wrong id or token 403 without a job. The job is found by its token and locked in one query.
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
    if (ended && outcome.status === 200) await this.processing.request(outcome.job.pipelineId, ended);
    return outcome;
  }

  private async apply(tx: EntityManager, command: UpdateJobCommand): Promise<{ outcome: UpdateJobOutcome; ended: CiEventScope | null }> {
    const state = command.state ?? 'running';
    const found = await this.jobs.lockByToken(tx, command.jobId, command.token);
    if (!found) return { outcome: { status: 403, job: null }, ended: null };
    const { job, project } = found;
    if (!['running', 'success', 'failed'].includes(state)) return { outcome: { status: 400, message: 'state does not have a valid value' }, ended: null };
    if (job.status !== 'running') return { outcome: { status: 403, job }, ended: null };
    job.lastContactAt = new Date();
    if (state === 'running') {
      await this.jobs.touchContact(tx, job.id, job.lastContactAt);
      return { outcome: { status: 200, job }, ended: null };
    }
    const scope = { projectId: job.projectId, groupId: project.groupId };
    await this.lifecycle.finish(tx, job, state as 'success' | 'failed', { failureReason: command.failureReason ?? null, exitCode: command.exitCode ?? null, actorId: null }, scope, { deferProcessing: true });
    return { outcome: { status: 200, job }, ended: scope };
  }
}
