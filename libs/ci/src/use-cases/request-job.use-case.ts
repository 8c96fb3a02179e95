import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { jobStatusEvent } from '../ci.events';
import type { CiJobEntity } from '../entities/ci-job.entity';
import type { CiRunnerEntity } from '../entities/ci-runner.entity';
import { buildJobPayload, JobDependency } from '../jobs/job-payload';
import { JobLifecycleService } from '../jobs/job-lifecycle.service';
import { JobsRepository } from '../jobs/jobs.repository';
import { PipelineProcessor } from '../pipelines/pipeline-processor';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { digestSecret, generateJobToken } from '../runners/runner-tokens';

/** GitLab's default `GIT_DEPTH` of new projects. */
export const DEFAULT_GIT_DEPTH = 20;

/**
 * Gives a runner the oldest pending job it may run (`POST /jobs/request`): locks it with
 * `SKIP LOCKED`, makes it `running` with a new job token (stored as a digest; valid while the
 * job runs), processes the pipeline, and builds the payload the runner expects. Null when
 * there is no job for this runner.
 */
@Injectable()
export class RequestJobUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly outbox: OutboxService,
    private readonly jobs: JobsRepository,
    private readonly pipelines: PipelinesRepository,
    private readonly processor: PipelineProcessor,
    private readonly lifecycle: JobLifecycleService,
  ) {}

  async execute(runner: CiRunnerEntity): Promise<Record<string, unknown> | null> {
    const token = generateJobToken();
    const picked = await this.dataSource.transaction(async (tx) => {
      const job = await this.jobs.lockNextFor(tx, runner);
      if (!job) return null;
      const now = new Date();
      job.status = 'running';
      job.runnerId = runner.id;
      job.tokenDigest = digestSecret(token);
      job.startedAt = now;
      job.lastContactAt = now;
      await this.jobs.save(tx, job);
      const scope = await this.lifecycle.scopeOf(tx, job.projectId);
      await this.outbox.append(tx, jobStatusEvent(null, job, 'pending', scope));
      await this.processor.process(tx, job.pipelineId, scope, null);
      const pipeline = await this.pipelines.find(job.projectId, job.pipelineId, tx);
      return { job, pipeline };
    });
    if (!picked || !picked.pipeline) return null;
    const { job, pipeline } = picked;
    const project = await this.jobs.projectInfo(job.projectId);
    const [variables, dependencies, queueSize] = await Promise.all([this.pipelines.variables(pipeline.id), this.dependencies(job), this.jobs.countPending()]);
    return buildJobPayload({
      job,
      token,
      runner,
      externalUrl: this.config.http.externalUrl,
      projectFullPath: project?.fullPath ?? '',
      projectName: project?.name ?? '',
      pipeline: { id: pipeline.id, beforeSha: pipeline.beforeSha, predefined: pipeline.predefinedVariables },
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
    const sources = names ? await this.jobs.latestByNames(job.pipelineId, names) : await this.jobs.latestBeforeStage(job.pipelineId, job.stageIdx);
    const archives = new Map((await this.jobs.artifacts(sources.map((source) => source.id), 'archive')).map((artifact) => [artifact.jobId, artifact]));
    return sources.map((source) => {
      const archive = archives.get(source.id);
      return { id: source.id, name: source.name, artifactsFile: archive ? { filename: archive.filename, size: Number(archive.size) } : null };
    });
  }
}
