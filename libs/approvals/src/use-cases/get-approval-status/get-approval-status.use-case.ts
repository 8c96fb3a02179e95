import { Inject, Injectable, Optional } from '@nestjs/common';
import { MERGE_REQUEST_GIT, MergeRequestEntity, MergeRequestGit } from '@app/issues';
import type { ProjectWithNamespace } from '@app/namespaces';
import { ApprovalEligibility } from '../approval-eligibility';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';
import { ApprovalActor, requireMergeRequest } from '../approval-commands';
import { LoadApprovalContextsUseCase, MergeRequestApprovalContext } from '../load-approval-contexts/load-approval-contexts.use-case';

export interface ApprovalStatus {
  context: MergeRequestApprovalContext;
  /** The merge request's `merge_status` (the git answer; `can_be_merged` when closed or merged). */
  mergeStatus: string;
  /** Whether the caller may approve now. */
  canApprove: boolean;
}

/**
 * The approval status of a merge request (`GET …/approvals`, and the answer of approve,
 * unapprove and `POST …/approvals`): by iid (404 `Merge Request Not Found`), or the merge request
 * a use case just changed.
 */
@Injectable()
export class GetApprovalStatusUseCase {
  constructor(
    private readonly repository: ApprovalRulesRepository,
    private readonly contexts: LoadApprovalContextsUseCase,
    private readonly eligibility: ApprovalEligibility,
    @Optional() @Inject(MERGE_REQUEST_GIT) private readonly git?: MergeRequestGit,
  ) {}

  async execute(project: ProjectWithNamespace, mergeRequest: MergeRequestEntity | { iid: number }, actor: ApprovalActor): Promise<ApprovalStatus> {
    const mr = 'id' in mergeRequest ? mergeRequest : await requireMergeRequest(this.repository, undefined, project.id, mergeRequest.iid);
    const context = (await this.contexts.execute([mr])).get(mr.id)!;
    let mergeStatus = 'can_be_merged';
    if (mr.state === 'opened' && this.git) [{ mergeStatus }] = await this.git.statuses(project, [mr]);
    const canApprove = await this.eligibility.canApprove(context, project, actor);
    return { context, mergeStatus, canApprove };
  }
}
