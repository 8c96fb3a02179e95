import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import type { AccessUser } from '@app/namespaces';
import { ProtectedBranchesRepository } from '@app/repository';
import { DataSource } from 'typeorm';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';
import { CreateProjectRuleDto } from '../../dto/approvals.dto';
import { ApprovalProjectRuleEntity } from '../../entities';
import { checkRule, duplicateName, protectedBranchIds, ruleApprovers } from '../approval-commands';
import { SyncRuleCopiesUseCase } from '../sync-rule-copies/sync-rule-copies.use-case';

/**
 * `POST /projects/:id/approval_rules`. `any_approver` (at most one per project) has no approvers;
 * a `report_type` makes a `report_approver` rule. The open merge requests whose rules were not
 * overwritten get a copy when the rule applies to their target branch.
 */
@Injectable()
export class CreateProjectRuleUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ApprovalRulesRepository,
    private readonly protectedBranches: ProtectedBranchesRepository,
    private readonly syncRuleCopies: SyncRuleCopiesUseCase,
  ) {}

  execute(projectId: number, viewer: AccessUser, dto: CreateProjectRuleDto): Promise<ApprovalProjectRuleEntity> {
    checkRule(dto.name, dto.approvals_required);
    const ruleType = dto.report_type ? 'report_approver' : (dto.rule_type ?? 'regular');
    if (ruleType === 'report_approver' && !dto.report_type) throw DomainError.invalid({ report_type: ["can't be blank"] });
    return this.dataSource.transaction(async (tx) => {
      await this.repository.lockProjectRules(tx, projectId, 'exclusive');
      if (await this.repository.projectRuleNameTaken(tx, projectId, dto.name)) throw duplicateName();
      if (ruleType === 'any_approver' && (await this.repository.hasAnyApproverRule(tx, projectId))) {
        throw DomainError.invalid({ rule_type: ['any-approver for the project already exists'] });
      }
      const approvers = ruleType === 'any_approver' ? { userIds: [], groupIds: [] } : await ruleApprovers(this.repository, tx, projectId, viewer, dto);
      const rule = await this.repository.insertProjectRule(tx, {
        projectId,
        name: dto.name,
        ruleType,
        reportType: ruleType === 'report_approver' ? dto.report_type! : null,
        approvalsRequired: dto.approvals_required,
        ...approvers,
        protectedBranchIds: await protectedBranchIds(this.protectedBranches, tx, projectId, dto.protected_branch_ids ?? []),
      });
      await this.syncRuleCopies.execute(tx, { projectId });
      return rule;
    });
  }
}
