import { ProjectEntity } from '@app/namespaces';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { AttributeMapping } from '../engine/attribute-mapping';

/** Integration types (GitLab's `type_identifier`): which payload format the notify endpoint reads. */
export const ALERT_INTEGRATION_TYPES = ['http', 'prometheus'] as const;
export type AlertIntegrationType = (typeof ALERT_INTEGRATION_TYPES)[number];

/** An HTTP endpoint integration: where a monitoring tool posts alerts for a project, and with which key. */
@Entity('alert_http_integrations')
@Index('alert_http_integrations_project_name_key', ['projectId', 'name'], { unique: true })
@Index('alert_http_integrations_project_endpoint_key', ['projectId', 'endpointIdentifier'], { unique: true })
@Index('alert_http_integrations_one_prometheus_key', ['projectId'], { unique: true, where: "type = 'prometheus'" })
export class AlertHttpIntegrationEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id' })
  projectId: number;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** Random, part of the notify URL. */
  @Column({ name: 'endpoint_identifier', type: 'varchar', length: 32 })
  endpointIdentifier: string;

  /** `http` (the generic payload) or `prometheus` (Alertmanager's webhook payload); set at creation. */
  @Column({ type: 'varchar', length: 20, default: 'http' })
  type: AlertIntegrationType;

  @Column({ default: true })
  active: boolean;

  /** SHA-256 hex of the authorization key (the key itself is shown once). */
  @Column({ name: 'token_digest', type: 'char', length: 64, select: false })
  tokenDigest: string;

  /** Sample payload (JSON text) the custom mapping was made from. */
  @Column({ name: 'payload_example', type: 'text', nullable: true })
  payloadExample: string | null;

  @Column({ name: 'payload_attribute_mappings', type: 'jsonb', default: () => "'[]'" })
  payloadAttributeMappings: AttributeMapping[];

  @Column({ name: 'create_incident', default: false })
  createIncident: boolean;

  @Column({ name: 'auto_close_incident', default: true })
  autoCloseIncident: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
