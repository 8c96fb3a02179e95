import { Injectable } from '@nestjs/common';
import type { AccessUser } from '@app/namespaces';
import { ProtectedBranchesRepository } from '@app/repository';
import { DataSource } from 'typeorm';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';
import { UpdateProjectRuleDto } from '../../dto/approvals.dto';
import { ApprovalProjectRuleEntity } from '../../entities';
import { checkRule, duplicateName, protectedBranchIds, ruleApprovers, ruleNotFound } from '../approval-commands';
import { SyncRuleCopiesUseCase } from '../sync-rule-copies/sync-rule-copies.use-case';

/** `PUT /projects/:id/approval_rules/:approval_rule_id`: users and groups not listed are removed. */
@Injectable()
export class UpdateProjectRuleUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ApprovalRulesRepository,
    private readonly protectedBranches: ProtectedBranchesRepository,
    private readonly syncRuleCopies: SyncRuleCopiesUseCase,
  ) {}

  execute(projectId: number, ruleId: number, viewer: AccessUser, dto: UpdateProjectRuleDto): Promise<ApprovalProjectRuleEntity> {
    checkRule(dto.name, dto.approvals_required);
    return this.dataSource.transaction(async (tx) => {
      await this.repository.lockProjectRules(tx, projectId, 'exclusive');
      const rule = await this.repository.findProjectRule(projectId, ruleId, { lock: true }, tx);
      if (!rule) throw ruleNotFound();
      if (dto.name !== undefined && dto.name !== rule.name) {
        if (await this.repository.projectRuleNameTaken(tx, projectId, dto.name)) throw duplicateName();
        rule.name = dto.name;
      }
      if (dto.approvals_required !== undefined) rule.approvalsRequired = dto.approvals_required;
      if (rule.ruleType !== 'any_approver') Object.assign(rule, await ruleApprovers(this.repository, tx, projectId, viewer, dto, rule));
      if (dto.protected_branch_ids !== undefined)
        rule.protectedBranchIds = await protectedBranchIds(this.protectedBranches, tx, projectId, dto.protected_branch_ids);
      const saved = await this.repository.saveProjectRule(tx, rule);
      await this.syncRuleCopies.execute(tx, { projectId });
      return saved;
    });
  }
}
