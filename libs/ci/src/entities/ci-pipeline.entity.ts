import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { ProjectEntity } from '@app/namespaces';
import { UserEntity } from '@app/identity';
import type { PipelineSource } from '../config/pipeline-seed';
import type { PipelineStatus } from '../status/ci-status';

/** A pipeline: the jobs of one `.gitlab-ci.yml` at one commit. `iid` is per project and gap-free. */
@Entity('ci_pipelines')
@Index(['projectId', 'iid'], { unique: true })
@Index(['projectId', 'ref'])
@Index(['projectId', 'sha'])
@Index(['projectId', 'status'])
export class CiPipelineEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  iid: number;

  @Column({ name: 'project_id', type: 'int' })
  projectId: number;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 30 })
  status: PipelineStatus;

  @Column({ type: 'varchar', length: 40 })
  source: PipelineSource;

  @Column({ type: 'varchar', length: 255 })
  ref: string;

  @Column({ type: 'varchar', length: 64 })
  sha: string;

  @Column({ name: 'before_sha', type: 'varchar', length: 64 })
  beforeSha: string;

  @Column({ type: 'boolean', default: false })
  tag: boolean;

  /** Whether its ref (a branch matched by a protected branch rule) was protected when it was created (GitLab's `protected`). */
  @Column({ type: 'boolean', default: false })
  protected: boolean;

  /** Why the configuration was refused (the pipeline is then `failed`). */
  @Column({ name: 'yaml_errors', type: 'text', nullable: true })
  yamlErrors: string | null;

  @Column({ name: 'user_id', type: 'int', nullable: true })
  @Index()
  userId: number | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity | null;

  /** The parent of a child pipeline (`trigger: include`); child pipelines are left out of lists. */
  @Column({ name: 'parent_pipeline_id', type: 'int', nullable: true })
  @Index()
  parentPipelineId: number | null;

  /** The bridge job that created this (downstream) pipeline. */
  @Column({ name: 'source_job_id', type: 'int', nullable: true })
  @Index()
  sourceJobId: number | null;

  /** The domain event (a push) this pipeline was created for: a redelivered event creates nothing. */
  @Column({ name: 'trigger_event_id', type: 'uuid', nullable: true })
  @Index('IDX_ci_pipelines_trigger_event', { unique: true, where: 'trigger_event_id IS NOT NULL' })
  triggerEventId: string | null;

  /** The predefined variables of the pipeline (`CI_PIPELINE_ID`, `CI_COMMIT_*`, …), computed once at creation. */
  @Column({ name: 'predefined_variables', type: 'jsonb', default: {} })
  predefinedVariables: Record<string, string>;

  @Column({ name: 'failure_reason', type: 'varchar', length: 60, nullable: true })
  failureReason: string | null;

  @Column({ type: 'numeric', precision: 7, scale: 2, nullable: true })
  coverage: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  @Column({ name: 'committed_at', type: 'timestamptz', nullable: true })
  committedAt: Date | null;

  /** Seconds the jobs ran (GitLab: the union of the job run periods). */
  @Column({ type: 'int', nullable: true })
  duration: number | null;

  @Column({ name: 'queued_duration', type: 'int', nullable: true })
  queuedDuration: number | null;
}
