import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { NamespaceEntity, Visibility } from './namespace.entity';

/** What the encrypted runners token is bound to (its AES-GCM associated data). */
export const RUNNERS_TOKEN_PURPOSE = 'projects.runners_token';

@Entity('projects')
@Index('projects_namespace_path_lower_key', { synchronize: false })
@Index('projects_namespace_name_lower_key', { synchronize: false })
export class ProjectEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 255 })
  path: string;

  @Column({ name: 'namespace_id' })
  @Index()
  namespaceId: number;

  @ManyToOne(() => NamespaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'namespace_id' })
  namespace?: NamespaceEntity;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 10, default: 'private' })
  visibility: Visibility;

  @Column({ name: 'creator_id', type: 'int', nullable: true })
  creatorId: number | null;

  @Column({ name: 'default_branch', type: 'varchar', length: 255, nullable: true })
  defaultBranch: string | null;

  @Column({ default: false })
  archived: boolean;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  topics: string[];

  @Column({ name: 'issues_enabled', default: true })
  issuesEnabled: boolean;

  @Column({ name: 'merge_requests_enabled', default: true })
  mergeRequestsEnabled: boolean;

  @Column({ name: 'merge_method', type: 'varchar', length: 20, default: 'merge' })
  mergeMethod: 'merge' | 'rebase_merge' | 'ff';

  /** Remaining GitLab project attributes, with defaults applied when read. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings: Record<string, unknown>;

  @Column({ name: 'runners_token_digest', type: 'char', length: 64, nullable: true, select: false })
  runnersTokenDigest: string | null;

  /** The runners token, encrypted (`RUNNERS_TOKEN_PURPOSE`); shown to maintainers and administrators. Null for projects created before it was kept. */
  @Column({ name: 'encrypted_runners_token', type: 'text', nullable: true, select: false })
  encryptedRunnersToken: string | null;

  @Column({ name: 'star_count', type: 'int', default: 0 })
  starCount: number;

  @Column({ name: 'forks_count', type: 'int', default: 0 })
  forksCount: number;

  @Column({ name: 'open_issues_count', type: 'int', default: 0 })
  openIssuesCount: number;

  /** Timestamps of projects keep milliseconds (precision 3) so that keyset cursors carry them exactly. */
  @Column({ name: 'last_activity_at', type: 'timestamptz', precision: 3, default: () => 'now()' })
  lastActivityAt: Date;

  @Column({ name: 'marked_for_deletion_on', type: 'date', nullable: true })
  markedForDeletionOn: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
