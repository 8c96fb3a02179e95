import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type SecurityScanStatus = 'succeeded' | 'report_error';

/**
 * One security report of one job of a pipeline, as ingested: `succeeded` with the number of
 * findings, or `report_error` with the parse errors (GitLab's `security_scans`). Re-ingesting a
 * pipeline replaces its rows.
 */
@Entity('security_scans')
@Index(['jobId', 'scanType'], { unique: true })
@Index(['projectId', 'pipelineId'])
export class SecurityScanEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id', type: 'int' })
  projectId: number;

  @Column({ name: 'pipeline_id', type: 'int' })
  pipelineId: number;

  @Column({ name: 'job_id', type: 'int' })
  jobId: number;

  @Column({ name: 'scan_type', type: 'varchar', length: 40 })
  scanType: string;

  @Column({ type: 'varchar', length: 20 })
  status: SecurityScanStatus;

  /** Parse errors (`report_error`): `[{type: 'ParsingError', message}]`. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  errors: Array<{ type: string; message: string }>;

  /** Findings left out of a parsed report, with why. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  warnings: Array<{ type: string; message: string }>;

  @Column({ name: 'findings_count', type: 'int', default: 0 })
  findingsCount: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
