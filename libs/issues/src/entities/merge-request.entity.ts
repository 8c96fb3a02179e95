import { ProjectEntity } from '@app/namespaces';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type MergeRequestState = 'opened' | 'closed' | 'merged' | 'locked';

@Entity('merge_requests')
@Index('merge_requests_project_iid_key', ['projectId', 'iid'], { unique: true })
export class MergeRequestEntity {
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
  state: MergeRequestState;

  @Column({ name: 'source_branch', type: 'varchar', length: 255 })
  sourceBranch: string;

  @Column({ name: 'target_branch', type: 'varchar', length: 255 })
  targetBranch: string;

  @Column({ name: 'author_id', type: 'int' })
  @Index()
  authorId: number;

  @Column({ name: 'assignee_ids', type: 'int', array: true, default: () => "'{}'" })
  assigneeIds: number[];

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  labels: string[];

  @Column({ name: 'milestone_id', type: 'int', nullable: true })
  milestoneId: number | null;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt: Date | null;

  @Column({ name: 'closed_by_id', type: 'int', nullable: true })
  closedById: number | null;

  @Column({ name: 'merged_by_id', type: 'int', nullable: true })
  mergedById: number | null;

  @Column({ name: 'merged_at', type: 'timestamptz', nullable: true })
  mergedAt: Date | null;

  /** The merge commit (`merge`, `rebase_merge`), or the new head of the target branch (`ff`). */
  @Column({ name: 'merge_commit_sha', type: 'varchar', length: 40, nullable: true })
  mergeCommitSha: string | null;

  @Column({ name: 'squash_commit_sha', type: 'varchar', length: 40, nullable: true })
  squashCommitSha: string | null;

  /** The diff refs as of the merge (source head, merge base, target head); null while open. */
  @Column({ name: 'diff_head_sha', type: 'varchar', length: 40, nullable: true })
  diffHeadSha: string | null;

  @Column({ name: 'diff_base_sha', type: 'varchar', length: 40, nullable: true })
  diffBaseSha: string | null;

  @Column({ name: 'diff_start_sha', type: 'varchar', length: 40, nullable: true })
  diffStartSha: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
