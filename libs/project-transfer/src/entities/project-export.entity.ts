import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** `export_status` values (GitLab's). Never rename: stored. */
export const EXPORT_STATUSES = ['none', 'queued', 'started', 'finished', 'regeneration_in_progress', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/**
 * The export of one project: the record of its state (Redis only carries the job). One row per
 * project; `generation` grows with every request, so a job of an older request is recognised
 * and dropped. The finished archive stays at `file_key` (under DATA_DIR) until `expires_at`.
 */
@Entity('project_exports')
export class ProjectExportEntity {
  @PrimaryColumn({ name: 'project_id', type: 'int' })
  projectId: number;

  @Column({ type: 'varchar', length: 30 })
  status: ExportStatus;

  @Column({ type: 'int', default: 0 })
  generation: number;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  /** `description` of the request: replaces the project's description in the archive. */
  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'upload_url', type: 'text', nullable: true })
  uploadUrl: string | null;

  @Column({ name: 'upload_method', type: 'varchar', length: 4, nullable: true })
  uploadMethod: 'PUT' | 'POST' | null;

  /** The downloadable archive (relative to the exports directory), null before the first finished export. */
  @Column({ name: 'file_key', type: 'text', nullable: true })
  fileKey: string | null;

  @Column({ name: 'file_name', type: 'varchar', length: 255, nullable: true })
  fileName: string | null;

  @Column({ name: 'file_size', type: 'bigint', nullable: true })
  fileSize: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ name: 'correlation_id', type: 'varchar', length: 128, nullable: true })
  correlationId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
