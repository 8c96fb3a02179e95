import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
