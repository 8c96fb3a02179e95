import { Injectable } from '@nestjs/common';
import { restrictToActiveMemberships, restrictToProjectUsers } from '@app/namespaces';
import { DataSource, EntityManager } from 'typeorm';
import type { ProtectedBranchAction, ProtectedBranchGrant, ProtectedBranchRule } from './branch-permissions';
import { ProtectedBranchAccessLevelEntity } from './entities/protected-branch-access-level.entity';
import { ProtectedBranchEntity } from './entities/protected-branch.entity';

/** A grant with the names its description needs. */
export interface ProtectedBranchGrantRecord extends ProtectedBranchGrant {
  userName: string | null;
  groupName: string | null;
}

/** A rule as stored, with its entries named (for the API records). */
export interface ProtectedBranchRecord extends ProtectedBranchRule {
  projectId: number;
  pushAccessLevels: ProtectedBranchGrantRecord[];
  mergeAccessLevels: ProtectedBranchGrantRecord[];
  unprotectAccessLevels: ProtectedBranchGrantRecord[];
}

/** A new entry of a rule. */
export interface NewGrant {
  action: ProtectedBranchAction;
  accessLevel: number | null;
  userId: number | null;
  groupId: number | null;
}

interface RuleRow {
  id: number;
  project_id: number;
  name: string;
  allow_force_push: boolean;
  code_owner_approval_required: boolean;
  level_id: number | null;
  action: ProtectedBranchAction | null;
  access_level: number | null;
  user_id: number | null;
  group_id: number | null;
  user_name: string | null;
  group_name: string | null;
}

@Injectable()
export class ProtectedBranchesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Every rule of a project (ordered by id), entries included: one query. */
  async list(projectId: number, options: { search?: string; name?: string; ids?: number[] } = {}, manager?: EntityManager): Promise<ProtectedBranchRecord[]> {
    const params: unknown[] = [projectId];
    let where = 'pb.project_id = $1';
    if (options.name !== undefined) {
      params.push(options.name);
      where += ` AND pb.name = $${params.length}`;
    }
    if (options.search) {
      params.push(`%${options.search.replace(/[\\%_]/g, '\\$&')}%`);
      where += ` AND pb.name ILIKE $${params.length}`;
    }
    if (options.ids) {
      params.push(options.ids);
      where += ` AND pb.id = ANY($${params.length})`;
    }
    const rows = (await (manager ?? this.dataSource.manager).query(
      `SELECT pb.id, pb.project_id, pb.name, pb.allow_force_push, pb.code_owner_approval_required,
              l.id AS level_id, l.action, l.access_level, l.user_id, l.group_id, u.name AS user_name, g.name AS group_name
       FROM protected_branches pb
       LEFT JOIN protected_branch_access_levels l ON l.protected_branch_id = pb.id
       LEFT JOIN users u ON u.id = l.user_id
       LEFT JOIN namespaces g ON g.id = l.group_id
       WHERE ${where}
       ORDER BY pb.id, l.id`,
      params,
    )) as RuleRow[];
    const rules = new Map<number, ProtectedBranchRecord>();
    for (const row of rows) {
      let rule = rules.get(row.id);
      if (!rule) {
        rule = {
          id: row.id,
          projectId: row.project_id,
          name: row.name,
          allowForcePush: row.allow_force_push,
          codeOwnerApprovalRequired: row.code_owner_approval_required,
          pushAccessLevels: [],
          mergeAccessLevels: [],
          unprotectAccessLevels: [],
        };
        rules.set(row.id, rule);
      }
      if (row.level_id === null) continue;
      const grant: ProtectedBranchGrantRecord = {
        id: row.level_id,
        accessLevel: row.access_level,
        userId: row.user_id,
        groupId: row.group_id,
        userName: row.user_name,
        groupName: row.group_name,
      };
      if (row.action === 'push') rule.pushAccessLevels.push(grant);
      else if (row.action === 'merge') rule.mergeAccessLevels.push(grant);
      else rule.unprotectAccessLevels.push(grant);
    }
    return [...rules.values()];
  }

  async findByName(projectId: number, name: string, manager?: EntityManager): Promise<ProtectedBranchRecord | null> {
    const [rule] = await this.list(projectId, { name }, manager);
    return rule ?? null;
  }

  /** Inserts a rule and its entries; null when the name is already protected. */
  async insert(
    manager: EntityManager,
    rule: { projectId: number; name: string; allowForcePush: boolean; codeOwnerApprovalRequired: boolean },
    grants: NewGrant[],
  ): Promise<number | null> {
    const inserted = (await manager.query(
      `INSERT INTO protected_branches (project_id, name, allow_force_push, code_owner_approval_required)
       VALUES ($1, $2, $3, $4) ON CONFLICT (project_id, name) DO NOTHING RETURNING id`,
      [rule.projectId, rule.name, rule.allowForcePush, rule.codeOwnerApprovalRequired],
    )) as { id: number }[];
    if (inserted.length === 0) return null;
    const id = inserted[0].id;
    await this.addGrants(manager, id, grants);
    return id;
  }

  async addGrants(manager: EntityManager, protectedBranchId: number, grants: NewGrant[]): Promise<void> {
    if (grants.length === 0) return;
    await manager.getRepository(ProtectedBranchAccessLevelEntity).insert(grants.map((grant) => ({ ...grant, protectedBranchId })));
  }

  async removeGrants(manager: EntityManager, protectedBranchId: number, grantIds: number[]): Promise<void> {
    if (grantIds.length === 0) return;
    await manager.query('DELETE FROM protected_branch_access_levels WHERE protected_branch_id = $1 AND id = ANY($2)', [protectedBranchId, grantIds]);
  }

  async update(
    manager: EntityManager,
    id: number,
    changes: Partial<Pick<ProtectedBranchEntity, 'allowForcePush' | 'codeOwnerApprovalRequired'>>,
  ): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await manager.getRepository(ProtectedBranchEntity).update({ id }, changes);
  }

  async delete(manager: EntityManager, id: number): Promise<boolean> {
    const result = await manager.getRepository(ProtectedBranchEntity).delete({ id });
    return (result.affected ?? 0) > 0;
  }

  /** Among `groupIds`, the groups the user is an active member of (directly or through an ancestor). */
  async memberGroupIds(userId: number, groupIds: number[], manager?: EntityManager): Promise<number[]> {
    if (groupIds.length === 0) return [];
    const qb = (manager ?? this.dataSource.manager)
      .createQueryBuilder()
      .select('g.id', 'id')
      .from('namespaces', 'g')
      .where('g.id = ANY(:groupIds)', { groupIds });
    const membership = restrictToActiveMemberships(
      qb
        .subQuery()
        .select('1')
        .from('members', 'm')
        .where(`m.user_id = :userId AND m.source_type = 'namespace' AND m.source_id = ANY(g.traversal_ids)`, { userId }),
      'm',
    );
    const rows = await qb.andWhere(`EXISTS ${membership.getQuery()}`).getRawMany<{ id: number }>();
    return rows.map((row) => row.id);
  }

  /** Among `userIds`, the active users with access to the project (a direct or inherited membership, or its personal namespace). */
  async projectUserIds(manager: EntityManager, projectId: number, userIds: number[]): Promise<number[]> {
    if (userIds.length === 0) return [];
    const qb = manager
      .createQueryBuilder()
      .select('u.id', 'id')
      .from('users', 'u')
      .addFrom('projects', 'p')
      .innerJoin('namespaces', 'n', 'n.id = p.namespace_id')
      .where(`p.id = :projectId AND u.id = ANY(:userIds) AND u.state = 'active'`, { projectId, userIds });
    const rows = await restrictToProjectUsers(qb, 'p', 'n', 'u.id').getRawMany<{ id: number }>();
    return rows.map((row) => row.id);
  }

  /**
   * Stores a rule read from a project export and its entries, in the import's transaction (a name
   * already protected is an error here: the import records it as a failed relation); its id.
   */
  async insertImported(
    tx: EntityManager,
    rule: { projectId: number; name: string; allowForcePush: boolean; codeOwnerApprovalRequired: boolean },
    grants: NewGrant[],
  ): Promise<number> {
    const inserted = await tx.insert(ProtectedBranchEntity, rule);
    const id = inserted.identifiers[0].id as number;
    if (grants.length)
      await tx.insert(
        ProtectedBranchAccessLevelEntity,
        grants.map((grant) => ({ ...grant, protectedBranchId: id })),
      );
    return id;
  }
}
