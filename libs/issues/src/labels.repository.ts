import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { uniqueViolation } from '@app/database';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { LabelEntity } from './entities/label.entity';

@Injectable()
export class LabelsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A project's labels and those of its ancestor groups, by title (pagination is applied by the caller). */
  projectListQuery(projectId: number, groupIds: number[]): SelectQueryBuilder<LabelEntity> {
    const qb = this.dataSource.manager.createQueryBuilder(LabelEntity, 'l').where('l.project_id = :projectId', { projectId });
    if (groupIds.length > 0) qb.orWhere('l.group_id IN (:...groups)', { groups: groupIds });
    return qb.orderBy('l.title', 'ASC').addOrderBy('l.id', 'ASC');
  }

  /** The labels of a group and of its ancestors (`groupIds`), by title. */
  groupListQuery(groupIds: number[]): SelectQueryBuilder<LabelEntity> {
    return this.dataSource.manager.createQueryBuilder(LabelEntity, 'l').where('l.group_id IN (:...ancestors)', { ancestors: groupIds }).orderBy('l.title', 'ASC').addOrderBy('l.id', 'ASC');
  }

  /** Stores a new label; 409 when its title is taken in the same project or group. */
  async insert(label: LabelEntity): Promise<LabelEntity> {
    try {
      return await this.dataSource.manager.save(label);
    } catch (error) {
      if (uniqueViolation(error) !== null) throw DomainError.conflict('Label already exists');
      throw error;
    }
  }
}
