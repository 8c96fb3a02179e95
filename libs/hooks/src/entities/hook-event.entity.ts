import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A domain event that system hooks receive: its body, built once and stored once (the delivery
 * log's rows reference it), and the record of its fan-out. A row whose `fannedOutAt` is null
 * still owes first attempts to the hooks of `hookIds`: the queue is rebuilt from these rows when
 * Redis loses its jobs. Kept as long as the delivery log.
 */
@Entity('system_hook_events')
@Index('system_hook_events_pending_idx', ['createdAt'], { where: 'fanned_out_at IS NULL' })
@Index('system_hook_events_created_at_idx', ['createdAt'])
export class HookEventEntity {
  /** The domain event's id. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  trigger: string;

  /** The JSON body every hook receives. */
  @Column({ type: 'text' })
  body: string;

  @Column({ name: 'occurred_at', type: 'timestamptz', nullable: true })
  occurredAt: Date | null;

  /** Loop protection: `X-Service-Event-UUID` and the depth of the deliveries in their chain. */
  @Column({ name: 'chain_id', type: 'varchar', length: 64 })
  chainId: string;

  @Column({ name: 'chain_depth', type: 'int' })
  chainDepth: number;

  /** The hooks subscribed when the event was dispatched. */
  @Column({ name: 'hook_ids', type: 'int', array: true })
  hookIds: number[];

  /** The BullMQ fan-out job that carries the event's first attempts. */
  @Column({ name: 'job_id', type: 'varchar', length: 80 })
  jobId: string;

  /** When every first attempt had its outcome recorded (null: the fan-out is still owed). */
  @Column({ name: 'fanned_out_at', type: 'timestamptz', nullable: true })
  fannedOutAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
