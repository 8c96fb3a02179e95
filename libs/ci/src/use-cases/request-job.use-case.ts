import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { DataSource } from 'typeorm';
import { jobStatusEvent } from '../ci.events';
import type { CiJobEntity } from '../entities/ci-job.entity';
import type { CiRunnerEntity } from '../entities/ci-runner.entity';
import { buildJobPayload, JobDependency } from '../jobs/job-payload';
import { JobsRepository } from '../jobs/jobs.repository';
import { PipelineProcessor } from '../pipelines/pipeline-processor';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { digestSecret, generateJobToken } from '../runners/runner-tokens';

/** GitLab's default `GIT_DEPTH` of new projects. */
export const DEFAULT_GIT_DEPTH = 20;

/**
 * Gives a runner the oldest pending job it may run (`POST /jobs/request`): one statement locks
 * it with `SKIP LOCKED` and makes it `running` with a new job token (stored as a digest; valid
 * while the job runs); the stage and the pipeline become `running` (a job starting enqueues
 * nothing, so the pipeline needs no full processing); then the payload the runner expects is
 * built outside the transaction. Null when there is no job for this runner.
 */
@Injectable()
export class RequestJobUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly jobs: JobsRepository,
    private readonly pipelines: PipelinesRepository,
    private readonly processor: PipelineProcessor,
  ) {}

  async execute(runner: CiRunnerEntity): Promise<Record<string, unknown> | null> {
    const token = generateJobToken();
    const picked = await this.dataSource.transaction(async (tx) => {
      const claimed = await this.jobs.claimNextFor(tx, runner, digestSecret(token), new Date());
      if (!claimed) return null;
      const scope = { projectId: claimed.job.projectId, groupId: claimed.project.groupId };
      await this.processor.jobStarted(tx, claimed.job, scope, [jobStatusEvent(null, claimed.job, 'pending', scope)]);
      return claimed;
    });
    if (!picked) return null;
    const { job, project } = picked;
    const [pipeline, dependencies, queueSize] = await Promise.all([this.pipelines.payloadInfo(job.pipelineId), this.dependencies(job), this.jobs.countPending()]);
    if (!pipeline) return null;
    const variables = pipeline.variables;
    return buildJobPayload({
      job,
      token,
      runner,
      externalUrl: this.config.http.externalUrl,
      projectFullPath: project.fullPath,
      projectName: project.name,
      pipeline: { id: job.pipelineId, beforeSha: pipeline.beforeSha, predefined: pipeline.predefined },
      pipelineVariables: variables.map((v) => ({ key: v.key, value: v.value, variableType: v.variableType })),
      dependencies,
      queuedSeconds: job.queuedAt ? Math.max(0, Math.round((job.startedAt!.getTime() - job.queuedAt.getTime()) / 1000)) : 0,
      queueSize,
      gitDepth: DEFAULT_GIT_DEPTH,
    });
  }

  /** The jobs whose artifacts this job downloads: `dependencies:`, else its needs, else every job of earlier stages. */
  private async dependencies(job: CiJobEntity): Promise<JobDependency[]> {
    const names = job.options.dependencies ?? (job.needs ? job.needs.filter((name) => !(job.options.needsWithoutArtifacts ?? []).includes(name)) : null);
    const rows = await this.jobs.dependencySources(job.pipelineId, names ? { names } : { beforeStage: job.stageIdx });
    const seen = new Set<number>();
    const dependencies: JobDependency[] = [];
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      dependencies.push({ id: row.id, name: row.name, artifactsFile: row.filename !== null ? { filename: row.filename, size: Number(row.size) } : null });
    }
    return dependencies;
  }
}
