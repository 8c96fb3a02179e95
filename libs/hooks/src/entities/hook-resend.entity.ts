import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A resend an administrator asked for (`POST /hooks/:id/events/:event_id/resend`) that has no
 * outcome yet: the record from which its job (`resend_<delivery id>_<id>`) is rebuilt when Redis
 * loses it; removed once the attempt has its outcome in the delivery log.
 */
@Entity('system_hook_resends')
@Index('system_hook_resends_created_at_idx', ['createdAt'])
export class HookResendEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'hook_id', type: 'int' })
  hookId: number;

  /** The `id` of the delivery log entry sent again. */
  @Column({ name: 'delivery_id', type: 'bigint' })
  deliveryId: string;

  /** The request that asked for it (its id goes into the attempt's log). */
  @Column({ name: 'request_id', type: 'text', nullable: true })
  requestId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
