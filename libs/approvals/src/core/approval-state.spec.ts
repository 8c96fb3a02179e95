import { computeApprovalState, ruleAppliesTo, StateRule } from './approval-state';

const rule = (id: number, approvalsRequired: number, eligible: number[], ruleType: StateRule['ruleType'] = 'regular'): StateRule => ({
  id,
  ruleType,
  approvalsRequired,
  eligible: new Set(eligible),
});

describe(computeApprovalState.name, () => {
  it('counts one approval for every rule the approver is eligible for', () => {
    const sut = computeApprovalState([rule(1, 1, [10, 11]), rule(2, 1, [10]), rule(3, 2, [12, 13])], [10]);
    expect(sut.rules.map((r) => [r.id, r.approvedBy, r.approved])).toEqual([
      [1, [10], true],
      [2, [10], true],
      [3, [], false],
    ]);
    expect(sut).toMatchObject({ approvalsRequired: 4, approvalsLeft: 2, approved: false });
  });

  it('lets any approval count for any_approver rules and ignores excluded approvers', () => {
    const sut = computeApprovalState([rule(1, 2, [], 'any_approver')], [7, 8], 0, new Set([8]));
    expect(sut.rules[0]).toEqual({ id: 1, approvedBy: [7], approved: false, approvalsLeft: 1 });
    expect(computeApprovalState([rule(1, 2, [], 'any_approver')], [7, 8]).approved).toBe(true);
  });

  it('is approved without rules, and honours the approvals_before_merge floor', () => {
    expect(computeApprovalState([], [])).toEqual({ rules: [], approvalsRequired: 0, approvalsLeft: 0, approved: true });
    expect(computeApprovalState([], [5], 3)).toMatchObject({ approvalsRequired: 3, approvalsLeft: 2, approved: false });
    expect(computeApprovalState([rule(1, 1, [5])], [5, 6, 7], 3)).toMatchObject({ approvalsRequired: 3, approvalsLeft: 0, approved: true });
  });

  it('never counts a rule below zero', () => {
    expect(computeApprovalState([rule(1, 0, [1])], [])).toMatchObject({ approved: true, approvalsLeft: 0 });
  });
});

describe(ruleAppliesTo.name, () => {
  const exact = (pattern: string, branch: string) => pattern === branch;
  it('applies to every branch without protected branches, else only to matching ones', () => {
    expect(ruleAppliesTo([], 'main', exact)).toBe(true);
    expect(ruleAppliesTo(['main'], 'main', exact)).toBe(true);
    expect(ruleAppliesTo(['release'], 'main', exact)).toBe(false);
  });
});
