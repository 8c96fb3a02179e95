import { IssueEntity } from '@app/issues';
import { ProjectEntity } from '@app/namespaces';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { AlertSeverity, AlertStatus } from '../engine/alert-severity';
import { AlertHttpIntegrationEntity } from './alert-http-integration.entity';

/**
 * An alert: one or more payloads with the same fingerprint while it is not resolved.
 * `alerts_open_fingerprint_key` (hand-written in the migration) is the partial unique index
 * on (project_id, fingerprint) WHERE status <> 'resolved' that makes grouping race-free.
 */
@Entity('alerts')
@Index('alerts_project_iid_key', ['projectId', 'iid'], { unique: true })
@Index('alerts_open_fingerprint_key', { synchronize: false })
export class AlertEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id' })
  projectId: number;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  /** Per project, gap-free (allocated from `alert_iid_counters`). */
  @Column()
  iid: number;

  @Column({ name: 'integration_id', type: 'int', nullable: true })
  @Index()
  integrationId: number | null;

  @ManyToOne(() => AlertHttpIntegrationEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'integration_id' })
  integration?: AlertHttpIntegrationEntity | null;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 10 })
  severity: AlertSeverity;

  @Column({ type: 'varchar', length: 12, default: 'triggered' })
  status: AlertStatus;

  @Column({ type: 'varchar', length: 100, nullable: true })
  service: string | null;

  @Column({ name: 'monitoring_tool', type: 'varchar', length: 100, nullable: true })
  monitoringTool: string | null;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  hosts: string[];

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt: Date | null;

  @Column({ name: 'event_count', type: 'int', default: 1 })
  eventCount: number;

  @Column({ name: 'last_received_at', type: 'timestamptz' })
  lastReceivedAt: Date;

  @Column({ type: 'char', length: 40, nullable: true })
  fingerprint: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  environment: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  details: Record<string, unknown>;

  /** The linked incident's `iid` (set by the alert engine when it opens the incident). */
  @Column({ name: 'issue_iid', type: 'int', nullable: true })
  issueIid: number | null;

  /** The linked incident: one alert per issue, cleared if the issue is deleted. */
  @Column({ name: 'issue_id', type: 'int', nullable: true })
  @Index('alerts_issue_id_key', { unique: true })
  issueId: number | null;

  @ManyToOne(() => IssueEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'issue_id' })
  issue?: IssueEntity | null;

  @Column({ name: 'assignee_ids', type: 'int', array: true, default: () => "'{}'" })
  assigneeIds: number[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
