import { Injectable } from '@nestjs/common';
import { MergeRequestEntity } from '@app/issues';
import { EntityManager } from 'typeorm';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';
import { APPROVER_MIN_LEVEL, ApprovalStateResult, computeApprovalState, StateRule } from '../../core/approval-state';
import { ApprovalMergeRequestRuleEntity, ApprovalProjectSettingsEntity, MergeRequestApprovalEntity } from '../../entities';

/** Everything the approval state of one merge request is computed from. */
export interface MergeRequestApprovalContext {
  mr: MergeRequestEntity;
  settings: ApprovalProjectSettingsEntity;
  rules: ApprovalMergeRequestRuleEntity[];
  /** Rule id → users whose approval counts (rule users and members of its groups and their ancestors). */
  eligible: Map<number, Set<number>>;
  approvals: MergeRequestApprovalEntity[];
  overwritten: boolean;
  /** The deprecated floor: the merge request's own `approvals_required`, else the project's `approvals_before_merge`. */
  floor: number;
  state: ApprovalStateResult;
}

/** The approval state of each merge request (by id), loaded in batches: rules, approvals, settings, group members. */
@Injectable()
export class LoadApprovalContextsUseCase {
  constructor(private readonly repository: ApprovalRulesRepository) {}

  async execute(mrs: MergeRequestEntity[], manager?: EntityManager): Promise<Map<number, MergeRequestApprovalContext>> {
    const result = new Map<number, MergeRequestApprovalContext>();
    if (mrs.length === 0) return result;
    const { rules, approvals, states } = await this.repository.stateRows(
      mrs.map((mr) => mr.id),
      manager,
    );
    const settings = new Map<number, ApprovalProjectSettingsEntity>();
    for (const projectId of new Set(mrs.map((mr) => mr.projectId))) settings.set(projectId, await this.repository.settingsOf(projectId, manager));
    const members = await this.repository.groupMembers(
      rules.flatMap((rule) => rule.groupIds),
      APPROVER_MIN_LEVEL,
      manager,
    );
    for (const mr of mrs) {
      const own = rules.filter((rule) => rule.mergeRequestId === mr.id);
      const eligible = new Map(own.map((rule) => [rule.id, new Set([...rule.userIds, ...rule.groupIds.flatMap((id) => [...(members.get(id) ?? [])])])]));
      const mine = approvals.filter((approval) => approval.mergeRequestId === mr.id);
      const state = states.find((row) => row.mergeRequestId === mr.id);
      const projectSettings = settings.get(mr.projectId)!;
      const floor = state?.approvalsBeforeMerge ?? projectSettings.approvalsBeforeMerge;
      const stateRules: StateRule[] = own.map((rule) => ({
        id: rule.id,
        ruleType: rule.ruleType,
        approvalsRequired: rule.approvalsRequired,
        eligible: eligible.get(rule.id)!,
      }));
      const excluded = projectSettings.mergeRequestsAuthorApproval ? new Set<number>() : new Set([mr.authorId]);
      result.set(mr.id, {
        mr,
        settings: projectSettings,
        rules: own,
        eligible,
        approvals: mine,
        overwritten: state?.rulesOverwritten ?? false,
        floor,
        state: computeApprovalState(
          stateRules,
          mine.map((approval) => approval.userId),
          floor,
          excluded,
        ),
      });
    }
    return result;
  }
}
