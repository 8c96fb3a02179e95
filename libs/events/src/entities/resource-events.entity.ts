import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Columns every resource event has: who, when, on what, and the domain event it came from. */
abstract class ResourceEventColumns {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'source_event_id', type: 'uuid' })
  sourceEventId: string;

  @Column({ name: 'user_id', type: 'int', nullable: true })
  userId: number | null;

  @Column({ name: 'issue_id', type: 'int', nullable: true })
  issueId: number | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

@Entity('resource_milestone_events')
@Index('resource_milestone_events_issue_idx', ['issueId', 'id'])
@Index('resource_milestone_events_mr_idx', ['mergeRequestId', 'id'])
export class ResourceMilestoneEventEntity extends ResourceEventColumns {
  @Column({ name: 'merge_request_id', type: 'int', nullable: true })
  mergeRequestId: number | null;

  @Column({ name: 'milestone_id', type: 'int' })
  milestoneId: number;

  /** The milestone as it was when the event happened (shown if the milestone is gone). */
  @Column({ name: 'milestone_snapshot', type: 'jsonb', nullable: true })
  milestoneSnapshot: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 10 })
  action: 'add' | 'remove';
}

@Entity('resource_state_events')
@Index('resource_state_events_issue_idx', ['issueId', 'id'])
@Index('resource_state_events_mr_idx', ['mergeRequestId', 'id'])
export class ResourceStateEventEntity extends ResourceEventColumns {
  @Column({ name: 'merge_request_id', type: 'int', nullable: true })
  mergeRequestId: number | null;

  @Column({ type: 'varchar', length: 20 })
  state: string;

  @Column({ name: 'source_commit', type: 'varchar', length: 64, nullable: true })
  sourceCommit: string | null;

  @Column({ name: 'source_merge_request_id', type: 'int', nullable: true })
  sourceMergeRequestId: number | null;
}

@Entity('resource_iteration_events')
@Index('resource_iteration_events_issue_idx', ['issueId', 'id'])
export class ResourceIterationEventEntity extends ResourceEventColumns {
  @Column({ name: 'iteration_id', type: 'int' })
  iterationId: number;

  @Column({ name: 'iteration_snapshot', type: 'jsonb', nullable: true })
  iterationSnapshot: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 10 })
  action: 'add' | 'remove';
}

@Entity('resource_weight_events')
@Index('resource_weight_events_issue_idx', ['issueId', 'id'])
export class ResourceWeightEventEntity extends ResourceEventColumns {
  @Column({ type: 'int', nullable: true })
  weight: number | null;
}
