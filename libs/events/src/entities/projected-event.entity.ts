import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Domain events the projector has handled (projected or skipped), written in the same
 * transaction as their projection: a redelivered event finds its id here and changes nothing.
 */
@Entity('projected_events')
export class ProjectedEventEntity {
  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId: string;

  @Column({ type: 'varchar', length: 255 })
  type: string;

  @Column({ name: 'projected_at', type: 'timestamptz', default: () => 'now()' })
  projectedAt: Date;
}
