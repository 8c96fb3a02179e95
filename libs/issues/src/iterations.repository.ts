import { Injectable } from '@nestjs/common';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { ListIterationsDto } from './dto/iteration.dto';
import { IterationEntity } from './entities/iteration.entity';
import { type GroupPaths, loadGroupPaths } from './presenters/iteration.presenter';

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

  /** Full paths of the groups `groupIds` (an iteration's `web_url` names its group's path). */
  groupPaths(groupIds: Iterable<number>): Promise<GroupPaths> {
    return loadGroupPaths(this.dataSource.manager, groupIds);
  }
}
