import { Injectable } from '@nestjs/common';
import { UserEntity } from '@app/identity';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { activeMembershipSql, groupDescendantAccessSql } from '../access/access-sql';
import { MemberEntity } from '../entities/member.entity';
import { NamespaceEntity } from '../entities/namespace.entity';
import { ProjectEntity } from '../entities/project.entity';
import { likePattern } from '../naming/naming';

/** A user's membership levels in a project and in its group's ancestry (null: no membership). */
export interface MemberLevels {
  projectLevel: number | null;
  groupLevel: number | null;
}

/** What members belong to: a project (in its namespace) or a group. */
export type MemberSource = { kind: 'project'; project: ProjectEntity; namespace: NamespaceEntity } | { kind: 'group'; group: NamespaceEntity };

export interface MemberListFilter {
  /** Name or username contains. */
  query?: string;
  userIds?: number[];
  skipUsers?: number[];
}

/** The `members` row key of a source: (`project`, id) or (`namespace`, id). */
export function sourceKey(source: MemberSource): { sourceType: 'project' | 'namespace'; sourceId: number } {
  return source.kind === 'project' ? { sourceType: 'project', sourceId: source.project.id } : { sourceType: 'namespace', sourceId: source.group.id };
}

/** Ids of the groups a source inherits members from (its ancestors; the group itself excluded). */
export function ancestorGroupIds(source: MemberSource): number[] {
  if (source.kind === 'group') return source.group.traversalIds.filter((id) => id !== source.group.id);
  return source.namespace.kind === 'group' ? source.namespace.traversalIds : [];
}

@Injectable()
export class MembersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A user's highest active membership level in a project itself and in its group's ancestry (null: none). */
  async projectMemberLevels(
    userId: number,
    projectId: number,
    groupTraversalIds: number[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<MemberLevels> {
    const [row] = (await manager.query(
      `SELECT
         (SELECT max(m.access_level) FROM members m WHERE m.user_id = $1 AND m.source_type = 'project' AND m.source_id = $2 AND ${activeMembershipSql('m')}) AS project_level,
         (SELECT max(m.access_level) FROM members m WHERE m.user_id = $1 AND m.source_type = 'namespace' AND m.source_id = ANY($3) AND ${activeMembershipSql('m')}) AS group_level`,
      [userId, projectId, groupTraversalIds],
    )) as Array<{ project_level: number | null; group_level: number | null }>;
    return { projectLevel: row?.project_level ?? null, groupLevel: row?.group_level ?? null };
  }

  /**
   * For many projects at once: the user's own levels in each project and its group's ancestry,
   * and the Owner level of a personal namespace's owner (0 otherwise), keyed by project id.
   */
  async projectMemberLevelsMany(
    userId: number,
    projectIds: number[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<number, MemberLevels & { ownerLevel: number }>> {
    const rows = (await manager.query(
      `SELECT p.id,
         (SELECT max(m.access_level) FROM members m WHERE m.user_id = $1 AND m.source_type = 'project' AND m.source_id = p.id AND ${activeMembershipSql('m')}) AS project_level,
         CASE WHEN n.kind = 'group' THEN (SELECT max(m.access_level) FROM members m WHERE m.user_id = $1 AND m.source_type = 'namespace'
           AND m.source_id = ANY(n.traversal_ids) AND ${activeMembershipSql('m')}) END AS group_level,
         CASE WHEN n.kind = 'user' AND n.owner_id = $1 THEN 50 ELSE 0 END AS owner_level
       FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE p.id = ANY($2)`,
      [userId, projectIds],
    )) as Array<{ id: number; project_level: number | null; group_level: number | null; owner_level: number }>;
    return new Map(rows.map((row) => [row.id, { projectLevel: row.project_level ?? null, groupLevel: row.group_level ?? null, ownerLevel: row.owner_level }]));
  }

  /** A user's highest active membership level in any of the groups (a group's ancestry), or null. */
  async highestGroupLevel(userId: number, groupIds: number[], manager: EntityManager = this.dataSource.manager): Promise<number | null> {
    const [row] = (await manager.query(
      `SELECT max(m.access_level) AS level FROM members m
       WHERE m.user_id = $1 AND m.source_type = 'namespace' AND m.source_id = ANY($2) AND ${activeMembershipSql('m')}`,
      [userId, groupIds],
    )) as { level: number | null }[];
    return row?.level ?? null;
  }

  /** Whether the user is a member of a subgroup of, or a project in, the group. */
  async hasDescendantAccess(groupId: number, userId: number, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const rows = (await manager.query(`SELECT 1 FROM namespaces g WHERE g.id = $1 AND ${groupDescendantAccessSql('g', '$2')}`, [groupId, userId])) as unknown[];
    return rows.length > 0;
  }

  /** Full paths of the groups whose only owner (direct membership, Owner level) is this user. */
  async groupsSolelyOwnedBy(userId: number, manager: EntityManager = this.dataSource.manager): Promise<string[]> {
    const rows: Array<{ full_path: string }> = await manager.query(
      `SELECT n.full_path FROM members m JOIN namespaces n ON n.id = m.source_id
        WHERE m.source_type = 'namespace' AND m.user_id = $1 AND m.access_level >= 50
          AND NOT EXISTS (SELECT 1 FROM members o WHERE o.source_type = 'namespace' AND o.source_id = m.source_id
                           AND o.user_id <> $1 AND o.access_level >= 50)`,
      [userId],
    );
    return rows.map((r) => r.full_path);
  }

  /** Active direct memberships of the source. */
  directQuery(source: MemberSource, filter: MemberListFilter = {}, manager: EntityManager = this.dataSource.manager): SelectQueryBuilder<MemberEntity> {
    const { sourceType, sourceId } = sourceKey(source);
    const qb = manager
      .getRepository(MemberEntity)
      .createQueryBuilder('m')
      .where('m.source_type = :sourceType AND m.source_id = :sourceId', { sourceType, sourceId })
      .andWhere(activeMembershipSql('m'));
    return this.filtered(qb, filter).orderBy('m.id', 'ASC');
  }

  /** Active memberships, direct and inherited from ancestor groups, the highest one per user. */
  allQuery(source: MemberSource, filter: MemberListFilter = {}, manager: EntityManager = this.dataSource.manager): SelectQueryBuilder<MemberEntity> {
    const { sourceType, sourceId } = sourceKey(source);
    const qb = manager
      .getRepository(MemberEntity)
      .createQueryBuilder('m')
      .where(
        `m.id IN (SELECT DISTINCT ON (am.user_id) am.id FROM members am
          WHERE ${activeMembershipSql('am')}
            AND ((am.source_type = :sourceType AND am.source_id = :sourceId) OR (am.source_type = 'namespace' AND am.source_id = ANY(:ancestors)))
          ORDER BY am.user_id, am.access_level DESC, (am.source_type = :sourceType AND am.source_id = :sourceId) DESC, am.id)`,
        { sourceType, sourceId, ancestors: ancestorGroupIds(source) },
      );
    return this.filtered(qb, filter).orderBy('m.id', 'ASC');
  }

  /** The user's active direct membership, or null. */
  findDirect(source: MemberSource, userId: number, manager: EntityManager = this.dataSource.manager): Promise<MemberEntity | null> {
    return this.directQuery(source, {}, manager).andWhere('m.user_id = :userId', { userId }).getOne();
  }

  /** The user's highest active membership, direct or inherited, or null. */
  findEffective(source: MemberSource, userId: number, manager: EntityManager = this.dataSource.manager): Promise<MemberEntity | null> {
    return this.allQuery(source, {}, manager).andWhere('m.user_id = :userId', { userId }).getOne();
  }

  /** The user's highest active membership in an ancestor group of the source, or null. */
  async findInherited(
    source: MemberSource,
    userId: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<(MemberEntity & { groupName: string }) | null> {
    const ancestors = ancestorGroupIds(source);
    if (ancestors.length === 0) return null;
    const member = await manager
      .getRepository(MemberEntity)
      .createQueryBuilder('m')
      .where("m.source_type = 'namespace' AND m.source_id = ANY(:ancestors) AND m.user_id = :userId", { ancestors, userId })
      .andWhere(activeMembershipSql('m'))
      .orderBy('m.access_level', 'DESC')
      .addOrderBy('m.id', 'ASC')
      .getOne();
    if (!member) return null;
    const group = await manager.findOneByOrFail(NamespaceEntity, { id: member.sourceId });
    return Object.assign(member, { groupName: group.name });
  }

  /** Distinct owners of a group (direct and inherited), excluding one user. */
  async countOtherOwners(group: NamespaceEntity, exceptUserId: number, manager: EntityManager = this.dataSource.manager): Promise<number> {
    const [row] = await manager.query(
      `SELECT count(DISTINCT m.user_id)::int AS n FROM members m
       WHERE m.source_type = 'namespace' AND m.source_id = ANY($1) AND m.access_level >= 50 AND m.user_id <> $2 AND ${activeMembershipSql('m')}`,
      [group.traversalIds, exceptUserId],
    );
    return (row as { n: number }).n;
  }

  /** Users by id (members, `created_by`), as a map. */
  async usersByIds(ids: Iterable<number | null>, manager: EntityManager = this.dataSource.manager): Promise<Map<number, UserEntity>> {
    const unique = [...new Set([...ids].filter((id): id is number => id !== null))];
    if (unique.length === 0) return new Map();
    const users = await manager.find(UserEntity, { where: { id: In(unique) } });
    return new Map(users.map((u) => [u.id, u]));
  }

  private filtered(qb: SelectQueryBuilder<MemberEntity>, filter: MemberListFilter): SelectQueryBuilder<MemberEntity> {
    if (filter.query) {
      qb.andWhere('EXISTS (SELECT 1 FROM users mu WHERE mu.id = m.user_id AND (mu.username ILIKE :mq OR mu.name ILIKE :mq))', {
        mq: likePattern(filter.query),
      });
    }
    if (filter.userIds?.length) qb.andWhere('m.user_id = ANY(:userIds)', { userIds: filter.userIds });
    if (filter.skipUsers?.length) qb.andWhere('NOT (m.user_id = ANY(:skipUsers))', { skipUsers: filter.skipUsers });
    return qb;
  }

  /** Stores a project membership read from a project export, in the import's transaction. */
  insertImported(
    tx: EntityManager,
    member: Pick<MemberEntity, 'sourceType' | 'sourceId' | 'userId' | 'accessLevel' | 'createdById' | 'expiresAt'>,
  ): Promise<MemberEntity> {
    return tx.save(tx.create(MemberEntity, member));
  }

  /** Removes every membership of a project replaced by an import, in the import's transaction. */
  async removeAllOfImportReplaced(tx: EntityManager, projectId: number): Promise<void> {
    await tx.delete(MemberEntity, { sourceType: 'project', sourceId: projectId });
  }
}
