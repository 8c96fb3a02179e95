import { Injectable } from '@nestjs/common';
import { UserEntity } from '@app/identity';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { labelsFilterSql } from '../relations/issuable-relations';
import type { ListEpicsDto } from '../dto/epic.dto';
import { EpicEntity } from '../entities/epic.entity';

@Injectable()
export class EpicsRepository {
  constructor(private readonly dataSource: DataSource) {}

  findByIid(groupId: number, iid: number): Promise<EpicEntity | null> {
    return this.dataSource.manager.findOneBy(EpicEntity, { groupId, iid });
  }

  findById(groupId: number, id: number): Promise<EpicEntity | null> {
    return this.dataSource.manager.findOneBy(EpicEntity, { groupId, id });
  }

  /** The authors of `epics` (the users that still exist). */
  authorsOf(epics: EpicEntity[]): Promise<UserEntity[]> {
    const authorIds = [...new Set(epics.map((e) => e.authorId))];
    return authorIds.length > 0 ? this.dataSource.manager.findBy(UserEntity, { id: In(authorIds) }) : Promise.resolve([]);
  }

  /** The group's epics, confidential ones only for `readsConfidential`; newest first by default. */
  listQuery(groupId: number, readsConfidential: boolean, filter: ListEpicsDto): SelectQueryBuilder<EpicEntity> {
    const qb = this.dataSource.manager.createQueryBuilder(EpicEntity, 'e').where('e.group_id = :groupId', { groupId });
    if (!readsConfidential) qb.andWhere('e.confidential = false');
    if (filter.state && filter.state !== 'all') qb.andWhere('e.state = :state', { state: filter.state });
    const labels = labelsFilterSql('e', filter.labels);
    if (labels) qb.andWhere(labels.sql, labels.params);
    if (filter.author_id !== undefined) qb.andWhere('e.author_id = :authorId', { authorId: filter.author_id });
    if (filter.search) qb.andWhere('(e.title ILIKE :search OR e.description ILIKE :search)', { search: `%${filter.search.replace(/[%_\\]/g, '\\$&')}%` });
    const direction = filter.sort === 'asc' ? 'ASC' : 'DESC';
    const column = filter.order_by === 'updated_at' ? 'e.updatedAt' : filter.order_by === 'title' ? 'e.title' : 'e.createdAt';
    return qb.orderBy(column, direction).addOrderBy('e.id', direction);
  }

  // --- statements of the use cases, in their transaction --------------------

  /** The group's epic `iid`, locked until commit (`FOR UPDATE`). */
  lockByIid(tx: EntityManager, groupId: number, iid: number): Promise<EpicEntity | null> {
    return tx.findOne(EpicEntity, { where: { groupId, iid }, lock: { mode: 'pessimistic_write' } });
  }

  /** The group's epic `iid`, in the transaction (no lock). */
  findByIidIn(tx: EntityManager, groupId: number, iid: number): Promise<EpicEntity | null> {
    return tx.findOneBy(EpicEntity, { groupId, iid });
  }

  /** Saves a new epic or a loaded epic's changes. */
  save(tx: EntityManager, epic: EpicEntity): Promise<EpicEntity> {
    return tx.save(epic);
  }

  delete(tx: EntityManager, id: number): Promise<unknown> {
    return tx.delete(EpicEntity, { id });
  }
}
