import { accessLevelDescription } from './branch-permissions';
import type { ProtectedBranchGrantRecord, ProtectedBranchRecord } from './protected-branches.repository';

export interface ProtectedAccessLevelView {
  id: number;
  access_level: number | null;
  access_level_description: string;
  deploy_key_id: null;
  user_id?: number | null;
  group_id?: number | null;
}

export interface ProtectedBranchView {
  id: number;
  name: string;
  push_access_levels: ProtectedAccessLevelView[];
  merge_access_levels: ProtectedAccessLevelView[];
  unprotect_access_levels: ProtectedAccessLevelView[];
  allow_force_push: boolean;
  code_owner_approval_required: boolean;
}

/** An entry's description: the role's wording, or the user's or group's name. */
export function grantDescription(grant: ProtectedBranchGrantRecord): string {
  if (grant.accessLevel !== null) return accessLevelDescription(grant.accessLevel);
  if (grant.userId !== null) return grant.userName ?? '';
  return grant.groupName ?? '';
}

/**
 * The API record. `premium`: user and group entries exist (PREMIUM and above) and entries carry
 * `user_id`/`group_id`; below, only role entries are shown.
 */
export function presentProtectedBranch(rule: ProtectedBranchRecord, premium: boolean): ProtectedBranchView {
  const present = (grants: ProtectedBranchGrantRecord[]): ProtectedAccessLevelView[] =>
    grants
      .filter((grant) => premium || grant.accessLevel !== null)
      .map((grant) => ({
        id: grant.id,
        access_level: grant.accessLevel,
        access_level_description: grantDescription(grant),
        deploy_key_id: null,
        ...(premium ? { user_id: grant.userId, group_id: grant.groupId } : {}),
      }));
  return {
    id: rule.id,
    name: rule.name,
    push_access_levels: present(rule.pushAccessLevels),
    merge_access_levels: present(rule.mergeAccessLevels),
    unprotect_access_levels: present(rule.unprotectAccessLevels),
    allow_force_push: rule.allowForcePush,
    code_owner_approval_required: rule.codeOwnerApprovalRequired,
  };
}
