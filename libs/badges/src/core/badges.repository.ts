import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { BadgeEntity } from '../entities/badge.entity';

/** Whose badges: a project (its own and those of its group and the group's ancestors) or a group (its own). */
export type BadgeSource = { kind: 'project'; projectId: number; ancestorGroupIds: number[] } | { kind: 'group'; groupId: number };

@Injectable()
export class BadgesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The badges visible on a source, oldest first (GitLab's order), optionally with exactly this name. */
  query(source: BadgeSource, name?: string, manager: EntityManager = this.dataSource.manager): SelectQueryBuilder<BadgeEntity> {
    const qb = manager.getRepository(BadgeEntity).createQueryBuilder('b');
    if (source.kind === 'group') {
      qb.where('b.group_id = :groupId', { groupId: source.groupId });
    } else if (source.ancestorGroupIds.length > 0) {
      qb.where('(b.project_id = :projectId OR b.group_id IN (:...groupIds))', { projectId: source.projectId, groupIds: source.ancestorGroupIds });
    } else {
      qb.where('b.project_id = :projectId', { projectId: source.projectId });
    }
    if (name !== undefined) qb.andWhere('b.name = :name', { name });
    return qb.orderBy('b.created_at', 'ASC').addOrderBy('b.id', 'ASC');
  }

  async find(source: BadgeSource, id: number, manager?: EntityManager): Promise<BadgeEntity | null> {
    return this.query(source, undefined, manager).andWhere('b.id = :id', { id }).getOne();
  }

  async save(manager: EntityManager, badge: BadgeEntity): Promise<BadgeEntity> {
    return manager.getRepository(BadgeEntity).save(badge);
  }

  async delete(manager: EntityManager, id: number): Promise<boolean> {
    const result = await manager.getRepository(BadgeEntity).delete({ id });
    return (result.affected ?? 0) > 0;
  }

  /** Stores badges read from a project export in one statement, in the import's transaction. */
  async insertImported(tx: EntityManager, badges: QueryDeepPartialEntity<BadgeEntity>[]): Promise<void> {
    await tx.insert(BadgeEntity, badges);
  }
}
