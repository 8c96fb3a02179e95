import { Injectable } from '@nestjs/common';
import { UserEntity } from '@app/identity';
import { DataSource, In } from 'typeorm';
import { CiJobArtifactEntity } from '../entities/ci-job-artifact.entity';
import { CiPipelineEntity } from '../entities/ci-pipeline.entity';
import { CiRunnerEntity } from '../entities/ci-runner.entity';

/** The reads of the job views (`JobViews`): what a page of jobs shows besides the job rows, in one query each. */
@Injectable()
export class JobViewsRepository {
  constructor(private readonly dataSource: DataSource) {}

  pipelines(ids: number[]): Promise<CiPipelineEntity[]> {
    return this.dataSource.getRepository(CiPipelineEntity).findBy({ id: In(ids) });
  }

  users(ids: number[]): Promise<UserEntity[]> {
    return this.dataSource.getRepository(UserEntity).findBy({ id: In(ids) });
  }

  runners(ids: number[]): Promise<CiRunnerEntity[]> {
    return this.dataSource.getRepository(CiRunnerEntity).findBy({ id: In(ids) });
  }

  /** The artifacts of these jobs, oldest first. */
  artifacts(jobIds: number[]): Promise<CiJobArtifactEntity[]> {
    return this.dataSource.getRepository(CiJobArtifactEntity).find({ where: { jobId: In(jobIds) }, order: { id: 'ASC' } });
  }

  /** The pipelines these bridges started. */
  downstreamPipelines(bridgeIds: number[]): Promise<CiPipelineEntity[]> {
    return this.dataSource.getRepository(CiPipelineEntity).findBy({ sourceJobId: In(bridgeIds) });
  }

  /** The path (`full/path`) of a project. */
  async projectFullPath(projectId: number): Promise<string | null> {
    const rows = (await this.dataSource.query(
      `SELECT n.full_path || '/' || p.path AS full_path FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE p.id = $1`,
      [projectId],
    )) as { full_path: string }[];
    return rows[0]?.full_path ?? null;
  }

  /** A user by id (the user of a running job). */
  user(id: number): Promise<UserEntity | null> {
    return this.dataSource.getRepository(UserEntity).findOneBy({ id });
  }
}
