import { Injectable } from '@nestjs/common';
import { tierAtLeast } from '@app/api';
import { AppConfig } from '@app/config';
import { OutboxService } from '@app/messaging';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { ProjectWithNamespace } from '@app/namespaces';
import { SettingsReader } from '@app/settings';
import { EntityManager } from 'typeorm';
import {
  BranchPermissionOptions,
  BranchPermissions,
  BranchUser,
  branchPermissions,
  defaultBranchRule,
  matchingRules,
  ProtectedBranchRule,
} from './branch-permissions';
import { ProtectedBranchesRepository } from './protected-branches.repository';
import { PROTECTED_BRANCH_EVENTS, protectedBranchEvent } from './protected-branch.events';
import { presentProtectedBranch } from './protected-branch.presenter';

/** The caller as seen by `permissionsFor` (null: anonymous). */
export interface BranchCaller {
  id: number;
  isAdmin: boolean;
}

/**
 * Branch protection as the rest of the service sees it (git push, branch endpoints, merges):
 * the rules of a project and what a caller may do on a branch.
 */
@Injectable()
export class ProtectedBranchesService {
  constructor(
    private readonly repository: ProtectedBranchesRepository,
    private readonly config: AppConfig,
    private readonly settings: SettingsReader,
    private readonly outbox: OutboxService,
  ) {}

  /** Every protection rule of a project, to evaluate many branches with `branchPermissions`. */
  rulesFor(projectId: number, manager?: EntityManager): Promise<ProtectedBranchRule[]> {
    return this.repository.list(projectId, {}, manager);
  }

  /** Whether a protected branch rule (exact or wildcard) covers `branch` (GitLab's `ProtectedBranch.protected?`). */
  async isProtected(projectId: number, branch: string, manager?: EntityManager): Promise<boolean> {
    return matchingRules(await this.rulesFor(projectId, manager), branch).length > 0;
  }

  /** Whether user and group entries count on this instance (PREMIUM and above). */
  get options(): BranchPermissionOptions {
    return { userAndGroupGrants: tierAtLeast(this.config.tier, 'premium') };
  }

  /**
   * What `user` (effective project level `accessLevel`, 60 for administrators) may do on `branch`.
   * Loads the rules and, when a matching rule names groups, the user's memberships in them.
   */
  async permissionsFor(projectId: number, branch: string, user: BranchCaller | null, accessLevel: number, manager?: EntityManager): Promise<BranchPermissions> {
    const rules = await this.rulesFor(projectId, manager);
    const branchUser = await this.branchUser(rules, [branch], user, manager);
    return branchPermissions(rules, branch, branchUser, accessLevel, this.options);
  }

  /**
   * For many branches at once (branch lists): the permissions of each branch, from one load of
   * the rules.
   */
  async permissionsForMany(
    projectId: number,
    branches: readonly string[],
    user: BranchCaller | null,
    accessLevel: number,
    manager?: EntityManager,
  ): Promise<Map<string, BranchPermissions>> {
    const rules = await this.rulesFor(projectId, manager);
    const branchUser = await this.branchUser(rules, branches, user, manager);
    const options = this.options;
    return new Map(branches.map((branch) => [branch, branchPermissions(rules, branch, branchUser, accessLevel, options)]));
  }

  /** The caller with the groups (named by the rules covering `branches`) they belong to. */
  async branchUser(
    rules: readonly ProtectedBranchRule[],
    branches: readonly string[],
    user: BranchCaller | null,
    manager?: EntityManager,
  ): Promise<BranchUser | null> {
    if (!user) return null;
    const groupIds = new Set<number>();
    for (const branch of branches) {
      for (const rule of matchingRules(rules, branch)) {
        for (const grant of [...rule.pushAccessLevels, ...rule.mergeAccessLevels, ...rule.unprotectAccessLevels])
          if (grant.groupId !== null) groupIds.add(grant.groupId);
      }
    }
    return { id: user.id, isAdmin: user.isAdmin, groupIds: await this.repository.memberGroupIds(user.id, [...groupIds], manager) };
  }

  /**
   * The `default_branch_protection` level that applies to a project: its group's own setting
   * when the group has one, else the instance setting.
   */
  async defaultBranchProtection(project: Pick<ProjectWithNamespace, 'namespace'>): Promise<number> {
    const own = project.namespace.kind === 'group' ? project.namespace.settings?.default_branch_protection : undefined;
    if (typeof own === 'number') return own;
    return (await this.settings.get()).number('default_branch_protection');
  }

  /**
   * Protects a project's new default branch as `default_branch_protection` says (GitLab does it
   * when the default branch is first created): 0 none, 1 developers push / maintainers merge,
   * 2 (and 4) maintainers push and merge, 3 maintainers push / developers merge; maintainers
   * unprotect, no force-push. Nothing when a rule already covers the branch. Call it inside the
   * transaction that records the branch creation; a new rule is recorded as
   * `protected_branch.created` by `actorId` (the user who created the branch), like one made
   * through the API. Returns whether a rule was created.
   */
  async protectDefaultBranch(
    manager: EntityManager,
    project: Pick<ProjectWithNamespace, 'id' | 'namespace'>,
    branch: string,
    actorId?: number,
  ): Promise<boolean> {
    const rule = defaultBranchRule(await this.defaultBranchProtection(project));
    if (!rule) return false;
    const rules = await this.rulesFor(project.id, manager);
    if (matchingRules(rules, branch).length > 0) return false;
    const id = await this.repository.insert(manager, { projectId: project.id, name: branch, allowForcePush: false, codeOwnerApprovalRequired: false }, [
      { action: 'push', accessLevel: rule.pushAccessLevel, userId: null, groupId: null },
      { action: 'merge', accessLevel: rule.mergeAccessLevel, userId: null, groupId: null },
      { action: 'unprotect', accessLevel: ACCESS_LEVELS.MAINTAINER, userId: null, groupId: null },
    ]);
    if (id === null) return false;
    if (actorId !== undefined) {
      const [created] = await this.repository.list(project.id, { ids: [id] }, manager);
      const projectRef = { id: project.id, groupId: project.namespace.kind === 'group' ? project.namespace.id : null };
      await this.outbox.append(manager, protectedBranchEvent(PROTECTED_BRANCH_EVENTS.CREATED, actorId, projectRef, presentProtectedBranch(created, true)));
    }
    return true;
  }
}
