import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A recovery payload (`end_time`) that matched no open alert. Accepted with 200 (a 400 makes
 * senders retry forever) and kept here for inspection.
 */
@Entity('alert_unmatched_recoveries')
@Index('alert_unmatched_recoveries_project_received_idx', ['projectId', 'receivedAt'])
export class AlertUnmatchedRecoveryEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id' })
  projectId: number;

  @Column({ name: 'integration_id', type: 'int', nullable: true })
  integrationId: number | null;

  @Column({ type: 'char', length: 40, nullable: true })
  fingerprint: string | null;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ name: 'ended_at', type: 'timestamptz' })
  endedAt: Date;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @CreateDateColumn({ name: 'received_at', type: 'timestamptz' })
  receivedAt: Date;
}
