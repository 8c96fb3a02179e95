import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type EpicState = 'opened' | 'closed';

/** Epic ids start here (the sequence is restarted by the migration); iids stay below it. */
export const EPIC_ID_START = 1_000_000_001;

/**
 * A group epic (ULTIMATE here, as its notes in the spec); `iid` is per group. Ids start at
 * `EPIC_ID_START`, so an iid used where an id is expected (epic notes) never names an epic.
 */
@Entity('epics')
@Index('epics_group_iid_key', ['groupId', 'iid'], { unique: true })
export class EpicEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  iid: number;

  @Column({ name: 'group_id', type: 'int' })
  groupId: number;

  @Column({ name: 'author_id', type: 'int' })
  authorId: number;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 10, default: 'opened' })
  state: EpicState;

  @Column({ name: 'start_date', type: 'date', nullable: true })
  startDate: string | null;

  @Column({ name: 'due_date', type: 'date', nullable: true })
  dueDate: string | null;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  labels: string[];

  @Column({ default: false })
  confidential: boolean;

  @Column({ name: 'closed_at', type: 'timestamptz', precision: 3, nullable: true })
  closedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
