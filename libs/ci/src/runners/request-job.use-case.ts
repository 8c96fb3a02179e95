import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import type { TransactionBatcher } from '@app/database';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import type { CiJobEntity } from '../entities/ci-job.entity';
import type { CiRunnerEntity } from '../entities/ci-runner.entity';
import { buildJobPayload, JobDependency } from '../jobs/job-payload';
import { ClaimedJob, DependencySource, JobsRepository } from '../jobs/jobs.repository';
import { PipelineProcessor } from '../pipelines/pipeline-processor';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { digestSecret, generateJobToken } from '../entities/runner-tokens';
import { runnerCallBatcher } from './runner-call-batcher';

/** GitLab's default `GIT_DEPTH` of new projects. */
export const DEFAULT_GIT_DEPTH = 20;

/**
 * Gives a runner the oldest pending job it may run (`POST /jobs/request`): one statement locks
 * it with `SKIP LOCKED`, makes it `running` with a new job token (stored as a digest; valid
 * while the job runs), makes its stage and pipeline `running` (a job starting enqueues nothing,
 * so the pipeline needs no full processing) and reads what the payload needs; the events are
 * written with it; the payload the runner expects is built after the commit. Null when there is
 * no job for this runner. The claims of runners that ask while a claim is under way share the
 * next transaction (`TransactionBatcher`): one `BEGIN`, `COMMIT` and outbox write for all.
 */
@Injectable()
export class RequestJobUseCase {
  /** The claims of the runners asking at the same time, in one transaction (group commit). */
  private readonly claims: TransactionBatcher<CiRunnerEntity, { token: string; claimed: ClaimedJob | null }>;

  constructor(
    dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly jobs: JobsRepository,
    private readonly pipelines: PipelinesRepository,
    private readonly processor: PipelineProcessor,
    outbox: OutboxService,
  ) {
    this.claims = runnerCallBatcher(dataSource, outbox, async (tx, runner: CiRunnerEntity) => {
      const token = generateJobToken();
      const claimed = await this.jobs.claimNextFor(tx, runner, digestSecret(token), new Date());
      if (claimed)
        await this.processor.jobStarted(tx, claimed.job, { projectId: claimed.job.projectId, groupId: claimed.project.groupId }, claimed.pipelineStartedFrom);
      return { token, claimed };
    });
  }

  async execute(runner: CiRunnerEntity): Promise<Record<string, unknown> | null> {
    const { token, claimed } = await this.claims.submit(runner);
    if (!claimed?.pipeline) return null;
    const { job, project, pipeline } = claimed;
    return buildJobPayload({
      job,
      token,
      runner,
      externalUrl: this.config.http.externalUrl,
      projectFullPath: project.fullPath,
      projectName: project.name,
      pipeline: { id: job.pipelineId, beforeSha: pipeline.beforeSha, predefined: pipeline.predefined },
      pipelineVariables: this.pipelines.unseal(job.pipelineId, pipeline.variables).map((v) => ({ key: v.key, value: v.value, variableType: v.variableType })),
      dependencies: dependenciesOf(job, claimed.dependencySources),
      queuedSeconds: job.queuedAt ? Math.max(0, Math.round((job.startedAt!.getTime() - job.queuedAt.getTime()) / 1000)) : 0,
      queueSize: await this.jobs.countPending(),
      gitDepth: DEFAULT_GIT_DEPTH,
    });
  }
}

/**
 * The jobs whose artifacts this job downloads, each once with its archive: those `dependencies:`
 * names, else those its `needs` name (without `artifacts: false`), else every build of the
 * earlier stages.
 */
export function dependenciesOf(job: Pick<CiJobEntity, 'options' | 'needs' | 'stageIdx'>, sources: readonly DependencySource[]): JobDependency[] {
  const names = job.options.dependencies ?? (job.needs ? job.needs.filter((name) => !(job.options.needsWithoutArtifacts ?? []).includes(name)) : null);
  const wanted = names
    ? (source: DependencySource) => names.includes(source.name)
    : (source: DependencySource) => source.stage_idx < job.stageIdx && source.type === 'build';
  const seen = new Set<number>();
  const dependencies: JobDependency[] = [];
  for (const source of sources) {
    if (seen.has(source.id) || !wanted(source)) continue;
    seen.add(source.id);
    dependencies.push({
      id: source.id,
      name: source.name,
      artifactsFile: source.filename !== null ? { filename: source.filename, size: Number(source.size) } : null,
    });
  }
  return dependencies;
}
