import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { HookEventEntity } from './hook-event.entity';

/** Outcome classes of a delivery attempt, the `status` filter of `GET /hooks/:id/events`. */
export const HOOK_DELIVERY_STATUSES = ['successful', 'client_failure', 'server_failure', 'skipped'] as const;
export type HookDeliveryStatus = (typeof HOOK_DELIVERY_STATUSES)[number];

/**
 * One delivery attempt of a system hook (or one event the hook did not receive: `skipped`).
 * Kept 14 days. Secrets never stored: the token and the signature are redacted from the
 * request headers and credentials are stripped from the URL.
 */
@Entity('system_hook_deliveries')
@Index('system_hook_deliveries_hook_id_idx', ['hookId', 'id'])
@Index('system_hook_deliveries_created_at_idx', ['createdAt'])
export class HookDeliveryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'hook_id', type: 'int' })
  hookId: number;

  /** The domain event delivered (null for a test delivery). */
  @Column({ name: 'event_id', type: 'uuid', nullable: true })
  eventId: string | null;

  /** The event name (`project_create`, `push`, ...). */
  @Column({ type: 'varchar', length: 255 })
  trigger: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ name: 'request_headers', type: 'jsonb' })
  requestHeaders: Record<string, string>;

  /** The body sent; null when it is the event's, stored once in `system_hook_events` (`event`). */
  @Column({ name: 'request_body', type: 'text', nullable: true })
  requestBody: string | null;

  /** The event whose body was sent (no foreign key: rows are written in bulk and pruned apart). */
  @ManyToOne(() => HookEventEntity, { createForeignKeyConstraints: false, nullable: true })
  @JoinColumn({ name: 'event_id' })
  event?: HookEventEntity | null;

  @Column({ name: 'response_status', type: 'int', nullable: true })
  responseStatus: number | null;

  @Column({ name: 'response_headers', type: 'jsonb', nullable: true })
  responseHeaders: Record<string, string> | null;

  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  @Column({ type: 'varchar', length: 20 })
  status: HookDeliveryStatus;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** Milliseconds from the first byte sent to the last byte received (0 when not sent). */
  @Column({ name: 'duration_ms', type: 'int', default: 0 })
  durationMs: number;

  /** Same for every attempt and resend of one (event, hook). */
  @Column({ name: 'idempotency_key', type: 'uuid' })
  idempotencyKey: string;

  /** `X-Service-Webhook-UUID` of the attempt (new per attempt). */
  @Column({ name: 'webhook_uuid', type: 'uuid', nullable: true })
  webhookUuid: string | null;

  /** 1 for the first attempt of a job, 2 for its first retry... */
  @Column({ type: 'int', default: 1 })
  attempt: number;

  /** When the event was committed, for the delivery delay. */
  @Column({ name: 'event_occurred_at', type: 'timestamptz', nullable: true })
  eventOccurredAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
