import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CiJobEntity } from '../entities/ci-job.entity';
import { JobLifecycleService } from '../jobs/job-lifecycle.service';
import { JobsRepository } from '../jobs/jobs.repository';

export interface UpdateJobCommand {
  job: CiJobEntity;
  state?: string;
  failureReason?: string;
  exitCode?: number;
}

export type UpdateJobOutcome = { status: 200; job: CiJobEntity } | { status: 403; job: CiJobEntity } | { status: 400; message: string };

/**
 * `PUT /jobs/:id` from the runner: `running` is a heartbeat; `success` / `failed` (with
 * `failure_reason`, `exit_code`) end the job and move the pipeline on. A job that is no longer
 * running (canceled, erased, timed out) answers 403 with its status, so that the runner stops.
 */
@Injectable()
export class UpdateJobUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobsRepository,
    private readonly lifecycle: JobLifecycleService,
  ) {}

  async execute(command: UpdateJobCommand): Promise<UpdateJobOutcome> {
    const state = command.state ?? 'running';
    if (!['running', 'success', 'failed'].includes(state)) return { status: 400, message: 'state does not have a valid value' };
    return this.dataSource.transaction(async (tx) => {
      const job = await this.jobs.lock(tx, command.job.id);
      if (!job || job.status !== 'running') return { status: 403, job: job ?? command.job };
      if (state === 'running') {
        job.lastContactAt = new Date();
        await this.jobs.save(tx, job);
        return { status: 200, job };
      }
      job.lastContactAt = new Date();
      await this.lifecycle.finish(tx, job, state as 'success' | 'failed', { failureReason: command.failureReason ?? null, exitCode: command.exitCode ?? null, actorId: null });
      return { status: 200, job };
    });
  }
}
