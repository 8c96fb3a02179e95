import { Injectable } from '@nestjs/common';
import type { ValidationMessages } from '@app/api';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { AccessUser } from '../access/access-policy';
import { activeMembershipSql, projectAccessLevelSql, projectVisibilitySql } from '../access/access-sql';
import { NamespaceEntity, Visibility } from '../entities/namespace.entity';
import { ProjectEntity } from '../entities/project.entity';
import { ProjectStatisticsEntity } from '../entities/project-statistics.entity';
import { NAMING_MESSAGES, likePattern } from '../naming/naming';
import { PersonRef, ProjectHookContext } from '../events/namespaces.events';
import { parseResourceRef, splitProjectPath } from '../naming/resource-ref';

export type ProjectWithNamespace = ProjectEntity & { namespace: NamespaceEntity };

/** `order_by` values of the project lists. */
export const PROJECT_ORDER_COLUMNS = [
  'id',
  'name',
  'path',
  'created_at',
  'updated_at',
  'last_activity_at',
  'similarity',
  'star_count',
  'repository_size',
  'storage_size',
  'packages_size',
  'wiki_size',
] as const;
export type ProjectOrderBy = (typeof PROJECT_ORDER_COLUMNS)[number];

/** Orders by a `project_statistics` size: administrators only (others get the default order, as in GitLab). */
export const STATISTICS_ORDERS: readonly ProjectOrderBy[] = ['repository_size', 'storage_size', 'packages_size', 'wiki_size'];

/** Orders of `GET /users/:user_id/projects`, all usable with keyset pagination. */
export const USER_PROJECT_ORDER_COLUMNS = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'] as const;

export const DEFAULT_PROJECT_ORDER: ProjectOrderBy = 'created_at';

/** Filters of the project lists (`GET /projects`, `GET /groups/:id/projects`, `GET /users/:id/projects`); pagination is applied by the caller. */
export interface ProjectListFilter {
  search?: string;
  searchNamespaces?: boolean;
  owned?: boolean;
  membership?: boolean;
  minAccessLevel?: number;
  visibility?: Visibility;
  archived?: boolean;
  topics?: string[];
  topicId?: number;
  withIssuesEnabled?: boolean;
  withMergeRequestsEnabled?: boolean;
  withProgrammingLanguage?: string;
  idAfter?: number;
  idBefore?: number;
  lastActivityAfter?: string;
  lastActivityBefore?: string;
  /** Only projects the viewer starred. */
  starred?: boolean;
  /** Only projects the viewer imported from an external system. */
  imported?: boolean;
  /** `repository_checksum_failed` / `wiki_checksum_failed` (checksums never fail here: true gives nothing). */
  checksumFailed?: boolean;
  /** Administrators only (ignored for others by the caller). */
  repositoryStorage?: string;
  /** Only projects directly in these namespaces. */
  namespaceIds?: number[];
  /** Only projects in this namespace or its subgroups. */
  withinNamespaceId?: number;
  /** Only projects starred by this user. */
  starredBy?: number;
  orderBy?: ProjectOrderBy;
  sort?: 'asc' | 'desc';
}

const ORDER_PROPERTY: Partial<Record<ProjectOrderBy, string>> = {
  id: 'p.id',
  name: 'p.name',
  path: 'p.path',
  created_at: 'p.createdAt',
  updated_at: 'p.updatedAt',
  last_activity_at: 'p.lastActivityAt',
  star_count: 'p.starCount',
};

/** Keyset columns of the project lists (timestamps are stored with millisecond precision, so ISO cursors are exact). */
export const PROJECT_KEYSET_ORDER_EXPRESSIONS: Record<string, string> = {
  name: 'p.name',
  path: 'p.path',
  created_at: 'p.createdAt',
  updated_at: 'p.updatedAt',
  last_activity_at: 'p.lastActivityAt',
};

export const PROJECT_KEYSET_ORDER_VALUES: Record<string, (p: ProjectEntity) => string | number | Date> = {
  name: (p) => p.name,
  path: (p) => p.path,
  created_at: (p) => p.createdAt,
  updated_at: (p) => p.updatedAt,
  last_activity_at: (p) => p.lastActivityAt,
};

/**
 * The order actually applied: size orders need an administrator, `similarity` needs a search
 * term and a signed-in caller; otherwise the default order (`created_at`) is used, as GitLab does.
 */
export function effectiveProjectOrder(orderBy: ProjectOrderBy | undefined, search: string | undefined, viewer: AccessUser | null): ProjectOrderBy {
  const order = orderBy ?? DEFAULT_PROJECT_ORDER;
  if (STATISTICS_ORDERS.includes(order) && !viewer?.isAdmin) return DEFAULT_PROJECT_ORDER;
  if (order === 'similarity' && (!search || !viewer)) return DEFAULT_PROJECT_ORDER;
  return order;
}

/**
 * Similarity of a project to the search term: trigram similarity (pg_trgm) of the path
 * (weight 1), the name (0.7) and the description (0.2), plus 1 for an exact path or name.
 */
const SIMILARITY_SQL =
  '(CASE WHEN lower(p.path) = lower(:similarTo) OR lower(p.name) = lower(:similarTo) THEN 1 ELSE 0 END' +
  " + similarity(p.path, :similarTo) + 0.7 * similarity(p.name, :similarTo) + 0.2 * similarity(COALESCE(p.description, ''), :similarTo))";

@Injectable()
export class ProjectsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The sealed runners token of a project (null when none was kept). */
  async encryptedRunnersToken(projectId: number): Promise<string | null> {
    const [row] = (await this.dataSource.query('SELECT encrypted_runners_token FROM projects WHERE id = $1', [projectId])) as Array<{
      encrypted_runners_token: string | null;
    }>;
    return row?.encrypted_runners_token ?? null;
  }

  /** By numeric id or case-insensitive `namespace/path`, with its namespace. */
  async findByRef(raw: string | number, manager: EntityManager = this.dataSource.manager): Promise<ProjectWithNamespace | null> {
    const ref = parseResourceRef(raw);
    if (!ref) return null;
    const qb = manager.getRepository(ProjectEntity).createQueryBuilder('p').innerJoinAndSelect('p.namespace', 'n');
    if ('id' in ref) qb.where('p.id = :id', { id: ref.id });
    else {
      const split = splitProjectPath(ref.fullPath);
      if (!split) return null;
      qb.where('lower(n.full_path) = lower(:ns) AND lower(p.path) = lower(:path)', { ns: split.namespacePath, path: split.path });
    }
    return (await qb.getOne()) as ProjectWithNamespace | null;
  }

  async findById(id: number, manager: EntityManager = this.dataSource.manager, options: { lock?: boolean } = {}): Promise<ProjectWithNamespace | null> {
    const project = await manager.findOne(ProjectEntity, { where: { id }, lock: options.lock ? { mode: 'pessimistic_write' } : undefined });
    if (!project) return null;
    project.namespace = await manager.findOneByOrFail(NamespaceEntity, { id: project.namespaceId });
    return project as ProjectWithNamespace;
  }

  /** The filtered, ordered list of projects `viewer` can see. */
  listQuery(filter: ProjectListFilter, viewer: AccessUser | null, manager: EntityManager = this.dataSource.manager): SelectQueryBuilder<ProjectEntity> {
    const qb = manager.getRepository(ProjectEntity).createQueryBuilder('p').innerJoinAndSelect('p.namespace', 'n');
    qb.setParameter('uid', viewer?.id ?? 0);
    const visible = projectVisibilitySql('p', 'n', viewer, ':uid');
    if (visible) qb.andWhere(visible);
    const level = projectAccessLevelSql('p', 'n', ':uid');
    const orderBy = effectiveProjectOrder(filter.orderBy, filter.search, viewer);
    // `similarity` ranks the caller's own projects (GitLab: "only for the user's projects").
    const membership = filter.membership || orderBy === 'similarity';
    if (filter.owned) qb.andWhere(viewer ? `${level} >= 50` : 'false');
    if (membership) qb.andWhere(viewer ? `${level} > 0` : 'false');
    if (filter.minAccessLevel !== undefined) qb.andWhere(viewer ? `${level} >= :minLevel` : 'false', { minLevel: filter.minAccessLevel });
    if (filter.starred) qb.andWhere(viewer ? 'EXISTS (SELECT 1 FROM project_stars ms WHERE ms.project_id = p.id AND ms.user_id = :uid)' : 'false');
    if (filter.starredBy !== undefined) {
      qb.andWhere('EXISTS (SELECT 1 FROM project_stars us WHERE us.project_id = p.id AND us.user_id = :starredBy)', { starredBy: filter.starredBy });
    }
    // Nothing is imported from external systems and checksums never fail: these filters only narrow to nothing.
    if (filter.imported) qb.andWhere('false');
    if (filter.checksumFailed) qb.andWhere('false');
    if (filter.search) {
      const namespaces = filter.searchNamespaces ? ' OR n.full_path ILIKE :q OR n.full_name ILIKE :q' : '';
      qb.andWhere(`(p.name ILIKE :q OR p.path ILIKE :q OR p.description ILIKE :q${namespaces})`, { q: likePattern(filter.search) });
    }
    if (filter.visibility) qb.andWhere('p.visibility = :visibility', { visibility: filter.visibility });
    if (filter.archived !== undefined) qb.andWhere('p.archived = :archived', { archived: filter.archived });
    if (filter.topics?.length) {
      qb.andWhere('(SELECT array_agg(lower(t)) FROM unnest(p.topics) t) @> CAST(:topics AS text[])', { topics: filter.topics.map((t) => t.toLowerCase()) });
    }
    if (filter.topicId !== undefined) {
      qb.andWhere('EXISTS (SELECT 1 FROM topics tp WHERE tp.id = :topicId AND lower(tp.name) IN (SELECT lower(t) FROM unnest(p.topics) t))', {
        topicId: filter.topicId,
      });
    }
    if (filter.withProgrammingLanguage !== undefined) {
      qb.andWhere(
        this.languagesAvailable
          ? 'EXISTS (SELECT 1 FROM project_languages pl, jsonb_object_keys(pl.languages) lk WHERE pl.project_id = p.id AND lower(lk) = lower(:language))'
          : 'false',
        { language: filter.withProgrammingLanguage },
      );
    }
    if (filter.repositoryStorage !== undefined) {
      qb.andWhere("COALESCE(p.settings->>'repository_storage', 'default') = :storage", { storage: filter.repositoryStorage });
    }
    if (filter.withIssuesEnabled) qb.andWhere('p.issues_enabled = true');
    if (filter.withMergeRequestsEnabled) qb.andWhere('p.merge_requests_enabled = true');
    if (filter.idAfter !== undefined) qb.andWhere('p.id > :idAfter', { idAfter: filter.idAfter });
    if (filter.idBefore !== undefined) qb.andWhere('p.id < :idBefore', { idBefore: filter.idBefore });
    if (filter.lastActivityAfter) qb.andWhere('p.last_activity_at > :activityAfter', { activityAfter: filter.lastActivityAfter });
    if (filter.lastActivityBefore) qb.andWhere('p.last_activity_at < :activityBefore', { activityBefore: filter.lastActivityBefore });
    if (filter.namespaceIds) qb.andWhere('p.namespace_id = ANY(:namespaceIds)', { namespaceIds: filter.namespaceIds });
    if (filter.withinNamespaceId !== undefined) qb.andWhere(':within = ANY(n.traversal_ids)', { within: filter.withinNamespaceId });

    const sort = (filter.sort ?? 'desc').toUpperCase() as 'ASC' | 'DESC';
    if (orderBy === 'similarity') {
      // Most similar first whatever `sort` says (GitLab's `similarity` is always descending).
      qb.addSelect(SIMILARITY_SQL, 'p_order_value').setParameter('similarTo', filter.search);
      qb.orderBy('p_order_value', 'DESC').addOrderBy('p.id', 'DESC');
    } else if (STATISTICS_ORDERS.includes(orderBy)) {
      qb.leftJoin(ProjectStatisticsEntity, 'ps', 'ps.project_id = p.id');
      qb.addSelect(`COALESCE(ps.${orderBy}, 0)`, 'p_order_value');
      qb.orderBy('p_order_value', sort).addOrderBy('p.id', sort);
    } else {
      qb.orderBy(ORDER_PROPERTY[orderBy]!, sort);
      if (orderBy !== 'id') qb.addOrderBy('p.id', sort);
    }
    return qb;
  }

  /** Whether `project_languages` (filled by the repository library) exists; once seen, it stays. */
  private languagesAvailable = false;

  /** To call before `listQuery` with `withProgrammingLanguage` (a database without the table matches nothing). */
  async checkLanguagesAvailable(): Promise<boolean> {
    if (this.languagesAvailable) return true;
    const [row] = (await this.dataSource.query(`SELECT to_regclass('project_languages') IS NOT NULL AS present`)) as { present: boolean }[];
    this.languagesAvailable = Boolean(row?.present);
    return this.languagesAvailable;
  }

  /** `name`/`path` already taken in the namespace (a subgroup with the same path counts too). */
  async namingConflicts(
    namespace: NamespaceEntity,
    naming: { name?: string; path?: string },
    excludeProjectId: number | null,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ValidationMessages> {
    const messages: ValidationMessages = {};
    const exclude = excludeProjectId ?? 0;
    if (naming.name !== undefined) {
      const [row] = await manager.query('SELECT 1 FROM projects WHERE namespace_id = $1 AND lower(name) = lower($2) AND id <> $3 LIMIT 1', [
        namespace.id,
        naming.name,
        exclude,
      ]);
      if (row) messages.name = [NAMING_MESSAGES.taken];
    }
    if (naming.path !== undefined) {
      const [row] = await manager.query(
        `SELECT 1 FROM projects WHERE namespace_id = $1 AND lower(path) = lower($2) AND id <> $3
         UNION ALL SELECT 1 FROM namespaces WHERE lower(full_path) = lower($4) LIMIT 1`,
        [namespace.id, naming.path, exclude, `${namespace.fullPath}/${naming.path}`],
      );
      if (row) messages.path = [NAMING_MESSAGES.taken];
    }
    return messages;
  }

  /** Number of projects in a personal namespace (projects limit). */
  countInNamespace(namespaceId: number, manager: EntityManager = this.dataSource.manager): Promise<number> {
    return manager.count(ProjectEntity, { where: { namespaceId } });
  }

  /** Owner and owners of a project, as GitLab's project system hooks report them. */
  async hookContext(project: ProjectEntity, namespace: NamespaceEntity, manager: EntityManager = this.dataSource.manager): Promise<ProjectHookContext> {
    if (namespace.kind === 'user') {
      const [user] = (await manager.query('SELECT name, email FROM users WHERE id = $1', [namespace.ownerId])) as PersonRef[];
      const owner = user ?? { name: namespace.fullName, email: '' };
      return { project, namespace, owner, owners: [owner] };
    }
    const owners = (await manager.query(
      `SELECT DISTINCT u.id, u.name, u.email FROM members m JOIN users u ON u.id = m.user_id
       WHERE m.source_type = 'namespace' AND m.source_id = ANY($1) AND m.access_level >= 50 AND ${activeMembershipSql('m')}
       ORDER BY u.id`,
      [namespace.traversalIds],
    )) as PersonRef[];
    return { project, namespace, owner: { name: namespace.name, email: '' }, owners: owners.map((o) => ({ name: o.name, email: o.email })) };
  }

  /** Sets attributes of a project being imported (from its archive), in the import's transaction. */
  async updateImported(
    tx: EntityManager,
    projectId: number,
    changes: Partial<
      Pick<ProjectEntity, 'description' | 'visibility' | 'archived' | 'mergeMethod' | 'topics' | 'issuesEnabled' | 'mergeRequestsEnabled' | 'openIssuesCount'>
    >,
  ): Promise<void> {
    await tx.update(ProjectEntity, { id: projectId }, changes);
  }

  // --- statements of the use cases, in their transaction --------------------

  /** Stores a new project (built with `tx.create`); the saved entity. */
  insert(tx: EntityManager, project: ProjectEntity): Promise<ProjectEntity> {
    return tx.save(project);
  }

  /** Saves a loaded project's changes. */
  async save(tx: EntityManager, project: ProjectEntity): Promise<void> {
    await tx.save(ProjectEntity, project);
  }

  async setArchived(tx: EntityManager, projectId: number, archived: boolean): Promise<void> {
    await tx.update(ProjectEntity, { id: projectId }, { archived });
  }

  /** The projects of the namespaces `namespaceIds`, by id. */
  inNamespaces(tx: EntityManager, namespaceIds: number[]): Promise<ProjectEntity[]> {
    return tx.find(ProjectEntity, { where: { namespaceId: In(namespaceIds) }, order: { id: 'ASC' } });
  }

  /** The projects of the namespace, by id. */
  inNamespace(tx: EntityManager, namespaceId: number): Promise<ProjectEntity[]> {
    return tx.find(ProjectEntity, { where: { namespaceId }, order: { id: 'ASC' } });
  }

  async delete(tx: EntityManager, projectId: number): Promise<void> {
    await tx.delete(ProjectEntity, { id: projectId });
  }

  async deleteByIds(tx: EntityManager, projectIds: number[]): Promise<void> {
    await tx.delete(ProjectEntity, { id: In(projectIds) });
  }

  /** Gives an imported project the path and name of the project it replaces, in the import's transaction. */
  async renameImported(tx: EntityManager, projectId: number, path: string, name: string): Promise<void> {
    await tx.update(ProjectEntity, { id: projectId }, { path, name });
  }

  /** Records the default branch an import chose from its repository bundle. */
  async setImportedDefaultBranch(projectId: number, defaultBranch: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.update(ProjectEntity, { id: projectId }, { defaultBranch });
  }
}
