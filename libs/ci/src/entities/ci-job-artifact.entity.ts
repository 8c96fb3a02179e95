import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { CiJobEntity } from './ci-job.entity';

/**
 * A file of a job kept in object storage: the archive, its metadata, a report (junit, sast, …)
 * or the archived trace. `storage_key` names the object; the bytes never live in PostgreSQL.
 */
@Entity('ci_job_artifacts')
@Index(['jobId', 'fileType'], { unique: true })
@Index('IDX_ci_job_artifacts_expiring', ['expireAt'], { where: 'expire_at IS NOT NULL' })
export class CiJobArtifactEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'job_id', type: 'int' })
  jobId: number;

  @ManyToOne(() => CiJobEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'job_id' })
  job?: CiJobEntity;

  @Column({ name: 'project_id', type: 'int' })
  @Index()
  projectId: number;

  /** `archive`, `metadata`, `trace`, `junit`, `sast`, … */
  @Column({ name: 'file_type', type: 'varchar', length: 40 })
  fileType: string;

  /** `zip`, `gzip` or `raw`. */
  @Column({ name: 'file_format', type: 'varchar', length: 10 })
  fileFormat: string;

  @Column({ type: 'varchar', length: 255 })
  filename: string;

  @Column({ type: 'bigint' })
  size: string;

  @Column({ name: 'file_sha256', type: 'varchar', length: 64, nullable: true })
  fileSha256: string | null;

  @Column({ name: 'storage_key', type: 'varchar', length: 512 })
  storageKey: string;

  @Column({ name: 'expire_at', type: 'timestamptz', nullable: true })
  expireAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
