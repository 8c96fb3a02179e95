import { Injectable } from '@nestjs/common';
import { UserEntity } from '@app/identity';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { activeMembershipSql } from '../access/access-sql';
import { MemberEntity } from '../entities/member.entity';
import { NamespaceEntity } from '../entities/namespace.entity';
import { ProjectEntity } from '../entities/project.entity';
import { likePattern } from '../naming';

/** What members belong to: a project (in its namespace) or a group. */
export type MemberSource =
  | { kind: 'project'; project: ProjectEntity; namespace: NamespaceEntity }
  | { kind: 'group'; group: NamespaceEntity };

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
  async findInherited(source: MemberSource, userId: number, manager: EntityManager = this.dataSource.manager): Promise<(MemberEntity & { groupName: string }) | null> {
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
      qb.andWhere('EXISTS (SELECT 1 FROM users mu WHERE mu.id = m.user_id AND (mu.username ILIKE :mq OR mu.name ILIKE :mq))', { mq: likePattern(filter.query) });
    }
    if (filter.userIds?.length) qb.andWhere('m.user_id = ANY(:userIds)', { userIds: filter.userIds });
    if (filter.skipUsers?.length) qb.andWhere('NOT (m.user_id = ANY(:skipUsers))', { skipUsers: filter.skipUsers });
    return qb;
  }

  /** Stores a project membership read from a project export, in the import's transaction. */
  insertImported(tx: EntityManager, member: Pick<MemberEntity, 'sourceType' | 'sourceId' | 'userId' | 'accessLevel' | 'createdById' | 'expiresAt'>): Promise<MemberEntity> {
    return tx.save(tx.create(MemberEntity, member));
  }
}
