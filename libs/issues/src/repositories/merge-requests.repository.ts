import { Injectable } from '@nestjs/common';
import { DataSource, DeepPartial, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ListMergeRequestsDto } from '../dto/merge-request.dto';
import { MergeRequestEntity } from '../entities/merge-request.entity';
import { labelsFilterSql } from '../relations/issuable-relations';

@Injectable()
export class MergeRequestsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A project's merge request by its iid. */
  findByIid(projectId: number, iid: number): Promise<MergeRequestEntity | null> {
    return this.dataSource.manager.findOneBy(MergeRequestEntity, { projectId, iid });
  }

  /** The filtered list query of a project's merge requests (pagination is applied by the caller). */
  listQuery(projectId: number, dto: ListMergeRequestsDto): SelectQueryBuilder<MergeRequestEntity> {
    const qb = this.dataSource.manager.createQueryBuilder(MergeRequestEntity, 'mr').where('mr.project_id = :projectId', { projectId });
    if (dto.state && dto.state !== 'all') qb.andWhere('mr.state = :state', { state: dto.state });
    if (dto.iids?.length) qb.andWhere('mr.iid IN (:...iids)', { iids: dto.iids });
    if (dto.source_branch) qb.andWhere('mr.source_branch = :source', { source: dto.source_branch });
    if (dto.target_branch) qb.andWhere('mr.target_branch = :target', { target: dto.target_branch });
    const labels = labelsFilterSql('mr', dto.labels);
    if (labels) qb.andWhere(labels.sql, labels.params);
    if (dto.milestone === 'None') qb.andWhere('mr.milestone_id IS NULL');
    else if (dto.milestone === 'Any') qb.andWhere('mr.milestone_id IS NOT NULL');
    else if (dto.milestone) qb.andWhere('mr.milestone_id IN (SELECT ms.id FROM milestones ms WHERE ms.title = :milestone)', { milestone: dto.milestone });
    const direction = dto.sort === 'asc' ? 'ASC' : 'DESC';
    return qb.orderBy(`mr.${dto.order_by === 'updated_at' ? 'updatedAt' : 'createdAt'}`, direction).addOrderBy('mr.id', direction);
  }

  /** Stores merge requests read from a project export in one statement, in the import's transaction; their ids, in order. */
  async insertImported(tx: EntityManager, mergeRequests: QueryDeepPartialEntity<MergeRequestEntity>[]): Promise<number[]> {
    const result = await tx.insert(MergeRequestEntity, mergeRequests);
    return result.identifiers.map((identifier) => identifier.id as number);
  }

  // --- statements of the use cases, in their transaction --------------------

  /** Whether the project has an open merge request from `sourceBranch` into `targetBranch`. */
  openExists(tx: EntityManager, projectId: number, sourceBranch: string, targetBranch: string): Promise<boolean> {
    return tx.existsBy(MergeRequestEntity, { projectId, sourceBranch, targetBranch, state: 'opened' });
  }

  /** Stores a new merge request; the saved row. */
  insert(tx: EntityManager, fields: DeepPartial<MergeRequestEntity>): Promise<MergeRequestEntity> {
    return tx.save(tx.create(MergeRequestEntity, fields));
  }

  /** The project's merge request `iid`, locked until commit (`FOR UPDATE`). */
  lockByIid(tx: EntityManager, projectId: number, iid: number): Promise<MergeRequestEntity | null> {
    return tx.findOne(MergeRequestEntity, { where: { projectId, iid }, lock: { mode: 'pessimistic_write' } });
  }

  /** Saves a loaded merge request's changes. */
  save(tx: EntityManager, mergeRequest: MergeRequestEntity): Promise<MergeRequestEntity> {
    return tx.save(mergeRequest);
  }

  /** Unsets a deleted milestone on its merge requests. */
  unsetMilestone(tx: EntityManager, milestoneId: number): Promise<unknown> {
    return tx.update(MergeRequestEntity, { milestoneId }, { milestoneId: null });
  }

  /** The merge request with its row locked (`FOR UPDATE`) until the transaction ends (a merge). */
  lockById(tx: EntityManager, id: number): Promise<MergeRequestEntity | null> {
    return tx.findOne(MergeRequestEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }
}
