import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import type { GitCommit } from '@app/repository';
import type { CiJobEntity } from '../entities/ci-job.entity';
import type { CiPipelineEntity } from '../entities/ci-pipeline.entity';
import { CiRepositoryReader } from '../git/ci-repository-reader';
import { JobsRepository } from './jobs.repository';
import { stuckReason } from './stuck';
import { JobViewsRepository } from './job-views.repository';
import { JobContext, presentBridge, presentJob } from './job.presenter';

const unique = <T>(values: T[]): T[] => [...new Set(values)];

/**
 * Presents jobs and bridges with what their views need (pipeline, user, runner, artifacts, commit,
 * downstream pipeline, whether a pending build is stuck), loaded once per page rather than once
 * per job.
 */
@Injectable()
export class JobViews {
  constructor(
    private readonly repository: JobViewsRepository,
    private readonly config: AppConfig,
    private readonly reader: CiRepositoryReader,
    private readonly jobsRepository: JobsRepository,
  ) {}

  async present(jobs: CiJobEntity[], projectFullPath: string): Promise<Record<string, unknown>[]> {
    if (jobs.length === 0) return [];
    const pendingBuilds = jobs.filter((job) => job.status === 'pending' && job.type === 'build').map((job) => job.id);
    const [pipelines, users, runners, artifacts, downstream, coverage] = await Promise.all([
      this.repository.pipelines(unique(jobs.map((job) => job.pipelineId))),
      this.repository.users(unique(jobs.map((job) => job.userId).filter((id): id is number => id !== null))),
      this.repository.runners(unique(jobs.map((job) => job.runnerId).filter((id): id is number => id !== null))),
      this.repository.artifacts(jobs.map((job) => job.id)),
      this.downstreamOf(jobs.filter((job) => job.type === 'bridge').map((job) => job.id)),
      this.jobsRepository.runnerCoverage(pendingBuilds),
    ]);
    const commits = new Map<string, GitCommit | null>();
    for (const job of jobs) {
      const key = `${job.projectId}:${job.sha}`;
      if (!commits.has(key)) commits.set(key, await this.reader.commit(job.projectId, job.sha).catch(() => null));
    }
    const pipelineById = new Map(pipelines.map((p) => [p.id, p]));
    const userById = new Map(users.map((u) => [u.id, u]));
    const runnerById = new Map(runners.map((r) => [r.id, r]));
    return jobs.map((job) => {
      const context: JobContext = {
        externalUrl: this.config.http.externalUrl,
        projectFullPath,
        pipeline: pipelineById.get(job.pipelineId)!,
        commit: commits.get(`${job.projectId}:${job.sha}`) ?? null,
        user: job.userId !== null ? (userById.get(job.userId) ?? null) : null,
        runner: job.runnerId !== null ? (runnerById.get(job.runnerId) ?? null) : null,
        artifacts: artifacts.filter((artifact) => artifact.jobId === job.id),
        downstream: downstream.get(job.id) ?? null,
        stuckReason: stuckReason(job, coverage.get(job.id)),
      };
      return job.type === 'bridge' ? presentBridge(job, context) : presentJob(job, context);
    });
  }

  async presentOne(job: CiJobEntity, projectFullPath: string): Promise<Record<string, unknown>> {
    return (await this.present([job], projectFullPath))[0];
  }

  /** The pipelines bridges started, with their project's path. */
  private async downstreamOf(bridgeIds: number[]): Promise<Map<number, { pipeline: CiPipelineEntity; projectFullPath: string }>> {
    if (bridgeIds.length === 0) return new Map();
    const pipelines = await this.repository.downstreamPipelines(bridgeIds);
    const paths = new Map<number, string>();
    for (const projectId of unique(pipelines.map((p) => p.projectId))) {
      paths.set(projectId, (await this.repository.projectFullPath(projectId)) ?? '');
    }
    return new Map(pipelines.map((pipeline) => [pipeline.sourceJobId!, { pipeline, projectFullPath: paths.get(pipeline.projectId) ?? '' }]));
  }
}
