import { Injectable } from '@nestjs/common';
import { DataSource, DeepPartial, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ListMilestonesDto } from '../dto/milestone.dto';
import { MilestoneEntity } from '../entities/milestone.entity';

@Injectable()
export class MilestonesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The milestones among `ids` that exist. */
  findByIds(ids: Iterable<number>): Promise<MilestoneEntity[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return Promise.resolve([]);
    return this.dataSource.manager.findBy(MilestoneEntity, { id: In(unique) });
  }

  findInProject(projectId: number, id: number): Promise<MilestoneEntity | null> {
    return this.dataSource.manager.findOneBy(MilestoneEntity, { id, projectId });
  }

  /** The filtered list query of a project's or a group's milestones (pagination is applied by the caller). */
  listQuery(owner: { projectId: number } | { groupId: number }, dto: ListMilestonesDto): SelectQueryBuilder<MilestoneEntity> {
    const qb =
      'projectId' in owner
        ? this.dataSource.manager.createQueryBuilder(MilestoneEntity, 'm').where('m.project_id = :projectId', { projectId: owner.projectId })
        : this.dataSource.manager.createQueryBuilder(MilestoneEntity, 'm').where('m.group_id = :groupId', { groupId: owner.groupId });
    if (dto.state) qb.andWhere('m.state = :state', { state: dto.state });
    if (dto.iids?.length) qb.andWhere('m.iid IN (:...iids)', { iids: dto.iids });
    if (dto.title) qb.andWhere('m.title = :title', { title: dto.title });
    if (dto.search) qb.andWhere('(m.title ILIKE :search OR m.description ILIKE :search)', { search: `%${dto.search.replace(/[%_\\]/g, '\\$&')}%` });
    return qb.orderBy('m.due_date', 'ASC', 'NULLS LAST').addOrderBy('m.title', 'ASC').addOrderBy('m.id', 'ASC');
  }

  /** Stores a milestone read from a project export, in the import's transaction; its id. */
  async insertImported(tx: EntityManager, milestone: QueryDeepPartialEntity<MilestoneEntity>): Promise<number> {
    const result = await tx.insert(MilestoneEntity, milestone);
    return result.identifiers[0].id as number;
  }

  // --- statements of the use cases, in their transaction --------------------

  /** A milestone by id, in the transaction. */
  findById(tx: EntityManager, id: number): Promise<MilestoneEntity | null> {
    return tx.findOneBy(MilestoneEntity, { id });
  }

  /** The project's milestone `id`, locked until commit (`FOR UPDATE`). */
  lockInProject(tx: EntityManager, projectId: number, id: number): Promise<MilestoneEntity | null> {
    return tx.findOne(MilestoneEntity, { where: { id, projectId }, lock: { mode: 'pessimistic_write' } });
  }

  /** Whether the project or group already has a milestone titled `title`. */
  titleTaken(tx: EntityManager, owner: { projectId: number } | { groupId: number }, title: string): Promise<boolean> {
    return tx.existsBy(MilestoneEntity, 'projectId' in owner ? { projectId: owner.projectId, title } : { groupId: owner.groupId, title });
  }

  /** Stores a new milestone; the saved row. */
  insert(tx: EntityManager, fields: DeepPartial<MilestoneEntity>): Promise<MilestoneEntity> {
    return tx.save(tx.create(MilestoneEntity, fields));
  }

  /** Saves a loaded milestone's changes. */
  save(tx: EntityManager, milestone: MilestoneEntity): Promise<MilestoneEntity> {
    return tx.save(milestone);
  }

  delete(tx: EntityManager, id: number): Promise<unknown> {
    return tx.delete(MilestoneEntity, { id });
  }
}
