import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

// The owners' entities (identity's UserEntity, namespaces' NamespaceEntity and ProjectEntity) are
// named, not imported: this lib stands below identity and namespaces, which use its list filters.
// TypeORM resolves a relation's target by entity class name, so the foreign keys (ON DELETE
// CASCADE) stay in the schema exactly as before.

/** Columns shared by the three custom attribute tables (one per resource, as GitLab). */
abstract class CustomAttributeColumns {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  key: string;

  @Column({ type: 'varchar', length: 255 })
  value: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

@Entity('user_custom_attributes')
@Index('user_custom_attributes_user_id_key_key', ['userId', 'key'], { unique: true })
@Index('user_custom_attributes_key_value_idx', ['key', 'value'])
export class UserCustomAttributeEntity extends CustomAttributeColumns {
  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne('UserEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: unknown;
}

@Entity('group_custom_attributes')
@Index('group_custom_attributes_group_id_key_key', ['groupId', 'key'], { unique: true })
@Index('group_custom_attributes_key_value_idx', ['key', 'value'])
export class GroupCustomAttributeEntity extends CustomAttributeColumns {
  @Column({ name: 'group_id', type: 'int' })
  groupId: number;

  @ManyToOne('NamespaceEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id' })
  group?: unknown;
}

@Entity('project_custom_attributes')
@Index('project_custom_attributes_project_id_key_key', ['projectId', 'key'], { unique: true })
@Index('project_custom_attributes_key_value_idx', ['key', 'value'])
export class ProjectCustomAttributeEntity extends CustomAttributeColumns {
  @Column({ name: 'project_id', type: 'int' })
  projectId: number;

  @ManyToOne('ProjectEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: unknown;
}
