import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Transactional outbox: a domain event written in the same transaction as the state
 * change it describes; the relay publishes it to Kafka and stamps `published_at`.
 */
@Entity('outbox_events')
@Index('outbox_events_unpublished_idx', ['seq'], { where: 'published_at IS NULL' })
export class OutboxEventEntity {
  /** Monotonic order of insertion (bigserial). */
  @Column({ type: 'bigint', generated: 'increment', unique: true })
  seq: string;

  /** The envelope id (uuid). */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  topic: string;

  @Column({ name: 'message_key', type: 'varchar', length: 255 })
  messageKey: string;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  headers: Record<string, string>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt: Date | null;

  @Column({ type: 'int', default: 0 })
  attempts: number;
}
