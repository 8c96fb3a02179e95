import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/**
 * Personal, impersonation, project and group access tokens. Project and group tokens
 * belong to a bot user that is a member of the resource (as in GitLab). Only a SHA-256
 * digest of the token is stored.
 */
@Entity('access_tokens')
export class AccessTokenEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id' })
  @Index()
  userId: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  description: string | null;

  @Column({ name: 'token_digest', type: 'char', length: 64, unique: true, select: false })
  tokenDigest: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  scopes: string[];

  @Column({ name: 'expires_at', type: 'date', nullable: true })
  expiresAt: string | null;

  @Column({ default: false })
  revoked: boolean;

  @Column({ default: false })
  impersonation: boolean;

  /** `personal` or, for bot tokens, the resource kind: `project` / `group`. */
  @Column({ name: 'resource_type', type: 'varchar', length: 20, default: 'personal' })
  resourceType: 'personal' | 'project' | 'group';

  @Column({ name: 'resource_id', type: 'int', nullable: true })
  resourceId: number | null;

  @Column({ name: 'access_level', type: 'int', nullable: true })
  accessLevel: number | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
