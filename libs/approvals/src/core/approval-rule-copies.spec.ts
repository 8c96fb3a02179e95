import { planRuleCopies, ProjectRuleWithBranches } from './approval-rule-copies';
import { ApprovalMergeRequestRuleEntity, ApprovalProjectRuleEntity } from '../entities';
import type { ApprovalRuleType } from '../entities';

const exact = (pattern: string, branch: string): boolean => pattern === branch || (pattern.endsWith('*') && branch.startsWith(pattern.slice(0, -1)));

function projectRule(id: number, fields: Partial<ApprovalProjectRuleEntity> = {}, branches: string[] = []): ProjectRuleWithBranches {
  const rule = Object.assign(new ApprovalProjectRuleEntity(), {
    id,
    projectId: 1,
    name: `rule ${id}`,
    ruleType: 'regular' as ApprovalRuleType,
    reportType: null,
    approvalsRequired: 2,
    userIds: [10],
    groupIds: [20],
    protectedBranchIds: branches.map((_, index) => 100 + index),
    ...fields,
  });
  return { rule, branches };
}

function mergeRequestRule(id: number, sourceRuleId: number | null, fields: Partial<ApprovalMergeRequestRuleEntity> = {}): ApprovalMergeRequestRuleEntity {
  return Object.assign(new ApprovalMergeRequestRuleEntity(), {
    id,
    mergeRequestId: 7,
    name: `copy ${id}`,
    ruleType: 'regular',
    reportType: null,
    approvalsRequired: 1,
    userIds: [],
    groupIds: [],
    sourceRuleId,
    ...fields,
  });
}

const mr = { id: 7, targetBranch: 'main' };

describe(planRuleCopies.name, () => {
  it('copies every applicable project rule to a merge request without rules', () => {
    const sut = planRuleCopies(mr, [projectRule(1), projectRule(2, { approvalsRequired: 3 }, ['main'])], [], exact);
    expect(sut.stale).toEqual([]);
    expect(sut.copies.map((copy) => [copy.id, copy.mergeRequestId, copy.sourceRuleId, copy.name, copy.approvalsRequired])).toEqual([
      [undefined, 7, 1, 'rule 1', 2],
      [undefined, 7, 2, 'rule 2', 3],
    ]);
  });

  it('leaves out rules of other branches and rules whose protected branches are gone', () => {
    const gone = projectRule(3);
    gone.rule.protectedBranchIds = [999];
    const sut = planRuleCopies(mr, [projectRule(1, {}, ['release/*']), projectRule(2, {}, ['ma*']), gone], [], exact);
    expect(sut.copies.map((copy) => copy.sourceRuleId)).toEqual([2]);
  });

  it('updates existing copies in place and deletes the others without changing the given rows', () => {
    const existing = [mergeRequestRule(50, 1), mergeRequestRule(51, 9), mergeRequestRule(52, null)];
    const sut = planRuleCopies(mr, [projectRule(1, { name: 'renamed', userIds: [11] })], existing, exact);
    expect(sut.copies).toHaveLength(1);
    expect(sut.copies[0]).toMatchObject({ id: 50, sourceRuleId: 1, name: 'renamed', userIds: [11], groupIds: [20], approvalsRequired: 2 });
    expect(sut.stale).toEqual([51, 52]);
    expect(existing[0]).toMatchObject({ name: 'copy 50', userIds: [] });
  });

  it('requires no approval on report_approver copies', () => {
    const sut = planRuleCopies(mr, [projectRule(1, { ruleType: 'report_approver', reportType: 'license_scanning', approvalsRequired: 4 })], [], exact);
    expect(sut.copies[0]).toMatchObject({ ruleType: 'report_approver', reportType: 'license_scanning', approvalsRequired: 0 });
  });

  it('does not share the approver arrays with the project rule', () => {
    const source = projectRule(1);
    const sut = planRuleCopies(mr, [source], [], exact);
    sut.copies[0].userIds.push(99);
    expect(source.rule.userIds).toEqual([10]);
  });
});
