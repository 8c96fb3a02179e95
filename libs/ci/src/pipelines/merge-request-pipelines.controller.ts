import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, CurrentProject, DomainError, intParam, paginateOffset, Principal, ProjectAccess, ResourceAccess } from '@app/api';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, projectFeatureReadable, projectOf, ProjectWithNamespace } from '@app/namespaces';
import { CiRepositoryReader } from '../git/ci-repository-reader';
import { CREATE_PIPELINE_LEVEL } from './pipeline-access';
import { presentPipeline, presentPipelineBasic, projectFullPathOf } from './pipeline.presenter';
import { CreatePipelineUseCase } from './create-pipeline.use-case';
import { MergeRequestForPipeline, mergeRequestRef } from './merge-request-pipelines';
import { MergeRequestPipelineSources } from './merge-request-pipelines.repository';
import { PipelinesRepository } from './pipelines.repository';

/** Most commits of a merge request whose branch pipelines it lists (GitLab's `PipelinesForMergeRequestFinder::COMMITS_LIMIT`). */
const COMMITS_LIMIT = 100;

/**
 * `/projects/:id/merge_requests/:merge_request_iid/pipelines`: a merge request's pipelines, and a
 * new merge request pipeline. The access guard checks the merge requests feature for these
 * paths; reading pipelines is checked here (GitLab's `read_pipeline`).
 */
@Controller()
export class MergeRequestPipelinesController {
  constructor(
    private readonly config: AppConfig,
    private readonly sources: MergeRequestPipelineSources,
    private readonly reader: CiRepositoryReader,
    private readonly pipelines: PipelinesRepository,
    private readonly createPipeline: CreatePipelineUseCase,
  ) {}

  /** Its merge request pipelines and its source branch's pipelines at its commits, newest first (GitLab's `all_pipelines`). */
  @Get('projects/:id/merge_requests/:merge_request_iid/pipelines')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async list(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') rawIid: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const project = projectOf(access);
    if (!projectFeatureReadable(project, 'builds', access.accessLevel)) throw DomainError.forbidden();
    const mr = await this.find(project, rawIid);
    const rows = await paginateOffset(
      this.pipelines.forMergeRequest(project.id, mergeRequestRef(mr.iid), mr.sourceBranch, await this.commitsOf(project, mr)),
      req,
      reply,
      {
        externalUrl: this.config.http.externalUrl,
      },
    );
    return rows.map((pipeline) => presentPipelineBasic(pipeline, projectFullPathOf(project), this.config.http.externalUrl));
  }

  /**
   * A new merge request pipeline at the source branch's head, whatever was created before (GitLab's
   * `allow_duplicate`): 200 with the pipeline, as GitLab answers; 400 when the configuration
   * keeps no job for a merge request pipeline (or is invalid) or the source branch is gone.
   */
  @Post('projects/:id/merge_requests/:merge_request_iid/pipelines')
  @ProjectAccess(CREATE_PIPELINE_LEVEL)
  @HttpCode(200)
  async create(
    @CurrentProject() access: ResourceAccess,
    @Param('merge_request_iid') rawIid: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const mr = await this.find(project, rawIid);
    const result = await this.createPipeline.execute({
      project,
      ref: `refs/heads/${mr.sourceBranch}`,
      source: 'merge_request_event',
      actorId: principal.user.id,
      saveOnErrors: false,
      mergeRequest: mr,
    });
    if (!result.created) throw DomainError.invalid({ base: [result.reason] });
    const pipeline = await this.pipelines.find(project.id, result.pipeline.id);
    return presentPipeline(pipeline ?? result.pipeline, projectFullPathOf(project), this.config.http.externalUrl);
  }

  private async find(project: ProjectWithNamespace, rawIid: string): Promise<MergeRequestForPipeline> {
    const mr = await this.sources.byIid(project.id, intParam('merge_request_iid', rawIid, 'Merge Request'));
    if (!mr) throw DomainError.notFound('Merge Request');
    return mr;
  }

  /** The commits of the merge request: of its source branch, not in its target branch (none when the source branch is gone). */
  private async commitsOf(project: ProjectWithNamespace, mr: MergeRequestForPipeline): Promise<string[]> {
    const source = await this.reader.resolveRef(project.id, `refs/heads/${mr.sourceBranch}`);
    if (!source) return [];
    const target = await this.reader.resolveRef(project.id, `refs/heads/${mr.targetBranch}`);
    return this.reader.commitsSince(project.id, source.sha, target?.sha ?? null, COMMITS_LIMIT);
  }
}
