import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A contribution event, materialized by the projector from a domain event. `action` is
 * GitLab's action (`created`, `closed`, `merged`...; what the `action` filter matches);
 * `action_name` in responses is derived from it and the target.
 */
@Entity('events')
/**
 * The project list (`WHERE project_id = ? ORDER BY project_seq`, the same order as `id` within
 * a project): counting and skipping pages are index-only scans, and a page is found by its
 * position (`project_seq`) without skipping (see `ProjectEventPositionEntity`).
 */
@Index('events_project_id_project_seq_idx', ['projectId', 'projectSeq'])
@Index('events_author_id_id_idx', ['authorId', 'id'])
@Index('events_created_at_idx', ['createdAt'])
/** A deleted comment's or issue's events, an edited comment's event (see the projector). */
@Index('events_target_type_target_id_idx', ['targetType', 'targetId'])
export class EventEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  /** The domain event this row was projected from. */
  @Column({ name: 'source_event_id', type: 'uuid' })
  @Index()
  sourceEventId: string;

  @Column({ name: 'project_id', type: 'int', nullable: true })
  projectId: number | null;

  /**
   * The event's number within its project: 1, 2, 3... in the order of `id` (the projector
   * draws both under the project's `project_event_positions` row lock); null without a project.
   */
  @Column({ name: 'project_seq', type: 'bigint', nullable: true })
  projectSeq: string | null;

  @Column({ name: 'group_id', type: 'int', nullable: true })
  groupId: number | null;

  @Column({ name: 'author_id', type: 'int' })
  authorId: number;

  @Column({ type: 'varchar', length: 30 })
  action: string;

  /** `Issue`, `MergeRequest`, `Milestone`, `Note`...; null for project, membership and push events. */
  @Column({ name: 'target_type', type: 'varchar', length: 30, nullable: true })
  targetType: string | null;

  @Column({ name: 'target_id', type: 'int', nullable: true })
  targetId: number | null;

  @Column({ name: 'target_iid', type: 'int', nullable: true })
  targetIid: number | null;

  @Column({ name: 'target_title', type: 'varchar', length: 255, nullable: true })
  targetTitle: string | null;

  @Column({ type: 'jsonb', nullable: true })
  note: Record<string, unknown> | null;

  @Column({ name: 'push_data', type: 'jsonb', nullable: true })
  pushData: Record<string, unknown> | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
