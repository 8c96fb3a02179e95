import { Injectable } from '@nestjs/common';
import type { ProjectWithNamespace } from '@app/namespaces';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';
import { requireMergeRequest } from '../approval-commands';
import { LoadApprovalContextsUseCase, MergeRequestApprovalContext } from '../load-approval-contexts/load-approval-contexts.use-case';

/** The approval rules and state of one merge request of the project (404 `Merge Request Not Found`). */
@Injectable()
export class GetMergeRequestApprovalsUseCase {
  constructor(
    private readonly repository: ApprovalRulesRepository,
    private readonly contexts: LoadApprovalContextsUseCase,
  ) {}

  async execute(project: ProjectWithNamespace, iid: number): Promise<MergeRequestApprovalContext> {
    const mr = await requireMergeRequest(this.repository, undefined, project.id, iid);
    return (await this.contexts.execute([mr])).get(mr.id)!;
  }
}
