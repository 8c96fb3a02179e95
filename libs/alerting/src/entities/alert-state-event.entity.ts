import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { AlertStatus } from '../engine/alert-severity';
import { AlertEntity } from './alert.entity';

/**
 * A change of an alert's status (the alert's resource state event): a recovery resolving it
 * (`user_id` null) or a user changing it. Recorded by the alert engine from the alert domain
 * events, once per event (`source_event_id`).
 */
@Entity('alert_state_events')
@Index('alert_state_events_alert_idx', ['alertId', 'id'])
@Index('alert_state_events_source_event_key', ['sourceEventId'], { unique: true })
export class AlertStateEventEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'alert_id' })
  alertId: number;

  @ManyToOne(() => AlertEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'alert_id' })
  alert?: AlertEntity;

  /** The user who changed the status; null when a recovery payload resolved the alert. */
  @Column({ name: 'user_id', type: 'int', nullable: true })
  userId: number | null;

  @Column({ type: 'varchar', length: 12 })
  state: AlertStatus;

  @Column({ name: 'previous_state', type: 'varchar', length: 12, nullable: true })
  previousState: AlertStatus | null;

  /** The domain event it was recorded from. */
  @Column({ name: 'source_event_id', type: 'uuid' })
  sourceEventId: string;

  /** When the change happened (the event's `occurred_at`). */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
