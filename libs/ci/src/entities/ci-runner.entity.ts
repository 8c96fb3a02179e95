import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { NamespaceEntity, ProjectEntity } from '@app/namespaces';

export type CiRunnerType = 'instance_type' | 'group_type' | 'project_type';

/**
 * A runner. Its authentication token (`glrt-…`) is shown once at creation and stored as its
 * SHA-256 digest only.
 */
@Entity('ci_runners')
export class CiRunnerEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'token_digest', type: 'varchar', length: 64, unique: true })
  tokenDigest: string;

  /** The first characters of the token, shown to tell runners apart. */
  @Column({ name: 'token_prefix', type: 'varchar', length: 16 })
  tokenPrefix: string;

  @Column({ name: 'runner_type', type: 'varchar', length: 20 })
  runnerType: CiRunnerType;

  /** The group of a group runner. */
  @Column({ name: 'group_id', type: 'int', nullable: true })
  @Index()
  groupId: number | null;

  @ManyToOne(() => NamespaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id' })
  group?: NamespaceEntity;

  @Column({ type: 'varchar', length: 1024, default: '' })
  description: string;

  @Column({ name: 'maintenance_note', type: 'text', nullable: true })
  maintenanceNote: string | null;

  @Column({ type: 'boolean', default: false })
  paused: boolean;

  @Column({ type: 'boolean', default: false })
  locked: boolean;

  @Column({ name: 'run_untagged', type: 'boolean', default: true })
  runUntagged: boolean;

  @Column({ name: 'tag_list', type: 'text', array: true, default: '{}' })
  tagList: string[];

  /** `not_protected` or `ref_protected`. */
  @Column({ name: 'access_level', type: 'varchar', length: 20, default: 'not_protected' })
  accessLevel: string;

  @Column({ name: 'maximum_timeout', type: 'int', nullable: true })
  maximumTimeout: number | null;

  @Column({ name: 'contacted_at', type: 'timestamptz', nullable: true })
  contactedAt: Date | null;

  /** What the runner told about itself (`info`): name, version, revision, platform, architecture, executor. */
  @Column({ type: 'jsonb', default: {} })
  info: Record<string, string>;

  @Column({ name: 'ip_address', type: 'varchar', length: 64, nullable: true })
  ipAddress: string | null;

  @Column({ name: 'creator_id', type: 'int', nullable: true })
  creatorId: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

/** The projects a project runner is assigned to (the first is its owner). */
@Entity('ci_runner_projects')
@Index(['runnerId', 'projectId'], { unique: true })
export class CiRunnerProjectEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'runner_id', type: 'int' })
  runnerId: number;

  @ManyToOne(() => CiRunnerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'runner_id' })
  runner?: CiRunnerEntity;

  @Column({ name: 'project_id', type: 'int' })
  @Index()
  projectId: number;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
