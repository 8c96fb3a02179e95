import { ProjectEntity } from '@app/namespaces';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type IssueState = 'opened' | 'closed';
/** `incident` issues are opened by the alert lifecycle (or by hand) with a severity. */
export const ISSUE_TYPES = ['issue', 'incident', 'test_case', 'task'] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];
export const ISSUE_SEVERITIES = ['unknown', 'low', 'medium', 'high', 'critical'] as const;
export type IssueSeverity = (typeof ISSUE_SEVERITIES)[number];

@Entity('issues')
@Index('issues_project_iid_key', ['projectId', 'iid'], { unique: true })
export class IssueEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  iid: number;

  @Column({ name: 'project_id', type: 'int' })
  projectId: number;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 10, default: 'opened' })
  state: IssueState;

  @Column({ name: 'author_id', type: 'int' })
  @Index()
  authorId: number;

  @Column({ name: 'assignee_ids', type: 'int', array: true, default: () => "'{}'" })
  assigneeIds: number[];

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  labels: string[];

  @Column({ name: 'milestone_id', type: 'int', nullable: true })
  milestoneId: number | null;

  @Column({ name: 'iteration_id', type: 'int', nullable: true })
  iterationId: number | null;

  @Column({ type: 'int', nullable: true })
  weight: number | null;

  @Column({ name: 'issue_type', type: 'varchar', length: 20, default: 'issue' })
  issueType: IssueType;

  @Column({ type: 'varchar', length: 10, default: 'unknown' })
  severity: IssueSeverity;

  @Column({ default: false })
  confidential: boolean;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt: Date | null;

  @Column({ name: 'closed_by_id', type: 'int', nullable: true })
  closedById: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
