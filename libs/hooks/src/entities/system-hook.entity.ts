import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const HOOK_ALERT_STATUSES = ['executable', 'temporarily_disabled', 'disabled'] as const;
export type HookAlertStatus = (typeof HOOK_ALERT_STATUSES)[number];

/**
 * An instance-wide hook registered by an administrator (`/hooks`). The token is kept
 * encrypted (AES-256-GCM, see `HookTokenCipher`): deliveries need it in clear to send it
 * and to sign with it, and it is never returned.
 */
@Entity('system_hooks')
export class SystemHookEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ name: 'encrypted_token', type: 'text', nullable: true, select: false })
  encryptedToken: string | null;

  @Column({ name: 'push_events', default: false })
  pushEvents: boolean;

  @Column({ name: 'tag_push_events', default: false })
  tagPushEvents: boolean;

  @Column({ name: 'merge_requests_events', default: false })
  mergeRequestsEvents: boolean;

  @Column({ name: 'repository_update_events', default: true })
  repositoryUpdateEvents: boolean;

  @Column({ name: 'enable_ssl_verification', default: true })
  enableSslVerification: boolean;

  /** Delivery health: `executable`, `temporarily_disabled` (until `disabledUntil`) or `disabled`. */
  @Column({ name: 'alert_status', type: 'varchar', length: 32, default: 'executable' })
  alertStatus: HookAlertStatus;

  @Column({ name: 'disabled_until', type: 'timestamptz', nullable: true })
  disabledUntil: Date | null;

  /** Consecutive failed delivery attempts (reset by a success). */
  @Column({ name: 'recent_failures', type: 'int', default: 0 })
  recentFailures: number;

  /** How many times in a row the hook was disabled temporarily (the period doubles each time). */
  @Column({ name: 'backoff_count', type: 'int', default: 0 })
  backoffCount: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
