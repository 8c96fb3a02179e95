import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type Visibility = 'private' | 'internal' | 'public';
export const VISIBILITIES: readonly Visibility[] = ['private', 'internal', 'public'];
export const VISIBILITY_LEVEL: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };

/** A user's personal namespace or a group (with subgroups through `parent_id`). */
@Entity('namespaces')
@Index('namespaces_full_path_lower_key', { synchronize: false })
export class NamespaceEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 255 })
  path: string;

  @Column({ name: 'full_path', type: 'varchar', length: 2048 })
  fullPath: string;

  @Column({ name: 'full_name', type: 'varchar', length: 2048 })
  fullName: string;

  @Column({ type: 'varchar', length: 10 })
  kind: 'user' | 'group';

  @Column({ name: 'parent_id', type: 'int', nullable: true })
  @Index()
  parentId: number | null;

  /** Ids of the ancestors, root first, ending with this namespace's own id. */
  @Column({ name: 'traversal_ids', type: 'int', array: true, default: () => "'{}'" })
  traversalIds: number[];

  @Column({ name: 'owner_id', type: 'int', nullable: true })
  @Index()
  ownerId: number | null;

  @Column({ type: 'varchar', length: 2000, default: '' })
  description: string;

  @Column({ type: 'varchar', length: 10, default: 'private' })
  visibility: Visibility;

  /** Further group settings (GitLab group attributes we store but do not act on). */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
