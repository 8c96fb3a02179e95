import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type UserState = 'active' | 'blocked' | 'deactivated';
export type UserType = 'human' | 'project_bot' | 'group_bot';

@Entity('users')
@Index('users_username_lower_key', { synchronize: false })
@Index('users_email_lower_key', { synchronize: false })
export class UserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  username: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 255 })
  email: string;

  @Column({ type: 'varchar', length: 20, default: 'active' })
  state: UserState;

  @Column({ name: 'user_type', type: 'varchar', length: 20, default: 'human' })
  userType: UserType;

  @Column({ name: 'is_admin', default: false })
  isAdmin: boolean;

  @Column({ name: 'password_digest', type: 'varchar', length: 255, nullable: true, select: false })
  passwordDigest: string | null;

  @Column({ type: 'varchar', length: 255, default: '' })
  bio: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  location: string;

  @Column({ name: 'public_email', type: 'varchar', length: 255, default: '' })
  publicEmail: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  skype: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  linkedin: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  twitter: string;

  @Column({ name: 'website_url', type: 'varchar', length: 255, default: '' })
  websiteUrl: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  organization: string;

  @Column({ name: 'job_title', type: 'varchar', length: 255, default: '' })
  jobTitle: string;

  @Column({ name: 'private_profile', default: false })
  privateProfile: boolean;

  @Column({ default: false })
  external: boolean;

  @Column({ name: 'can_create_group', default: true })
  canCreateGroup: boolean;

  @Column({ name: 'projects_limit', type: 'int', default: 100000 })
  projectsLimit: number;

  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true })
  confirmedAt: Date | null;

  /** Wrong passwords since the last successful sign-in (Devise `lockable`). */
  @Column({ name: 'failed_attempts', type: 'int', default: 0 })
  failedAttempts: number;

  /** When the account was locked after too many wrong passwords; see `isAccessLocked`. */
  @Column({ name: 'locked_at', type: 'timestamptz', nullable: true })
  lockedAt: Date | null;

  @Column({ name: 'last_activity_on', type: 'date', nullable: true })
  lastActivityOn: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
