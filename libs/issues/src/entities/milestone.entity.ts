import { ProjectEntity } from '@app/namespaces';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type MilestoneState = 'active' | 'closed';

/** A project milestone (`project_id`) or a group milestone (`group_id`). */
@Entity('milestones')
@Index('milestones_project_iid_key', ['projectId', 'iid'], { unique: true })
@Index('milestones_group_iid_key', ['groupId', 'iid'], { unique: true })
export class MilestoneEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  iid: number;

  @Column({ name: 'project_id', type: 'int', nullable: true })
  projectId: number | null;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  @Column({ name: 'group_id', type: 'int', nullable: true })
  groupId: number | null;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 10, default: 'active' })
  state: MilestoneState;

  @Column({ name: 'due_date', type: 'date', nullable: true })
  dueDate: string | null;

  @Column({ name: 'start_date', type: 'date', nullable: true })
  startDate: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
