import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { ProjectEntity } from '@app/namespaces';
import type { JobStatus } from '../status/ci-status';
import type { JobWhen } from '../status/pipeline-processing';
import { CiPipelineEntity } from './ci-pipeline.entity';
import type { CiJobOptions } from './ci-job-options';

export type CiJobType = 'build' | 'bridge';

/**
 * A job of a pipeline: a build that a runner runs, or a bridge (`trigger:`) that starts a
 * downstream pipeline. A retried job stays, marked `retried`; its successor is a new row.
 */
@Entity('ci_jobs')
@Index(['projectId', 'id'])
@Index(['pipelineId', 'stageIdx'])
@Index('IDX_ci_jobs_pending_queue', ['id'], { where: `status = 'pending' AND type = 'build'` })
@Index('IDX_ci_jobs_running', ['updatedAt'], { where: `status = 'running'` })
@Index('IDX_ci_jobs_scheduled', ['scheduledAt'], { where: `status = 'scheduled'` })
@Index('IDX_ci_jobs_unprocessed', ['finishedAt'], { where: 'processed = false' })
export class CiJobEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id', type: 'int' })
  projectId: number;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  @Column({ name: 'pipeline_id', type: 'int' })
  pipelineId: number;

  @ManyToOne(() => CiPipelineEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'pipeline_id' })
  pipeline?: CiPipelineEntity;

  @Column({ type: 'varchar', length: 10 })
  type: CiJobType;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 255 })
  stage: string;

  @Column({ name: 'stage_idx', type: 'int' })
  stageIdx: number;

  @Column({ type: 'varchar', length: 30 })
  status: JobStatus;

  @Column({ type: 'varchar', length: 20 })
  when: JobWhen;

  @Column({ name: 'allow_failure', type: 'boolean', default: false })
  allowFailure: boolean;

  /** Names of the needed jobs (DAG); null when the job follows the stages. */
  @Column({ type: 'jsonb', nullable: true })
  needs: string[] | null;

  /** Everything the runner and the processing need from the configuration. */
  @Column({ type: 'jsonb', default: {} })
  options: CiJobOptions;

  /** Variables of the job from the configuration (after rules). */
  @Column({ name: 'yaml_variables', type: 'jsonb', default: {} })
  yamlVariables: Record<string, string>;

  @Column({ name: 'tag_list', type: 'text', array: true, default: '{}' })
  tagList: string[];

  @Column({ type: 'varchar', length: 255 })
  ref: string;

  @Column({ type: 'varchar', length: 64 })
  sha: string;

  @Column({ type: 'boolean', default: false })
  tag: boolean;

  /** Whether its ref was protected when its pipeline was created (GitLab's `protected`): only such jobs go to `ref_protected` runners. */
  @Column({ type: 'boolean', default: false })
  protected: boolean;

  /** A later attempt of the same job exists. */
  @Column({ type: 'boolean', default: false })
  retried: boolean;

  /** Automatic and manual attempts before this one. */
  /** False from the end its runner reported until the pipeline's processing saw it (GitLab's `processed`). */
  @Column({ type: 'boolean', default: true })
  processed: boolean;

  @Column({ name: 'retry_count', type: 'int', default: 0 })
  retryCount: number;

  @Column({ name: 'failure_reason', type: 'varchar', length: 60, nullable: true })
  failureReason: string | null;

  @Column({ name: 'exit_code', type: 'int', nullable: true })
  exitCode: number | null;

  @Column({ type: 'numeric', precision: 7, scale: 2, nullable: true })
  coverage: string | null;

  @Column({ name: 'runner_id', type: 'int', nullable: true })
  @Index()
  runnerId: number | null;

  /** SHA-256 of the job token; set when a runner picks the job up. */
  @Column({ name: 'token_digest', type: 'varchar', length: 64, nullable: true })
  @Index({ unique: true, where: 'token_digest IS NOT NULL' })
  tokenDigest: string | null;

  @Column({ name: 'user_id', type: 'int', nullable: true })
  userId: number | null;

  /** Seconds a runner may run it (the job's `timeout`, the project's, capped by the runner's). */
  @Column({ name: 'timeout', type: 'int', nullable: true })
  timeout: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'queued_at', type: 'timestamptz', nullable: true })
  queuedAt: Date | null;

  /** When a delayed (`scheduled`) job becomes pending (`start_in` after it was scheduled). */
  @Column({ name: 'scheduled_at', type: 'timestamptz', nullable: true })
  scheduledAt: Date | null;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  /** Last time the runner reported on the job (state or trace); stuck detection reads it. */
  @Column({ name: 'last_contact_at', type: 'timestamptz', nullable: true })
  lastContactAt: Date | null;

  @Column({ name: 'artifacts_expire_at', type: 'timestamptz', nullable: true })
  artifactsExpireAt: Date | null;

  @Column({ name: 'erased_at', type: 'timestamptz', nullable: true })
  erasedAt: Date | null;

  @Column({ name: 'erased_by_id', type: 'int', nullable: true })
  erasedById: number | null;
}
