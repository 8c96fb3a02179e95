import { Injectable } from '@nestjs/common';
import type { AccessResolver, ResourceAccess } from '@app/api';
import { DataSource, EntityManager } from 'typeorm';
import { NamespaceEntity } from '../entities/namespace.entity';
import { GroupsRepository } from '../repositories/groups.repository';
import { ProjectsRepository, ProjectWithNamespace } from '../repositories/projects.repository';
import { AccessUser, canSee, effectiveAccessLevel } from './access-policy';
import { activeMembershipSql, groupDescendantAccessSql } from './access-sql';
import { projectFeatureOfRoute, projectFeatureReadable } from './feature-access';

export type ProjectAccess = ResourceAccess<ProjectWithNamespace>;
export type GroupAccess = ResourceAccess<NamespaceEntity>;

/** The caller's own membership levels shown in a project's `permissions` (null: no membership). */
export interface ProjectPermissions {
  projectAccess: number | null;
  groupAccess: number | null;
}

interface LevelRow {
  project_level: number | null;
  group_level: number | null;
}

/**
 * Resolves `:id` references to projects and groups and computes what a user may do there:
 * the effective access level (highest active membership, direct or inherited from ancestor
 * groups; Owner for a personal namespace's owner; 60 for administrators) and visibility.
 */
@Injectable()
export class AccessService implements AccessResolver {
  constructor(
    private readonly dataSource: DataSource,
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
    if (!visible && user) visible = canSee(group.visibility, user, accessLevel, { hasDescendantAccess: await this.hasDescendantAccess(group, user.id, manager) });
    return { resource: group, accessLevel, visible };
  }

  async projectAccessLevel(project: ProjectWithNamespace, user: AccessUser | null, manager?: EntityManager): Promise<number> {
    if (!user || user.isAdmin) return effectiveAccessLevel(user, { memberLevels: [] });
    const levels = await this.memberLevels(project, user.id, manager);
    const ownsNamespace = project.namespace.kind === 'user' && project.namespace.ownerId === user.id;
    return effectiveAccessLevel(user, { memberLevels: [levels.project_level ?? 0, levels.group_level ?? 0], ownsNamespace });
  }

  async groupAccessLevel(group: NamespaceEntity, user: AccessUser | null, manager?: EntityManager): Promise<number> {
    if (!user || user.isAdmin) return effectiveAccessLevel(user, { memberLevels: [] });
    if (group.kind === 'user') return effectiveAccessLevel(user, { memberLevels: [], ownsNamespace: group.ownerId === user.id });
    const [row] = (await (manager ?? this.dataSource.manager).query(
      `SELECT max(m.access_level) AS level FROM members m
       WHERE m.user_id = $1 AND m.source_type = 'namespace' AND m.source_id = ANY($2) AND ${activeMembershipSql('m')}`,
      [user.id, group.traversalIds],
    )) as { level: number | null }[];
    return effectiveAccessLevel(user, { memberLevels: [row?.level ?? 0] });
  }

  /** The user's own memberships for a project's `permissions` (administrators get no implicit level here). */
  async projectPermissions(project: ProjectWithNamespace, userId: number, manager?: EntityManager): Promise<ProjectPermissions> {
    const levels = await this.memberLevels(project, userId, manager);
    return {
      projectAccess: levels.project_level ?? null,
      groupAccess: project.namespace.kind === 'group' ? (levels.group_level ?? null) : null,
    };
  }

  /**
   * For many projects at once: the user's own memberships (`permissions`) and effective level
   * (administrators excluded), keyed by project id.
   */
  async projectPermissionsMany(projectIds: number[], userId: number, manager?: EntityManager): Promise<Map<number, ProjectPermissions & { accessLevel: number }>> {
    if (projectIds.length === 0) return new Map();
    const rows = (await (manager ?? this.dataSource.manager).query(
      `SELECT p.id,
         (SELECT max(m.access_level) FROM members m WHERE m.user_id = $1 AND m.source_type = 'project' AND m.source_id = p.id AND ${activeMembershipSql('m')}) AS project_level,
         CASE WHEN n.kind = 'group' THEN (SELECT max(m.access_level) FROM members m WHERE m.user_id = $1 AND m.source_type = 'namespace'
           AND m.source_id = ANY(n.traversal_ids) AND ${activeMembershipSql('m')}) END AS group_level,
         CASE WHEN n.kind = 'user' AND n.owner_id = $1 THEN 50 ELSE 0 END AS owner_level
       FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE p.id = ANY($2)`,
      [userId, projectIds],
    )) as (LevelRow & { id: number; owner_level: number })[];
    return new Map(
      rows.map((row) => [
        row.id,
        {
          projectAccess: row.project_level ?? null,
          groupAccess: row.group_level ?? null,
          accessLevel: Math.max(row.project_level ?? 0, row.group_level ?? 0, row.owner_level),
        },
      ]),
    );
  }

  /** Whether the user is a member of a subgroup of, or a project in, the group. */
  async hasDescendantAccess(group: NamespaceEntity, userId: number, manager?: EntityManager): Promise<boolean> {
    const rows = await (manager ?? this.dataSource.manager).query(`SELECT 1 FROM namespaces g WHERE g.id = $1 AND ${groupDescendantAccessSql('g', '$2')}`, [group.id, userId]);
    return rows.length > 0;
  }

  private async memberLevels(project: ProjectWithNamespace, userId: number, manager?: EntityManager): Promise<LevelRow> {
    const [row] = (await (manager ?? this.dataSource.manager).query(
      `SELECT
         (SELECT max(m.access_level) FROM members m WHERE m.user_id = $1 AND m.source_type = 'project' AND m.source_id = $2 AND ${activeMembershipSql('m')}) AS project_level,
         (SELECT max(m.access_level) FROM members m WHERE m.user_id = $1 AND m.source_type = 'namespace' AND m.source_id = ANY($3) AND ${activeMembershipSql('m')}) AS group_level`,
      [userId, project.id, project.namespace.kind === 'group' ? project.namespace.traversalIds : []],
    )) as LevelRow[];
    return row ?? { project_level: null, group_level: null };
  }
}
