import { Injectable } from '@nestjs/common';
import { NamespaceEntity } from '@app/namespaces';
import { DataSource, DeepPartial, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { ListIterationsDto } from '../dto/iteration.dto';
import { IterationEntity } from '../entities/iteration.entity';

/** Full paths of groups by id (see `IterationsRepository.groupPaths`): an iteration's `web_url` is under its group. */
export type GroupPaths = ReadonlyMap<number, string>;

const TODAY = "CAST(timezone('UTC', now()) AS date)";

@Injectable()
export class IterationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The iterations of the groups `groupIds` (a group and its ancestors), filtered (pagination is applied by the caller). */
  listQuery(groupIds: number[], dto: ListIterationsDto): SelectQueryBuilder<IterationEntity> {
    const qb = this.dataSource.manager.createQueryBuilder(IterationEntity, 'it').where('it.group_id IN (:...groupIds)', { groupIds });
    switch (dto.state ?? 'all') {
      case 'upcoming':
        qb.andWhere(`it.start_date > ${TODAY}`);
        break;
      case 'current':
        qb.andWhere(`it.start_date <= ${TODAY} AND it.due_date >= ${TODAY}`);
        break;
      case 'opened':
        qb.andWhere(`it.due_date >= ${TODAY}`);
        break;
      case 'closed':
        qb.andWhere(`it.due_date < ${TODAY}`);
        break;
      case 'all':
        break;
    }
    if (dto.search) qb.andWhere('it.title ILIKE :search', { search: `%${dto.search.replace(/[%_\\]/g, '\\$&')}%` });
    return qb.orderBy('it.due_date', 'ASC').addOrderBy('it.id', 'ASC');
  }

  /** The iterations among `ids` that exist. */
  findByIds(ids: Iterable<number>): Promise<IterationEntity[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return Promise.resolve([]);
    return this.dataSource.manager.findBy(IterationEntity, { id: In(unique) });
  }

  /** Full paths of the groups `groupIds`, in one query (an iteration's `web_url` names its group's path). */
  async groupPaths(groupIds: Iterable<number>): Promise<GroupPaths> {
    const ids = [...new Set(groupIds)];
    if (ids.length === 0) return new Map();
    const groups = await this.dataSource.manager.find(NamespaceEntity, { where: { id: In(ids) }, select: { id: true, fullPath: true } });
    return new Map(groups.map((group) => [group.id, group.fullPath]));
  }

  // --- statements of the use cases, in their transaction --------------------

  /** An iteration by id, in the transaction. */
  findById(tx: EntityManager, id: number): Promise<IterationEntity | null> {
    return tx.findOneBy(IterationEntity, { id });
  }

  /** Whether an iteration of the group overlaps the dates `start`..`due` (both included). */
  overlaps(tx: EntityManager, groupId: number, start: string, due: string): Promise<boolean> {
    return tx
      .createQueryBuilder(IterationEntity, 'i')
      .where('i.group_id = :groupId AND i.start_date <= :due AND i.due_date >= :start', { groupId, start, due })
      .getExists();
  }

  /** Stores a new iteration; the saved row. */
  insert(tx: EntityManager, fields: DeepPartial<IterationEntity>): Promise<IterationEntity> {
    return tx.save(tx.create(IterationEntity, fields));
  }
}
