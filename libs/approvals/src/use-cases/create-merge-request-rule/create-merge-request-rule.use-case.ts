import { Injectable } from '@nestjs/common';
import { MergeRequestEntity } from '@app/issues';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource } from 'typeorm';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';
import { CreateMergeRequestRuleDto } from '../../dto/approvals.dto';
import { ApprovalMergeRequestRuleEntity } from '../../entities';
import { ApprovalActor, authorizeApproversUpdate, checkRule, duplicateName, requireMergeRequest, ruleApprovers, viewerOf } from '../approval-commands';

/**
 * `POST …/merge_requests/:iid/approval_rules` (`update_approvers`). With
 * `approval_project_rule_id`, name, users and groups are copied from that project rule. Marks the
 * merge request's rules as overwritten: project rule changes no longer reach it.
 */
@Injectable()
export class CreateMergeRequestRuleUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ApprovalRulesRepository,
  ) {}

  execute(
    project: ProjectWithNamespace,
    iid: number,
    actor: ApprovalActor,
    dto: CreateMergeRequestRuleDto,
  ): Promise<{ mr: MergeRequestEntity; rule: ApprovalMergeRequestRuleEntity }> {
    checkRule(dto.name, dto.approvals_required);
    return this.dataSource.transaction(async (tx) => {
      await this.repository.lockProjectRules(tx, project.id, 'shared');
      const mr = await requireMergeRequest(this.repository, tx, project.id, iid, true);
      await authorizeApproversUpdate(this.repository, tx, mr, actor);
      const source =
        dto.approval_project_rule_id !== undefined ? await this.repository.findProjectRule(project.id, dto.approval_project_rule_id, {}, tx) : null;
      const name = source?.name ?? dto.name;
      if (await this.repository.mergeRequestRuleNameTaken(tx, mr.id, name)) throw duplicateName();
      const approvers = source
        ? { userIds: [...source.userIds], groupIds: [...source.groupIds] }
        : await ruleApprovers(this.repository, tx, project.id, viewerOf(actor), dto);
      const rule = await this.repository.insertMergeRequestRule(tx, {
        mergeRequestId: mr.id,
        name,
        ruleType: source?.ruleType === 'any_approver' ? 'any_approver' : 'regular',
        reportType: null,
        approvalsRequired: dto.approvals_required,
        ...approvers,
        sourceRuleId: source?.id ?? null,
      });
      await this.repository.markOverwritten(tx, mr.id);
      return { mr, rule };
    });
  }
}
