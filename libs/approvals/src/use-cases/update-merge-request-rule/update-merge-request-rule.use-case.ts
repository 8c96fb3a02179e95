import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { MergeRequestEntity } from '@app/issues';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource } from 'typeorm';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';
import { UpdateMergeRequestRuleDto } from '../../dto/approvals.dto';
import { ApprovalMergeRequestRuleEntity } from '../../entities';
import {
  ApprovalActor,
  authorizeApproversUpdate,
  checkRule,
  duplicateName,
  requireMergeRequest,
  ruleApprovers,
  ruleNotFound,
  viewerOf,
} from '../approval-commands';

/** `PUT …/merge_requests/:iid/approval_rules/:id` (`update_approvers`): 403 for system generated rules. Marks the rules as overwritten. */
@Injectable()
export class UpdateMergeRequestRuleUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ApprovalRulesRepository,
  ) {}

  execute(
    project: ProjectWithNamespace,
    iid: number,
    ruleId: number,
    actor: ApprovalActor,
    dto: UpdateMergeRequestRuleDto,
  ): Promise<{ mr: MergeRequestEntity; rule: ApprovalMergeRequestRuleEntity }> {
    checkRule(dto.name, dto.approvals_required);
    return this.dataSource.transaction(async (tx) => {
      await this.repository.lockProjectRules(tx, project.id, 'shared');
      const mr = await requireMergeRequest(this.repository, tx, project.id, iid, true);
      const rule = await this.repository.findMergeRequestRule(tx, mr.id, ruleId);
      if (!rule) throw ruleNotFound();
      await authorizeApproversUpdate(this.repository, tx, mr, actor);
      // report_approver and code_owner rules are system generated (GitLab: not `user_defined?`).
      if (rule.ruleType === 'report_approver' || rule.ruleType === 'code_owner') throw DomainError.forbidden();
      if (dto.name !== undefined && dto.name !== rule.name) {
        if (await this.repository.mergeRequestRuleNameTaken(tx, mr.id, dto.name)) throw duplicateName();
        rule.name = dto.name;
      }
      if (dto.approvals_required !== undefined) rule.approvalsRequired = dto.approvals_required;
      if (rule.ruleType !== 'any_approver') Object.assign(rule, await ruleApprovers(this.repository, tx, project.id, viewerOf(actor), dto, rule));
      const [saved] = await this.repository.saveMergeRequestRules(tx, [rule]);
      await this.repository.markOverwritten(tx, mr.id);
      return { mr, rule: saved };
    });
  }
}
