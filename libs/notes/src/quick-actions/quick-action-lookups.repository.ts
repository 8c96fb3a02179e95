import { Injectable } from '@nestjs/common';
import { UserEntity } from '@app/identity';
import { IterationEntity, LabelEntity, MilestoneEntity } from '@app/issues';
import { DataSource, In } from 'typeorm';

/** Where the labels, milestones or iterations a quick action names may live. */
export interface LookupScope {
  /** The project (null for an epic's note). */
  projectId: number | null;
  /** Its groups, or the epic's group and its ancestors. */
  groupIds: number[];
}

/** The reads of quick actions: the users, milestones, iterations and labels a note names. */
@Injectable()
export class QuickActionLookupsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Users by username (case-insensitive), in no particular order. */
  usersByUsername(names: string[]): Promise<UserEntity[]> {
    return this.dataSource.manager
      .createQueryBuilder(UserEntity, 'u')
      .where('lower(u.username) IN (:...names)', { names: names.map((n) => n.toLowerCase()) })
      .getMany();
  }

  usersById(ids: number[]): Promise<UserEntity[]> {
    return this.dataSource.manager.findBy(UserEntity, { id: In(ids) });
  }

  milestoneById(id: number): Promise<MilestoneEntity | null> {
    return this.dataSource.manager.findOneBy(MilestoneEntity, { id });
  }

  /** An active milestone of the project or of one of its groups, by title (the project's first). */
  activeMilestone(projectId: number, groupIds: number[], title: string): Promise<MilestoneEntity | null> {
    const qb = this.dataSource.manager.createQueryBuilder(MilestoneEntity, 'm').where('m.title = :title', { title }).andWhere(`m.state = 'active'`);
    if (groupIds.length > 0) qb.andWhere('(m.project_id = :projectId OR m.group_id IN (:...groups))', { projectId, groups: groupIds });
    else qb.andWhere('m.project_id = :projectId', { projectId });
    return qb.orderBy('m.project_id', 'ASC', 'NULLS LAST').getOne();
  }

  /** An iteration of one of the groups, by id or title. */
  iteration(groupIds: number[], reference: { id: number } | { title: string }): Promise<IterationEntity | null> {
    const qb = this.dataSource.manager.createQueryBuilder(IterationEntity, 'i').where('i.group_id IN (:...groups)', { groups: groupIds });
    if ('id' in reference) qb.andWhere('i.id = :id', { id: reference.id });
    else qb.andWhere('i.title = :title', { title: reference.title });
    return qb.getOne();
  }

  /** The labels among `titles` of the project or its groups (or of the groups alone). */
  labels(scope: LookupScope, titles: string[]): Promise<LabelEntity[]> {
    const { projectId, groupIds } = scope;
    const qb = this.dataSource.manager.createQueryBuilder(LabelEntity, 'l').where('l.title IN (:...titles)', { titles });
    if (projectId !== null && groupIds.length > 0) qb.andWhere('(l.project_id = :projectId OR l.group_id IN (:...groups))', { projectId, groups: groupIds });
    else if (projectId !== null) qb.andWhere('l.project_id = :projectId', { projectId });
    else qb.andWhere('l.group_id IN (:...groups)', { groups: groupIds.length > 0 ? groupIds : [-1] });
    return qb.getMany();
  }
}
