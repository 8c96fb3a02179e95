import { Injectable } from '@nestjs/common';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { ResourceIterationEventEntity, ResourceMilestoneEventEntity, ResourceStateEventEntity, ResourceWeightEventEntity } from './entities/resource-events.entity';

export type ResourceEventKind = 'milestone' | 'state' | 'iteration' | 'weight';

/** The issue or merge request whose resource events are read. */
export interface ResourceOwner {
  kind: 'Issue' | 'MergeRequest';
  id: number;
  project: ProjectWithNamespace;
}

const ENTITY = {
  milestone: ResourceMilestoneEventEntity,
  state: ResourceStateEventEntity,
  iteration: ResourceIterationEventEntity,
  weight: ResourceWeightEventEntity,
} as const;

@Injectable()
export class ResourceEventsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Events of one kind on one issue or merge request, oldest first (alias `r`). */
  query(kind: ResourceEventKind, owner: ResourceOwner): SelectQueryBuilder<ObjectLiteral> {
    const qb = this.dataSource.manager.createQueryBuilder(ENTITY[kind] as new () => ObjectLiteral, 'r');
    if (owner.kind === 'Issue') qb.where('r.issue_id = :ownerId', { ownerId: owner.id });
    // Iteration and weight events exist for issues only.
    else if (kind === 'milestone' || kind === 'state') qb.where('r.merge_request_id = :ownerId', { ownerId: owner.id });
    else qb.where('false');
    return qb.orderBy('r.id', 'ASC');
  }
}
