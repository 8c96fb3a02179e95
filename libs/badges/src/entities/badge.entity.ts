import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { NamespaceEntity, ProjectEntity } from '@app/namespaces';

export type BadgeKind = 'project' | 'group';

/** A badge of a project (`project_id`) or of a group (`group_id`, shown on every project below it). */
@Entity('badges')
export class BadgeEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 10 })
  kind: BadgeKind;

  @Column({ name: 'project_id', type: 'int', nullable: true })
  @Index()
  projectId: number | null;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  @Column({ name: 'group_id', type: 'int', nullable: true })
  @Index()
  groupId: number | null;

  @ManyToOne(() => NamespaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id' })
  group?: NamespaceEntity;

  @Column({ type: 'varchar', length: 255, nullable: true })
  name: string | null;

  @Column({ name: 'link_url', type: 'varchar', length: 2048 })
  linkUrl: string;

  @Column({ name: 'image_url', type: 'varchar', length: 2048 })
  imageUrl: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
