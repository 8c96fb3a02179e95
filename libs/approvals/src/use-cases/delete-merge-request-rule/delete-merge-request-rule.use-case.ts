import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource } from 'typeorm';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';
import { ApprovalActor, authorizeApproversUpdate, requireMergeRequest, ruleNotFound } from '../approval-commands';

/** `DELETE …/merge_requests/:iid/approval_rules/:id` (`update_approvers`): 403 for system generated rules. Marks the rules as overwritten. */
@Injectable()
export class DeleteMergeRequestRuleUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ApprovalRulesRepository,
  ) {}

  execute(project: ProjectWithNamespace, iid: number, ruleId: number, actor: ApprovalActor): Promise<void> {
    return this.dataSource.transaction(async (tx) => {
      await this.repository.lockProjectRules(tx, project.id, 'shared');
      const mr = await requireMergeRequest(this.repository, tx, project.id, iid, true);
      const rule = await this.repository.findMergeRequestRule(tx, mr.id, ruleId);
      if (!rule) throw ruleNotFound();
      await authorizeApproversUpdate(this.repository, tx, mr, actor);
      if (rule.ruleType === 'report_approver' || rule.ruleType === 'code_owner') throw DomainError.forbidden();
      await this.repository.deleteMergeRequestRules(tx, [rule.id]);
      await this.repository.markOverwritten(tx, mr.id);
    });
  }
}
