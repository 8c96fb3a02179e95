import { Injectable } from '@nestjs/common';
import type { AccessResolver, ResourceAccess } from '@app/api';
import { EntityManager } from 'typeorm';
import { NamespaceEntity } from '../entities/namespace.entity';
import { GroupsRepository } from '../repositories/groups.repository';
import { MemberLevels, MembersRepository } from '../repositories/members.repository';
import { ProjectsRepository, ProjectWithNamespace } from '../repositories/projects.repository';
import { AccessUser, canSee, effectiveAccessLevel } from '../access/access-policy';
import { projectFeatureOfRoute, projectFeatureReadable } from '../access/feature-access';

export type ProjectAccess = ResourceAccess<ProjectWithNamespace>;
export type GroupAccess = ResourceAccess<NamespaceEntity>;

/** The caller's own membership levels shown in a project's `permissions` (null: no membership). */
export interface ProjectPermissions {
  projectAccess: number | null;
  groupAccess: number | null;
}

/**
 * Resolves `:id` references to projects and groups and computes what a user may do there:
 * the effective access level (highest active membership, direct or inherited from ancestor
 * groups; Owner for a personal namespace's owner; 60 for administrators) and visibility.
 */
@Injectable()
export class AccessService implements AccessResolver {
  constructor(
    private readonly members: MembersRepository,
    private readonly projects: ProjectsRepository,
    private readonly groups: GroupsRepository,
  ) {}

  async project(ref: string | number, user: AccessUser | null, manager?: EntityManager): Promise<ProjectAccess | null> {
    const project = await this.projects.findByRef(ref, manager);
    if (!project) return null;
    return this.projectAccess(project, user, manager);
  }

  async group(ref: string | number, user: AccessUser | null, manager?: EntityManager): Promise<GroupAccess | null> {
    const group = await this.groups.findByRef(ref, manager);
    if (!group) return null;
    return this.groupAccess(group, user, manager);
  }

  /** The project feature a route belongs to is open to the caller (see `projectFeatureReadable`). */
  projectRouteReadable(access: ResourceAccess, routePath: string): boolean {
    const feature = projectFeatureOfRoute(routePath);
    return feature === null || projectFeatureReadable(access.resource as ProjectWithNamespace, feature, access.accessLevel);
  }

  /** Access to an already loaded project. */
  async projectAccess(project: ProjectWithNamespace, user: AccessUser | null, manager?: EntityManager): Promise<ProjectAccess> {
    const accessLevel = await this.projectAccessLevel(project, user, manager);
    return { resource: project, accessLevel, visible: canSee(project.visibility, user, accessLevel), archived: project.archived };
  }

  /** Access to an already loaded group. */
  async groupAccess(group: NamespaceEntity, user: AccessUser | null, manager?: EntityManager): Promise<GroupAccess> {
    const accessLevel = await this.groupAccessLevel(group, user, manager);
    let visible = canSee(group.visibility, user, accessLevel);
    if (!visible && user)
      visible = canSee(group.visibility, user, accessLevel, { hasDescendantAccess: await this.hasDescendantAccess(group, user.id, manager) });
    return { resource: group, accessLevel, visible };
  }

  async projectAccessLevel(project: ProjectWithNamespace, user: AccessUser | null, manager?: EntityManager): Promise<number> {
    if (!user || user.isAdmin) return effectiveAccessLevel(user, { memberLevels: [] });
    const levels = await this.memberLevels(project, user.id, manager);
    const ownsNamespace = project.namespace.kind === 'user' && project.namespace.ownerId === user.id;
    return effectiveAccessLevel(user, { memberLevels: [levels.projectLevel ?? 0, levels.groupLevel ?? 0], ownsNamespace });
  }

  async groupAccessLevel(group: NamespaceEntity, user: AccessUser | null, manager?: EntityManager): Promise<number> {
    if (!user || user.isAdmin) return effectiveAccessLevel(user, { memberLevels: [] });
    if (group.kind === 'user') return effectiveAccessLevel(user, { memberLevels: [], ownsNamespace: group.ownerId === user.id });
    const level = await this.members.highestGroupLevel(user.id, group.traversalIds, manager);
    return effectiveAccessLevel(user, { memberLevels: [level ?? 0] });
  }

  /** The user's own memberships for a project's `permissions` (administrators get no implicit level here). */
  async projectPermissions(project: ProjectWithNamespace, userId: number, manager?: EntityManager): Promise<ProjectPermissions> {
    const levels = await this.memberLevels(project, userId, manager);
    return {
      projectAccess: levels.projectLevel,
      groupAccess: project.namespace.kind === 'group' ? levels.groupLevel : null,
    };
  }

  /**
   * For many projects at once: the user's own memberships (`permissions`) and effective level
   * (administrators excluded), keyed by project id.
   */
  async projectPermissionsMany(
    projectIds: number[],
    userId: number,
    manager?: EntityManager,
  ): Promise<Map<number, ProjectPermissions & { accessLevel: number }>> {
    if (projectIds.length === 0) return new Map();
    const levels = await this.members.projectMemberLevelsMany(userId, projectIds, manager);
    return new Map(
      [...levels].map(([id, level]) => [
        id,
        {
          projectAccess: level.projectLevel,
          groupAccess: level.groupLevel,
          accessLevel: Math.max(level.projectLevel ?? 0, level.groupLevel ?? 0, level.ownerLevel),
        },
      ]),
    );
  }

  /** Whether the user is a member of a subgroup of, or a project in, the group. */
  async hasDescendantAccess(group: NamespaceEntity, userId: number, manager?: EntityManager): Promise<boolean> {
    return this.members.hasDescendantAccess(group.id, userId, manager);
  }

  private memberLevels(project: ProjectWithNamespace, userId: number, manager?: EntityManager): Promise<MemberLevels> {
    return this.members.projectMemberLevels(userId, project.id, project.namespace.kind === 'group' ? project.namespace.traversalIds : [], manager);
  }
}
