import { Body, Controller, Param, Put, UseFilters } from '@nestjs/common';
import { CurrentPrincipal, CurrentProject, intParam, Principal, ProjectAccess, ResourceAccess } from '@app/api';
import { IssuablesPresenter } from '@app/issues';
import { ACCESS_LEVELS, projectOf } from '@app/namespaces';
import { MergeMergeRequestDto } from '../dto/branch.dto';
import { RepositoryErrorFilter } from '../errors/repository-error';
import { MergeMergeRequestUseCase } from './merge-merge-request.use-case';

@Controller()
@UseFilters(RepositoryErrorFilter)
export class MergeController {
  constructor(
    private readonly merge: MergeMergeRequestUseCase,
    private readonly presenter: IssuablesPresenter,
  ) {}

  /** `PUT /projects/:id/merge_requests/:merge_request_iid/merge`: merges with the project's merge method. */
  @Put('projects/:id/merge_requests/:merge_request_iid/merge')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async accept(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('merge_request_iid') rawIid: string,
    @Body() dto: MergeMergeRequestDto,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const merged = await this.merge.execute({
      project,
      user: { id: principal.user.id, isAdmin: principal.user.isAdmin },
      accessLevel: access.accessLevel,
      iid: intParam('merge_request_iid', rawIid, 'Merge Request'),
      mergeCommitMessage: dto.merge_commit_message,
      squashCommitMessage: dto.squash_commit_message,
      squash: dto.squash,
      shouldRemoveSourceBranch: dto.should_remove_source_branch,
      sha: dto.sha,
    });
    const [view] = await this.presenter.mergeRequests([merged], new Map([[project.id, project]]));
    return view;
  }
}
