import { Injectable } from '@nestjs/common';
import type { AccessUser } from '@app/namespaces';
import { ACCESS_LEVELS, restrictToVisibleProjects, whereProjectAccessLevel } from '@app/namespaces';
import { DataSource, DeepPartial, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { labelsFilterSql } from '../relations/issuable-relations';
import { IssueEntity } from '../entities/issue.entity';
import { MergeRequestEntity } from '../entities/merge-request.entity';

export interface IssueListFilter {
  state?: 'opened' | 'closed' | 'all';
  labels?: string[];
  milestone?: string;
  issueType?: string;
  confidential?: boolean;
  iids?: number[];
  authorId?: number;
  assigneeId?: number;
  search?: string;
  orderBy?: 'created_at' | 'updated_at';
  sort?: 'asc' | 'desc';
}

/**
 * Who may read a confidential issue: Reporter+ on its project, its author, its assignees
 * (administrators see everything). SQL over issue alias `i`; `levelSql` is the viewer's level.
 */
export const confidentialIssueReadableSql = (i: string, levelSql: string, uid: string): string =>
  `(${i}.confidential = false OR ${levelSql} >= ${ACCESS_LEVELS.REPORTER} OR ${i}.author_id = ${uid} OR ${uid} = ANY(${i}.assignee_ids))`;

@Injectable()
export class IssuesRepository {
  constructor(private readonly dataSource: DataSource) {}

  findByIid(projectId: number, iid: number): Promise<IssueEntity | null> {
    return this.dataSource.manager.findOneBy(IssueEntity, { projectId, iid });
  }

  findMergeRequestByIid(projectId: number, iid: number): Promise<MergeRequestEntity | null> {
    return this.dataSource.manager.findOneBy(MergeRequestEntity, { projectId, iid });
  }

  /** Whether `viewer` (with `level` on the issue's project) may read the issue. */
  canRead(issue: Pick<IssueEntity, 'confidential' | 'authorId' | 'assigneeIds'>, viewer: AccessUser | null, level: number): boolean {
    if (!issue.confidential || viewer?.isAdmin) return true;
    if (!viewer) return false;
    return level >= ACCESS_LEVELS.REPORTER || issue.authorId === viewer.id || issue.assigneeIds.includes(viewer.id);
  }

  /** Issues of one project the viewer may read. */
  projectQuery(projectId: number, viewer: AccessUser | null, level: number, filter: IssueListFilter): SelectQueryBuilder<IssueEntity> {
    const qb = this.dataSource.manager.createQueryBuilder(IssueEntity, 'i').where('i.project_id = :projectId', { projectId });
    if (!viewer) qb.andWhere('i.confidential = false');
    else if (!viewer.isAdmin && level < ACCESS_LEVELS.REPORTER) {
      qb.andWhere(confidentialIssueReadableSql('i', String(level), ':uid'), { uid: viewer.id });
    }
    return this.applyFilter(qb, filter);
  }

  /** Issues across the projects the user can see (`GET /issues`). */
  userQuery(viewer: AccessUser, scope: 'created_by_me' | 'assigned_to_me' | 'all', filter: IssueListFilter): SelectQueryBuilder<IssueEntity> {
    const qb = this.dataSource.manager
      .createQueryBuilder(IssueEntity, 'i')
      .innerJoin('projects', 'p', 'p.id = i.project_id')
      .innerJoin('namespaces', 'n', 'n.id = p.namespace_id')
      .setParameter('uid', viewer.id);
    restrictToVisibleProjects(qb, 'p', 'n', viewer);
    if (!viewer.isAdmin) whereProjectAccessLevel(qb, 'p', 'n', viewer, (level) => confidentialIssueReadableSql('i', level, ':uid'));
    if (scope === 'created_by_me') qb.andWhere('i.author_id = :uid');
    if (scope === 'assigned_to_me') qb.andWhere(':uid = ANY(i.assignee_ids)');
    return this.applyFilter(qb, filter);
  }

  private applyFilter(qb: SelectQueryBuilder<IssueEntity>, filter: IssueListFilter): SelectQueryBuilder<IssueEntity> {
    if (filter.state && filter.state !== 'all') qb.andWhere('i.state = :state', { state: filter.state });
    const labels = labelsFilterSql('i', filter.labels);
    if (labels) qb.andWhere(labels.sql, labels.params);
    if (filter.milestone === 'None') qb.andWhere('i.milestone_id IS NULL');
    else if (filter.milestone === 'Any') qb.andWhere('i.milestone_id IS NOT NULL');
    else if (filter.milestone) qb.andWhere('i.milestone_id IN (SELECT ms.id FROM milestones ms WHERE ms.title = :milestone)', { milestone: filter.milestone });
    if (filter.issueType) qb.andWhere('i.issue_type = :issueType', { issueType: filter.issueType });
    if (filter.confidential !== undefined) qb.andWhere('i.confidential = :confidential', { confidential: filter.confidential });
    if (filter.iids?.length) qb.andWhere('i.iid IN (:...iids)', { iids: filter.iids });
    if (filter.authorId !== undefined) qb.andWhere('i.author_id = :authorId', { authorId: filter.authorId });
    if (filter.assigneeId !== undefined) qb.andWhere(':assigneeId = ANY(i.assignee_ids)', { assigneeId: filter.assigneeId });
    if (filter.search) qb.andWhere('(i.title ILIKE :search OR i.description ILIKE :search)', { search: `%${filter.search.replace(/[%_\\]/g, '\\$&')}%` });
    const direction = filter.sort === 'asc' ? 'ASC' : 'DESC';
    return qb.orderBy(`i.${filter.orderBy === 'updated_at' ? 'updatedAt' : 'createdAt'}`, direction).addOrderBy('i.id', direction);
  }

  /** Stores issues read from a project export in one statement, in the import's transaction; their ids, in order. */
  async insertImported(tx: EntityManager, issues: QueryDeepPartialEntity<IssueEntity>[]): Promise<number[]> {
    const result = await tx.insert(IssueEntity, issues);
    return result.identifiers.map((identifier) => identifier.id as number);
  }

  // --- statements of the use cases, in their transaction --------------------

  /** The project's issue `iid`, locked until commit (`FOR UPDATE`). */
  lockByIid(tx: EntityManager, projectId: number, iid: number): Promise<IssueEntity | null> {
    return tx.findOne(IssueEntity, { where: { projectId, iid }, lock: { mode: 'pessimistic_write' } });
  }

  /** Stores a new issue; the saved row. */
  insert(tx: EntityManager, fields: DeepPartial<IssueEntity>): Promise<IssueEntity> {
    return tx.save(tx.create(IssueEntity, fields));
  }

  /** Saves a loaded issue's changes. */
  save(tx: EntityManager, issue: IssueEntity): Promise<IssueEntity> {
    return tx.save(issue);
  }

  delete(tx: EntityManager, id: number): Promise<unknown> {
    return tx.delete(IssueEntity, { id });
  }

  /** Unsets a deleted milestone on its issues. */
  unsetMilestone(tx: EntityManager, milestoneId: number): Promise<unknown> {
    return tx.update(IssueEntity, { milestoneId }, { milestoneId: null });
  }
}
