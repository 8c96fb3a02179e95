import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** OAuth 2.0 access token with its refresh token; both stored as SHA-256 digests. */
@Entity('oauth_access_tokens')
export class OAuthTokenEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id' })
  @Index()
  userId: number;

  @Column({ name: 'token_digest', type: 'char', length: 64, unique: true })
  tokenDigest: string;

  @Column({ name: 'refresh_token_digest', type: 'char', length: 64, unique: true })
  refreshTokenDigest: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  scopes: string[];

  @Column({ name: 'expires_in', type: 'int' })
  expiresIn: number;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
