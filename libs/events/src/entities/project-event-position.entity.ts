import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Where a project's contribution events stand, kept by the projector in the transaction that
 * inserts them: `last_seq` is the `project_seq` of its newest event. Events are removed by the
 * retention job and by the projector (a deleted comment's or issue's events), which both raise
 * `deleted_max_seq` to the highest number they removed; every
 * number above it therefore exists, and the newest-first list finds the page at offset N
 * directly (`project_seq <= last_seq - N`) instead of skipping N rows.
 */
@Entity('project_event_positions')
export class ProjectEventPositionEntity {
  @PrimaryColumn({ name: 'project_id', type: 'int', primaryKeyConstraintName: 'PK_project_event_positions' })
  projectId: number;

  @Column({ name: 'last_seq', type: 'bigint', default: 0 })
  lastSeq: string;

  @Column({ name: 'deleted_max_seq', type: 'bigint', default: 0 })
  deletedMaxSeq: string;
}
