import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A domain event the alert engine has acted on, written in the same transaction as its side
 * effect (incident opened or closed): a redelivered event finds its id here and is skipped.
 */
@Entity('alert_engine_processed_events')
export class ProcessedAlertEventEntity {
  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId: string;

  @Column({ name: 'event_type', type: 'varchar', length: 100 })
  eventType: string;

  @CreateDateColumn({ name: 'processed_at', type: 'timestamptz' })
  processedAt: Date;
}
