import type { ApprovalRuleType } from '../entities';

/** Developer: the lowest role whose group membership makes a user an approver of a group rule (as GitLab). */
export const APPROVER_MIN_LEVEL = 30;

/** A merge request rule as the state computation sees it. */
export interface StateRule {
  id: number;
  ruleType: ApprovalRuleType;
  approvalsRequired: number;
  /** Users whose approval counts for the rule (its users and the members of its groups); ignored for `any_approver`. */
  eligible: ReadonlySet<number>;
}

export interface RuleState {
  id: number;
  /** The approvers (in approval order) whose approval counts for this rule. */
  approvedBy: number[];
  approved: boolean;
  approvalsLeft: number;
}

export interface ApprovalStateResult {
  rules: RuleState[];
  approvalsRequired: number;
  approvalsLeft: number;
  approved: boolean;
}

/**
 * GitLab's approval state of a merge request: one approval counts for every rule its user is
 * eligible for (`any_approver` takes every approval); a rule is approved once as many of its
 * eligible users approved as it requires. `approvals_required`/`approvals_left` are the sums over
 * the rules, raised to the deprecated `approvals_before_merge` floor when that is higher.
 * `approverIds` are the approvals in order; those of `excluded` users (the author when authors may
 * not approve) count for nothing.
 */
export function computeApprovalState(
  rules: readonly StateRule[],
  approverIds: readonly number[],
  floor = 0,
  excluded: ReadonlySet<number> = new Set(),
): ApprovalStateResult {
  const approvers = approverIds.filter((id) => !excluded.has(id));
  const states = rules.map((rule): RuleState => {
    const approvedBy = rule.ruleType === 'any_approver' ? [...approvers] : approvers.filter((id) => rule.eligible.has(id));
    const approvalsLeft = Math.max(0, rule.approvalsRequired - approvedBy.length);
    return { id: rule.id, approvedBy, approved: approvalsLeft === 0, approvalsLeft };
  });
  const required = rules.reduce((sum, rule) => sum + rule.approvalsRequired, 0);
  const left = states.reduce((sum, state) => sum + state.approvalsLeft, 0);
  const approvalsLeft = Math.max(left, floor - approvers.length, 0);
  return { rules: states, approvalsRequired: Math.max(required, floor), approvalsLeft, approved: approvalsLeft === 0 };
}

/** The names of the protected branches that make a project rule apply to `targetBranch` (none: every branch). */
export function ruleAppliesTo(protectedBranchNames: readonly string[], targetBranch: string, matches: (pattern: string, branch: string) => boolean): boolean {
  return protectedBranchNames.length === 0 || protectedBranchNames.some((pattern) => matches(pattern, targetBranch));
}
