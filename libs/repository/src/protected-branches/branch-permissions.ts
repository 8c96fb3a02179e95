import { ACCESS_LEVELS } from '@app/namespaces';

/** What a protected branch access entry governs. */
export type ProtectedBranchAction = 'push' | 'merge' | 'unprotect';

/**
 * One entry of `push_access_levels` / `merge_access_levels` / `unprotect_access_levels`:
 * exactly one of a role (`accessLevel`), a user or a group.
 */
export interface ProtectedBranchGrant {
  id: number;
  accessLevel: number | null;
  userId: number | null;
  groupId: number | null;
}

/** A protection rule: an exact branch name or a wildcard pattern (`release/*`). */
export interface ProtectedBranchRule {
  id: number;
  name: string;
  allowForcePush: boolean;
  codeOwnerApprovalRequired: boolean;
  pushAccessLevels: ProtectedBranchGrant[];
  mergeAccessLevels: ProtectedBranchGrant[];
  unprotectAccessLevels: ProtectedBranchGrant[];
}

/** The caller as the branch rules see it; `groupIds`: groups the user is an active member of (direct or inherited). */
export interface BranchUser {
  id: number;
  isAdmin: boolean;
  groupIds?: readonly number[];
}

/** What a caller may do on one branch. */
export interface BranchPermissions {
  protected: boolean;
  canPush: boolean;
  canForcePush: boolean;
  canMerge: boolean;
  canUnprotect: boolean;
  developersCanPush: boolean;
  developersCanMerge: boolean;
}

export interface BranchPermissionOptions {
  /** Whether user and group entries count (PREMIUM and above); role entries always count. */
  userAndGroupGrants?: boolean;
}

/** The levels a role entry may have: no one, developers + maintainers, maintainers, admins. */
export const PROTECTED_ACCESS_LEVELS: readonly number[] = [ACCESS_LEVELS.NO_ACCESS, ACCESS_LEVELS.DEVELOPER, ACCESS_LEVELS.MAINTAINER, ACCESS_LEVELS.ADMIN];

/** `access_level_description` of a role entry, as GitLab words it. */
export function accessLevelDescription(level: number): string {
  switch (level) {
    case ACCESS_LEVELS.NO_ACCESS:
      return 'No one';
    case ACCESS_LEVELS.DEVELOPER:
      return 'Developers + Maintainers';
    case ACCESS_LEVELS.MAINTAINER:
      return 'Maintainers';
    case ACCESS_LEVELS.ADMIN:
      return 'Admins';
    default:
      return String(level);
  }
}

/** Whether a protected branch name is a wildcard pattern. */
export const isWildcard = (name: string): boolean => name.includes('*');

const regexCache = new Map<string, RegExp>();

/**
 * Whether `branch` is covered by the rule name `pattern`: equal names, or for a wildcard every
 * `*` matches any run of characters, `/` included (`release/*` covers `release/1.0/hotfix`).
 */
export function matchesBranch(pattern: string, branch: string): boolean {
  if (!isWildcard(pattern)) return pattern === branch;
  let regex = regexCache.get(pattern);
  if (!regex) {
    const source = pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'))
      .join('.*');
    regex = new RegExp(`^${source}$`, 's');
    if (regexCache.size > 10_000) regexCache.clear();
    regexCache.set(pattern, regex);
  }
  return regex.test(branch);
}

/** The rules that cover a branch (exact and wildcard). */
export const matchingRules = (rules: readonly ProtectedBranchRule[], branch: string): ProtectedBranchRule[] =>
  rules.filter((rule) => matchesBranch(rule.name, branch));

/**
 * Whether one entry grants the caller (`accessLevel` is the caller's effective level on the
 * project, 60 for administrators). `No one` (0) grants nobody, administrators included; `Admins`
 * (60) only administrators; a role entry anyone at or above it; a user entry that user; a group
 * entry the members of that group. As GitLab does, user and group entries still require the
 * caller to be at least a developer of the project.
 */
export function grantAllows(grant: ProtectedBranchGrant, user: BranchUser | null, accessLevel: number, options: BranchPermissionOptions = {}): boolean {
  if (!user) return false;
  if (grant.accessLevel !== null) {
    if (grant.accessLevel === ACCESS_LEVELS.NO_ACCESS) return false;
    if (grant.accessLevel >= ACCESS_LEVELS.ADMIN) return user.isAdmin;
    return accessLevel >= grant.accessLevel;
  }
  if (options.userAndGroupGrants === false) return false;
  if (accessLevel < ACCESS_LEVELS.DEVELOPER) return false;
  if (grant.userId !== null) return grant.userId === user.id;
  if (grant.groupId !== null) return (user.groupIds ?? []).includes(grant.groupId);
  return false;
}

const grantsOf = (rule: ProtectedBranchRule, action: ProtectedBranchAction): ProtectedBranchGrant[] =>
  action === 'push' ? rule.pushAccessLevels : action === 'merge' ? rule.mergeAccessLevels : rule.unprotectAccessLevels;

/** Whether some entry of some rule allows the action (the most permissive rule wins). */
export function anyRuleAllows(
  rules: readonly ProtectedBranchRule[],
  user: BranchUser | null,
  accessLevel: number,
  action: ProtectedBranchAction,
  options: BranchPermissionOptions = {},
): boolean {
  return rules.some((rule) => grantsOf(rule, action).some((grant) => grantAllows(grant, user, accessLevel, options)));
}

/**
 * Whether the caller may remove the protection `rule`: maintainers and above, and when the rule
 * has `unprotect_access_levels` entries one of them must allow it.
 */
export function canUnprotectRule(rule: ProtectedBranchRule, user: BranchUser | null, accessLevel: number, options: BranchPermissionOptions = {}): boolean {
  if (!user || accessLevel < ACCESS_LEVELS.MAINTAINER) return false;
  if (rule.unprotectAccessLevels.length === 0) return true;
  return rule.unprotectAccessLevels.some((grant) => grantAllows(grant, user, accessLevel, options));
}

/**
 * What the caller may do on `branch` given every protection rule of the project.
 *
 * - Unprotected branch: developers and above may push, force-push and merge.
 * - Protected branch (one or more rules match, exact and wildcard alike): as GitLab documents,
 *   the most permissive matching rule wins: push/merge are allowed when an entry of ANY matching
 *   rule allows them; force-push when the caller may push and ANY matching rule has
 *   `allow_force_push`. Unprotecting requires being allowed by EVERY matching rule (all of
 *   them must go for the branch to be unprotected).
 * - `developersCanPush`/`developersCanMerge` are GitLab's branch flags: true when a matching
 *   rule has a `Developers + Maintainers` entry (false for an unprotected branch, as GitLab).
 */
export function branchPermissions(
  rules: readonly ProtectedBranchRule[],
  branch: string,
  user: BranchUser | null,
  accessLevel: number,
  options: BranchPermissionOptions = {},
): BranchPermissions {
  const matching = matchingRules(rules, branch);
  const developer = !!user && accessLevel >= ACCESS_LEVELS.DEVELOPER;
  if (matching.length === 0) {
    return {
      protected: false,
      canPush: developer,
      canForcePush: developer,
      canMerge: developer,
      canUnprotect: false,
      developersCanPush: false,
      developersCanMerge: false,
    };
  }
  const canPush = developer && anyRuleAllows(matching, user, accessLevel, 'push', options);
  const hasDeveloperEntry = (action: ProtectedBranchAction): boolean =>
    matching.some((rule) => grantsOf(rule, action).some((grant) => grant.accessLevel === ACCESS_LEVELS.DEVELOPER));
  return {
    protected: true,
    canPush,
    canForcePush: canPush && matching.some((rule) => rule.allowForcePush),
    canMerge: developer && anyRuleAllows(matching, user, accessLevel, 'merge', options),
    canUnprotect: matching.every((rule) => canUnprotectRule(rule, user, accessLevel, options)),
    developersCanPush: hasDeveloperEntry('push'),
    developersCanMerge: hasDeveloperEntry('merge'),
  };
}

/** Whether any matching rule requires code owner approval (the most restrictive rule wins here, as GitLab). */
export const codeOwnerApprovalRequired = (rules: readonly ProtectedBranchRule[], branch: string): boolean =>
  matchingRules(rules, branch).some((rule) => rule.codeOwnerApprovalRequired);

/** The rule GitLab creates for a new default branch at a `default_branch_protection` level (null: none). */
export function defaultBranchRule(level: number): { pushAccessLevel: number; mergeAccessLevel: number } | null {
  switch (level) {
    case 0:
      return null;
    case 1:
      return { pushAccessLevel: ACCESS_LEVELS.DEVELOPER, mergeAccessLevel: ACCESS_LEVELS.MAINTAINER };
    case 3:
      return { pushAccessLevel: ACCESS_LEVELS.MAINTAINER, mergeAccessLevel: ACCESS_LEVELS.DEVELOPER };
    default:
      return { pushAccessLevel: ACCESS_LEVELS.MAINTAINER, mergeAccessLevel: ACCESS_LEVELS.MAINTAINER };
  }
}
