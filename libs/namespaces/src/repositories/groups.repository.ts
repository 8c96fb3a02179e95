import type { KeysetListing } from '@app/api';
import { Injectable } from '@nestjs/common';
import { DataSource, DeepPartial, EntityManager, SelectQueryBuilder } from 'typeorm';
import { AccessUser } from '../access/access-policy';
import { activeMembershipSql, groupAccessLevelSql, groupRelatedSql, groupVisibilitySql } from '../access/access-sql';
import { NamespaceEntity, Visibility } from '../entities/namespace.entity';
import { likePattern } from '../naming/naming';
import { parseResourceRef } from '../naming/resource-ref';

export const GROUP_ORDER_COLUMNS = ['name', 'path', 'id', 'similarity'] as const;
export type GroupOrderBy = (typeof GROUP_ORDER_COLUMNS)[number];

/** Filters of the group lists (`GET /groups`, `GET /groups/:id/subgroups`). */
export interface GroupListFilter {
  search?: string;
  owned?: boolean;
  minAccessLevel?: number;
  /**
   * Every visible group (public, internal, and the viewer's). Without it a signed-in viewer
   * sees only the groups related to their memberships (GitLab's default for non-admins).
   */
  allAvailable?: boolean;
  topLevelOnly?: boolean;
  parentId?: number;
  skipGroups?: number[];
  visibility?: Visibility;
  orderBy?: GroupOrderBy;
  sort?: 'asc' | 'desc';
}

/** Groups are paged by keyset by name, ascending only (GitLab's single supported order). */
export const GROUP_KEYSET: KeysetListing<NamespaceEntity> = {
  keyset: { allowedOrderBy: ['name'], defaultOrderBy: 'name', allowedSort: ['asc'] },
  columns: { idExpression: 'g.id', id: (group) => group.id, orderExpressions: { name: 'g.name' }, orderValues: { name: (group) => group.name } },
};

const ORDER_PROPERTY: Record<Exclude<GroupOrderBy, 'similarity'>, string> = { name: 'g.name', path: 'g.path', id: 'g.id' };

@Injectable()
export class GroupsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A group (not a personal namespace) by numeric id or case-insensitive full path. */
  async findByRef(raw: string | number, manager: EntityManager = this.dataSource.manager): Promise<NamespaceEntity | null> {
    const namespace = await this.findNamespaceByRef(raw, manager);
    return namespace?.kind === 'group' ? namespace : null;
  }

  /** A group or a personal namespace by numeric id or case-insensitive full path. */
  async findNamespaceByRef(raw: string | number, manager: EntityManager = this.dataSource.manager): Promise<NamespaceEntity | null> {
    const ref = parseResourceRef(raw);
    if (!ref) return null;
    const qb = manager.getRepository(NamespaceEntity).createQueryBuilder('g');
    if ('id' in ref) qb.where('g.id = :id', { id: ref.id });
    else qb.where('lower(g.full_path) = lower(:path)', { path: ref.fullPath });
    return qb.getOne();
  }

  findById(id: number, manager: EntityManager = this.dataSource.manager, options: { lock?: boolean } = {}): Promise<NamespaceEntity | null> {
    return manager.findOne(NamespaceEntity, { where: { id, kind: 'group' }, lock: options.lock ? { mode: 'pessimistic_write' } : undefined });
  }

  /** The personal namespace of a user. */
  personalNamespace(userId: number, manager: EntityManager = this.dataSource.manager): Promise<NamespaceEntity | null> {
    return manager.findOne(NamespaceEntity, { where: { kind: 'user', ownerId: userId } });
  }

  /** The group's subgroups at every depth, deepest first. */
  descendants(group: NamespaceEntity, manager: EntityManager = this.dataSource.manager): Promise<NamespaceEntity[]> {
    return manager
      .getRepository(NamespaceEntity)
      .createQueryBuilder('g')
      .where(':id = ANY(g.traversal_ids) AND g.id <> :id', { id: group.id })
      .orderBy('cardinality(g.traversal_ids)', 'DESC')
      .addOrderBy('g.id', 'DESC')
      .getMany();
  }

  /** Visibilities of the direct subgroups and of the projects anywhere below the group. */
  async childVisibilities(
    group: NamespaceEntity,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ subgroups: Visibility[]; projects: Visibility[] }> {
    const subgroups = (await manager.query('SELECT DISTINCT visibility FROM namespaces WHERE parent_id = $1', [group.id])) as { visibility: Visibility }[];
    const projects = (await manager.query('SELECT DISTINCT p.visibility FROM projects p WHERE p.namespace_id = $1', [group.id])) as {
      visibility: Visibility;
    }[];
    return { subgroups: subgroups.map((r) => r.visibility), projects: projects.map((r) => r.visibility) };
  }

  /** `full_path` (case-insensitive) is taken by a namespace, or by a project when `parent` is given. */
  async pathTaken(
    fullPath: string,
    parent: NamespaceEntity | null,
    excludeId: number | null,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const params: unknown[] = [fullPath, excludeId ?? 0];
    let sql = 'SELECT 1 FROM namespaces WHERE lower(full_path) = lower($1) AND id <> $2';
    if (parent) {
      params.push(parent.id, fullPath.slice(parent.fullPath.length + 1));
      sql += ' UNION ALL SELECT 1 FROM projects WHERE namespace_id = $3 AND lower(path) = lower($4)';
    }
    const rows = await manager.query(`${sql} LIMIT 1`, params);
    return rows.length > 0;
  }

  /**
   * Carries a group's new full path and full name (`old` → `now`) into the full path and full
   * name of every subgroup below it.
   */
  async renameDescendants(
    tx: EntityManager,
    groupId: number,
    old: { fullPath: string; fullName: string },
    now: { fullPath: string; fullName: string },
  ): Promise<void> {
    await tx.query(
      `UPDATE namespaces SET full_path = $2 || substr(full_path, length($3) + 1), full_name = $4 || substr(full_name, length($5) + 1), updated_at = now()
       WHERE $1 = ANY(traversal_ids) AND id <> $1`,
      [groupId, now.fullPath, old.fullPath, now.fullName, old.fullName],
    );
  }

  /** A sibling group (same parent) already has this name. */
  async nameTaken(name: string, parentId: number | null, excludeId: number | null, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const rows = await manager.query(
      `SELECT 1 FROM namespaces WHERE kind = 'group' AND parent_id IS NOT DISTINCT FROM $1 AND lower(name) = lower($2) AND id <> $3 LIMIT 1`,
      [parentId, name, excludeId ?? 0],
    );
    return rows.length > 0;
  }

  /** The filtered, ordered list of groups `viewer` may list. */
  listQuery(filter: GroupListFilter, viewer: AccessUser | null, manager: EntityManager = this.dataSource.manager): SelectQueryBuilder<NamespaceEntity> {
    const qb = manager.getRepository(NamespaceEntity).createQueryBuilder('g').where("g.kind = 'group'");
    qb.setParameter('uid', viewer?.id ?? 0);
    const level = groupAccessLevelSql('g', ':uid');
    if (filter.owned) {
      qb.andWhere(
        viewer
          ? `EXISTS (SELECT 1 FROM members om WHERE om.source_type = 'namespace' AND om.source_id = g.id AND om.user_id = :uid AND om.access_level >= 50 AND ${activeMembershipSql('om')})`
          : 'false',
      );
    } else if (filter.minAccessLevel !== undefined) {
      qb.andWhere(viewer ? `${level} >= :minLevel` : 'false', { minLevel: filter.minAccessLevel });
    } else if (viewer && !viewer.isAdmin && !filter.allAvailable) {
      qb.andWhere(groupRelatedSql('g', ':uid'));
    }
    const visible = groupVisibilitySql('g', viewer, ':uid');
    if (visible) qb.andWhere(visible);
    if (filter.search) qb.andWhere('(g.name ILIKE :q OR g.path ILIKE :q)', { q: likePattern(filter.search) });
    if (filter.topLevelOnly) qb.andWhere('g.parent_id IS NULL');
    if (filter.parentId !== undefined) qb.andWhere('g.parent_id = :parentId', { parentId: filter.parentId });
    if (filter.skipGroups?.length) qb.andWhere('NOT (g.id = ANY(:skip))', { skip: filter.skipGroups });
    if (filter.visibility) qb.andWhere('g.visibility = :visibility', { visibility: filter.visibility });
    const sort = (filter.sort ?? 'asc').toUpperCase() as 'ASC' | 'DESC';
    const orderBy = filter.orderBy ?? 'name';
    if (orderBy === 'similarity' && filter.search) {
      qb.addSelect('CASE WHEN lower(g.path) = lower(:exact) OR lower(g.name) = lower(:exact) THEN 0 ELSE 1 END', 'g_similarity')
        .setParameter('exact', filter.search)
        .orderBy('g_similarity', 'ASC')
        .addOrderBy('g.name', sort);
    } else {
      qb.orderBy(ORDER_PROPERTY[orderBy === 'similarity' ? 'name' : orderBy], sort);
    }
    if (orderBy !== 'id') qb.addOrderBy('g.id', sort);
    return qb;
  }

  // --- statements of the use cases, in their transaction --------------------

  /** A namespace by id (it must exist). */
  getByIdIn(tx: EntityManager, id: number): Promise<NamespaceEntity> {
    return tx.findOneByOrFail(NamespaceEntity, { id });
  }

  /** Stores a new namespace (built with `tx.create`) or a loaded one's changes; the saved entity. */
  save(tx: EntityManager, namespace: NamespaceEntity): Promise<NamespaceEntity> {
    return tx.save(namespace);
  }

  /** Stores a new namespace from its fields; the saved entity. */
  add(tx: EntityManager, fields: DeepPartial<NamespaceEntity>): Promise<NamespaceEntity> {
    return tx.save(tx.create(NamespaceEntity, fields));
  }

  async setTraversalIds(tx: EntityManager, id: number, traversalIds: number[]): Promise<void> {
    await tx.update(NamespaceEntity, id, { traversalIds });
  }

  async delete(tx: EntityManager, id: number): Promise<void> {
    await tx.delete(NamespaceEntity, { id });
  }
}
