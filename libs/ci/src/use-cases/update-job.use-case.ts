import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CiJobEntity } from '../entities/ci-job.entity';
import { JobLifecycleService } from '../jobs/job-lifecycle.service';
import { JobsRepository } from '../jobs/jobs.repository';

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
    return this.dataSource.transaction(async (tx) => {
      const found = await this.jobs.lockByToken(tx, command.jobId, command.token);
      if (!found) return { status: 403, job: null };
      const { job, project } = found;
      if (!['running', 'success', 'failed'].includes(state)) return { status: 400, message: 'state does not have a valid value' };
      if (job.status !== 'running') return { status: 403, job };
      job.lastContactAt = new Date();
      if (state === 'running') {
        await tx.getRepository(CiJobEntity).update(job.id, { lastContactAt: job.lastContactAt });
        return { status: 200, job };
      }
      await this.lifecycle.finish(tx, job, state as 'success' | 'failed', { failureReason: command.failureReason ?? null, exitCode: command.exitCode ?? null, actorId: null }, { projectId: job.projectId, groupId: project.groupId });
      return { status: 200, job };
    });
  }
}
