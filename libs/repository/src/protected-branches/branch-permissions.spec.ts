import {
  accessLevelDescription,
  branchPermissions,
  BranchUser,
  canUnprotectRule,
  codeOwnerApprovalRequired,
  defaultBranchRule,
  matchesBranch,
  ProtectedBranchGrant,
  ProtectedBranchRule,
} from './branch-permissions';

let nextId = 1;
const role = (accessLevel: number): ProtectedBranchGrant => ({ id: nextId++, accessLevel, userId: null, groupId: null });
const userGrant = (userId: number): ProtectedBranchGrant => ({ id: nextId++, accessLevel: null, userId, groupId: null });
const groupGrant = (groupId: number): ProtectedBranchGrant => ({ id: nextId++, accessLevel: null, userId: null, groupId });

function rule(name: string, options: Partial<Omit<ProtectedBranchRule, 'name' | 'id'>> = {}): ProtectedBranchRule {
  return {
    id: nextId++,
    name,
    allowForcePush: false,
    codeOwnerApprovalRequired: false,
    pushAccessLevels: [role(40)],
    mergeAccessLevels: [role(40)],
    unprotectAccessLevels: [role(40)],
    ...options,
  };
}

const user: BranchUser = { id: 7, isAdmin: false };
const admin: BranchUser = { id: 1, isAdmin: true };

describe(matchesBranch.name, () => {
  it.each([
    ['main', 'main', true],
    ['main', 'main2', false],
    ['main', 'Main', false],
    ['release/*', 'release/1.0', true],
    ['release/*', 'release/1.0/hotfix', true],
    ['release/*', 'release/', true],
    ['release/*', 'release', false],
    ['release/*', 'prerelease/1', false],
    ['*-stable', '13-stable', true],
    ['*-stable', '13-stable-x', false],
    ['*', 'anything/at/all', true],
    ['v1.*', 'v1.x', true],
    ['v1.*', 'v1x2', false],
    ['feat(x)*', 'feat(x)-1', true],
    ['a*b*c', 'a-b-c', true],
    ['a*b*c', 'a-c', false],
    ['[ab]*', 'a1', false],
  ])('%s covers %s: %s', (pattern, branch, expected) => {
    expect(matchesBranch(pattern, branch)).toBe(expected);
  });
});

describe(branchPermissions.name, () => {
  it('lets developers push, force-push and merge an unprotected branch, and nobody below', () => {
    expect(branchPermissions([rule('main')], 'feature', user, 30)).toEqual({
      protected: false,
      canPush: true,
      canForcePush: true,
      canMerge: true,
      canUnprotect: false,
      developersCanPush: false,
      developersCanMerge: false,
    });
    expect(branchPermissions([], 'feature', user, 20)).toMatchObject({ canPush: false, canMerge: false, canForcePush: false });
    expect(branchPermissions([], 'feature', null, 0)).toMatchObject({ protected: false, canPush: false });
  });

  it('applies the default rule (maintainers) to a protected branch', () => {
    const rules = [rule('main')];
    expect(branchPermissions(rules, 'main', user, 30)).toMatchObject({
      protected: true,
      canPush: false,
      canMerge: false,
      canForcePush: false,
      canUnprotect: false,
    });
    expect(branchPermissions(rules, 'main', user, 40)).toMatchObject({
      protected: true,
      canPush: true,
      canMerge: true,
      canForcePush: false,
      canUnprotect: true,
    });
    expect(branchPermissions(rules, 'main', user, 50)).toMatchObject({ canPush: true });
  });

  it('treats administrators as level 60 but still honours "No one"', () => {
    expect(branchPermissions([rule('main')], 'main', admin, 60)).toMatchObject({ canPush: true, canMerge: true });
    const locked = [rule('main', { pushAccessLevels: [role(0)], mergeAccessLevels: [role(0)] })];
    expect(branchPermissions(locked, 'main', admin, 60)).toMatchObject({ protected: true, canPush: false, canMerge: false });
  });

  it('grants the Admins level to administrators only', () => {
    const rules = [rule('main', { pushAccessLevels: [role(60)] })];
    expect(branchPermissions(rules, 'main', user, 50).canPush).toBe(false);
    expect(branchPermissions(rules, 'main', admin, 60).canPush).toBe(true);
  });

  it('reports the developer flags of the matching rules', () => {
    const rules = [rule('main', { pushAccessLevels: [role(30)], mergeAccessLevels: [role(40)] })];
    expect(branchPermissions(rules, 'main', user, 30)).toMatchObject({ canPush: true, canMerge: false, developersCanPush: true, developersCanMerge: false });
  });

  it('allows force-push only to those who may push, when a matching rule allows it', () => {
    const rules = [rule('main', { allowForcePush: true })];
    expect(branchPermissions(rules, 'main', user, 40)).toMatchObject({ canPush: true, canForcePush: true });
    expect(branchPermissions(rules, 'main', user, 30)).toMatchObject({ canPush: false, canForcePush: false });
  });

  it('combines several matching rules: the most permissive wins', () => {
    const rules = [
      rule('v1.x', { allowForcePush: true, pushAccessLevels: [role(40)] }),
      rule('v1.*', { pushAccessLevels: [role(0)] }),
      rule('v*', { pushAccessLevels: [role(30)] }),
    ];
    expect(branchPermissions(rules, 'v1.x', user, 30)).toMatchObject({ protected: true, canPush: true, developersCanPush: true, canForcePush: true });
    expect(branchPermissions(rules, 'v1.y', user, 30)).toMatchObject({ canPush: true, canForcePush: false });
    expect(branchPermissions(rules, 'v1.y', user, 20)).toMatchObject({ canPush: false });
    expect(branchPermissions(rules.slice(1, 2), 'v1.y', admin, 60)).toMatchObject({ canPush: false });
  });

  it('counts user and group entries on PREMIUM, for members with developer access', () => {
    const rules = [rule('main', { pushAccessLevels: [role(0), userGrant(7), groupGrant(3)], mergeAccessLevels: [groupGrant(3)] })];
    expect(branchPermissions(rules, 'main', user, 30).canPush).toBe(true);
    expect(branchPermissions(rules, 'main', { id: 8, isAdmin: false }, 30).canPush).toBe(false);
    expect(branchPermissions(rules, 'main', { id: 8, isAdmin: false, groupIds: [3] }, 30)).toMatchObject({ canPush: true, canMerge: true });
    expect(branchPermissions(rules, 'main', user, 20).canPush).toBe(false);
    expect(branchPermissions(rules, 'main', user, 30, { userAndGroupGrants: false }).canPush).toBe(false);
  });

  it('requires every matching rule to allow unprotecting', () => {
    const rules = [rule('main', { unprotectAccessLevels: [role(40)] }), rule('m*', { unprotectAccessLevels: [role(60)] })];
    expect(branchPermissions(rules, 'main', user, 50).canUnprotect).toBe(false);
    expect(branchPermissions(rules, 'main', admin, 60).canUnprotect).toBe(true);
    expect(branchPermissions(rules, 'mx', user, 40).canUnprotect).toBe(false);
  });
});

describe(canUnprotectRule.name, () => {
  it('needs maintainer access and, when listed, an unprotect entry', () => {
    expect(canUnprotectRule(rule('main', { unprotectAccessLevels: [] }), user, 40)).toBe(true);
    expect(canUnprotectRule(rule('main', { unprotectAccessLevels: [] }), user, 30)).toBe(false);
    expect(canUnprotectRule(rule('main', { unprotectAccessLevels: [userGrant(9)] }), user, 40)).toBe(false);
    expect(canUnprotectRule(rule('main', { unprotectAccessLevels: [userGrant(7)] }), user, 40)).toBe(true);
    expect(canUnprotectRule(rule('main'), null, 40)).toBe(false);
  });
});

describe(codeOwnerApprovalRequired.name, () => {
  it('is required when any matching rule requires it', () => {
    const rules = [rule('main'), rule('m*', { codeOwnerApprovalRequired: true })];
    expect(codeOwnerApprovalRequired(rules, 'main')).toBe(true);
    expect(codeOwnerApprovalRequired(rules, 'dev')).toBe(false);
  });
});

describe(accessLevelDescription.name, () => {
  it.each([
    [0, 'No one'],
    [30, 'Developers + Maintainers'],
    [40, 'Maintainers'],
    [60, 'Admins'],
  ])('%i is %s', (level, text) => {
    expect(accessLevelDescription(level)).toBe(text);
  });
});

describe(defaultBranchRule.name, () => {
  it.each([
    [0, null],
    [1, { pushAccessLevel: 30, mergeAccessLevel: 40 }],
    [2, { pushAccessLevel: 40, mergeAccessLevel: 40 }],
    [3, { pushAccessLevel: 40, mergeAccessLevel: 30 }],
    [4, { pushAccessLevel: 40, mergeAccessLevel: 40 }],
  ])('level %i', (level, expected) => {
    expect(defaultBranchRule(level)).toEqual(expected);
  });
});
