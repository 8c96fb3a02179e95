import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { MergeRequestEntity } from '@app/issues';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource } from 'typeorm';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';
import { ApprovalActor, authorizeApproversUpdate, requireMergeRequest } from '../approval-commands';

/**
 * `POST …/approvals` (deprecated `approvals_required`): the merge request's own floor, at least
 * the project's `approvals_before_merge` (else 400 with GitLab's message).
 */
@Injectable()
export class SetApprovalsRequiredUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ApprovalRulesRepository,
  ) {}

  execute(project: ProjectWithNamespace, iid: number, actor: ApprovalActor, approvalsRequired: number): Promise<MergeRequestEntity> {
    return this.dataSource.transaction(async (tx) => {
      const mr = await requireMergeRequest(this.repository, tx, project.id, iid, true);
      await authorizeApproversUpdate(this.repository, tx, mr, actor);
      const settings = await this.repository.settingsOf(project.id, tx);
      if (approvalsRequired < settings.approvalsBeforeMerge) {
        throw DomainError.invalid({ validate_approvals_before_merge: ['Number of approvals must be at least that of approvals on the target project'] });
      }
      await this.repository.setApprovalsBeforeMerge(tx, mr.id, approvalsRequired);
      return mr;
    });
  }
}
