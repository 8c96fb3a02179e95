import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** `import_status` values (GitLab's). Never rename: stored. */
export const IMPORT_STATUSES = ['none', 'scheduled', 'started', 'finished', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/**
 * The import of one project from a GitLab export archive: the record of its state. The
 * archive waits at `file_key` (under DATA_DIR) until the job has run; what the job needs to
 * run again after Redis lost it is all here.
 */
@Entity('project_import_states')
export class ProjectImportStateEntity {
  @PrimaryColumn({ name: 'project_id', type: 'int' })
  projectId: number;

  @Column({ type: 'varchar', length: 20 })
  status: ImportStatus;

  @Column({ name: 'import_type', type: 'varchar', length: 40, default: 'gitlab_project' })
  importType: string;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @Column({ name: 'correlation_id', type: 'varchar', length: 128, nullable: true })
  correlationId: string | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** The uploaded archive, relative to the imports directory; null once consumed. */
  @Column({ name: 'file_key', type: 'text', nullable: true })
  fileKey: string | null;

  /** `remote-import`: the address the archive is fetched from by the job (through the outbound rules). */
  @Column({ name: 'source_url', type: 'text', nullable: true })
  sourceUrl: string | null;

  /** Project fields given with the request: they win over the archive's. */
  @Column({ name: 'override_params', type: 'jsonb', default: () => "'{}'" })
  overrideParams: Record<string, unknown>;

  /** `overwrite=true`: the project this import replaces when it finishes, and the path it takes. */
  @Column({ name: 'replaces_project_id', type: 'int', nullable: true })
  replacesProjectId: number | null;

  @Column({ name: 'final_path', type: 'varchar', length: 255, nullable: true })
  finalPath: string | null;

  @Column({ name: 'final_name', type: 'varchar', length: 255, nullable: true })
  finalName: string | null;

  /** Relations found in the archive that this service does not keep: name → lines skipped. */
  @Column({ name: 'skipped_relations', type: 'jsonb', default: () => "'{}'" })
  skippedRelations: Record<string, number>;

  /**
   * How many times the job started this import. A run ends by recording `finished` or `failed`;
   * a start that finds the import still `started` follows a run whose process ended under it.
   * The job starts an import at most `MAX_IMPORT_STARTS` times (the first run and one retry).
   */
  @Column({ type: 'int', default: 0 })
  attempts: number;

  /** The work directory (key under DATA_DIR/project-transfer) of the run under way; removed by the next start if that run died. */
  @Column({ name: 'work_key', type: 'text', nullable: true })
  workKey: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
