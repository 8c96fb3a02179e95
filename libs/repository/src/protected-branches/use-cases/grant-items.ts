import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import type { ProjectWithNamespace } from '@app/namespaces';
import { EntityManager } from 'typeorm';
import type { ProtectedBranchAction } from '../branch-permissions';
import type { GrantItemDto } from '../dto/protected-branch.dto';
import { type NewGrant, ProtectedBranchesRepository } from '../protected-branches.repository';

const ATTRIBUTE_NAMES: Record<ProtectedBranchAction, string> = {
  push: 'Push access levels',
  merge: 'Merge access levels',
  unprotect: 'Unprotect access levels',
};

/** `allowed_to_<action>` item with exactly one of `access_level`, `user_id`, `group_id`. */
export function grantOfItem(action: ProtectedBranchAction, item: GrantItemDto): NewGrant {
  const given = [item.access_level, item.user_id, item.group_id].filter((value) => value !== undefined && value !== null).length;
  if (given !== 1) throw DomainError.invalid({ [`allowed_to_${action}`]: ['must have exactly one of access_level, user_id, group_id'] });
  return { action, accessLevel: item.access_level ?? null, userId: item.user_id ?? null, groupId: item.group_id ?? null };
}

const sameGrant = (a: NewGrant, b: NewGrant): boolean =>
  a.action === b.action && a.accessLevel === b.accessLevel && a.userId === b.userId && a.groupId === b.groupId;

/** Drops repeated entries (same action and same role, user or group). */
export function uniqueGrants(grants: NewGrant[]): NewGrant[] {
  return grants.filter((grant, index) => grants.findIndex((other) => sameGrant(other, grant)) === index);
}

/**
 * The membership checks of user and group entries: each user must have access to the project
 * (a direct or inherited membership), each group must share the project (here: be the group the
 * project lives in or one of its ancestors, whose members have the project). Failures answer 422
 * with GitLab's wording.
 */
@Injectable()
export class GrantMembershipChecker {
  constructor(private readonly protectedBranches: ProtectedBranchesRepository) {}

  async check(manager: EntityManager, project: ProjectWithNamespace, grants: NewGrant[]): Promise<void> {
    const problems: string[] = [];
    const userIds = [...new Set(grants.filter((grant) => grant.userId !== null).map((grant) => grant.userId as number))];
    let members = new Set<number>();
    if (userIds.length > 0) members = new Set(await this.protectedBranches.projectUserIds(manager, project.id, userIds));
    const sharing = new Set(project.namespace.kind === 'group' ? project.namespace.traversalIds : []);
    for (const grant of grants) {
      if (grant.userId !== null && !members.has(grant.userId)) problems.push(`${ATTRIBUTE_NAMES[grant.action]} user is not a member of the project`);
      if (grant.groupId !== null && !sharing.has(grant.groupId)) problems.push(`${ATTRIBUTE_NAMES[grant.action]} group does not have access to the project`);
    }
    if (problems.length > 0) throw DomainError.unprocessable([...new Set(problems)].join(', '));
  }
}
