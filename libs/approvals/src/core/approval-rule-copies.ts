import { ruleAppliesTo } from './approval-state';
import { ApprovalMergeRequestRuleEntity, ApprovalProjectRuleEntity } from '../entities';

/** A project rule with the names of its protected branches that still exist. */
export interface ProjectRuleWithBranches {
  rule: ApprovalProjectRuleEntity;
  branches: string[];
}

/** What to write so that a merge request's copies match the applicable project rules. */
export interface RuleCopiesPlan {
  /** Ids of existing rules to delete: copies of rules that no longer apply, and rules that are no copies. */
  stale: number[];
  /** The copies to save, in project rule order: existing ones updated in place (ids stay), new ones without id. */
  copies: ApprovalMergeRequestRuleEntity[];
}

/**
 * The copies of the project rules that apply to `targetBranch` (a rule limited to protected
 * branches that no longer exist applies nowhere). A `report_approver` copy requires no approval
 * while no security or coverage report asks for one (GitLab sets its `approvals_required` from
 * the reports; this service has none yet). `existing` are the merge request's rules; they are not
 * modified.
 */
export function planRuleCopies(
  mergeRequest: { id: number; targetBranch: string },
  projectRules: readonly ProjectRuleWithBranches[],
  existing: readonly ApprovalMergeRequestRuleEntity[],
  matchesBranch: (pattern: string, branch: string) => boolean,
): RuleCopiesPlan {
  const applicable = projectRules.filter(({ rule, branches }) => {
    if (rule.protectedBranchIds.length > 0 && branches.length === 0) return false;
    return ruleAppliesTo(branches, mergeRequest.targetBranch, matchesBranch);
  });
  const bySource = new Map(existing.filter((rule) => rule.sourceRuleId !== null).map((rule) => [rule.sourceRuleId!, rule]));
  const copies = applicable.map(({ rule }) => {
    const copy = Object.assign(new ApprovalMergeRequestRuleEntity(), bySource.get(rule.id) ?? { mergeRequestId: mergeRequest.id, sourceRuleId: rule.id });
    copy.name = rule.name;
    copy.ruleType = rule.ruleType;
    copy.reportType = rule.reportType;
    copy.approvalsRequired = rule.ruleType === 'report_approver' ? 0 : rule.approvalsRequired;
    copy.userIds = [...rule.userIds];
    copy.groupIds = [...rule.groupIds];
    return copy;
  });
  const keep = new Set(copies.filter((copy) => copy.id !== undefined).map((copy) => copy.id));
  return { stale: existing.filter((rule) => !keep.has(rule.id)).map((rule) => rule.id), copies };
}
