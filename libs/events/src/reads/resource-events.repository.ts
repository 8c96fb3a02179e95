import { Injectable } from '@nestjs/common';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import {
  ResourceIterationEventEntity,
  ResourceMilestoneEventEntity,
  ResourceStateEventEntity,
  ResourceWeightEventEntity,
} from '../entities/resource-events.entity';

export type ResourceEventKind = 'milestone' | 'state' | 'iteration' | 'weight';

/** The issue or merge request whose resource events are read. */
export interface ResourceOwner {
  kind: 'Issue' | 'MergeRequest';
  id: number;
  project: ProjectWithNamespace;
  /** The reader, whose own recent changes of the owner are waited for (read-your-writes); null for anonymous. */
  readerId?: number | null;
}

/** How long a read waits at most for the projection of the reader's own changes. */
export const OWN_WRITES_WAIT_MS = 2_000;
const OWN_WRITES_POLL_MS = 20;
/** Only recent outbox rows are looked at: the last ones by `seq` (indexed), written in the last seconds. */
const OWN_WRITES_RECENT_ROWS = 10_000;
const OWN_WRITES_RECENT_SECONDS = 30;

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

  /**
   * Read-your-writes: resource events are projected from the event stream a little after the
   * change that caused them, so a read waits (at most {@link OWN_WRITES_WAIT_MS}) until every
   * event the reader wrote about this issue or merge request in the last seconds was handled by
   * the projector (its id is in `projected_events`). Others' changes are not waited for.
   */
  async awaitOwnWrites(owner: ResourceOwner, deadline = Date.now() + OWN_WRITES_WAIT_MS): Promise<void> {
    if (!owner.readerId) return;
    const targetType = owner.kind === 'Issue' ? 'issue' : 'merge_request';
    while ((await this.hasUnprojectedOwnWrites(targetType, owner.id, owner.readerId)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, OWN_WRITES_POLL_MS));
    }
  }

  private async hasUnprojectedOwnWrites(targetType: string, targetId: number, actorId: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM outbox_events o
        WHERE o.seq > (SELECT COALESCE(max(seq), 0) FROM outbox_events) - $4
          AND o.created_at > now() - make_interval(secs => $5)
          AND o.payload->'target'->>'type' = $1 AND o.payload->'target'->>'id' = $2 AND o.payload->>'actor' = $3
          AND NOT EXISTS (SELECT 1 FROM projected_events p WHERE p.event_id = o.id)
        LIMIT 1`,
      [targetType, String(targetId), String(actorId), OWN_WRITES_RECENT_ROWS, OWN_WRITES_RECENT_SECONDS],
    );
    return rows.length > 0;
  }
}
