import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, OneToMany, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { ProjectEntity } from '@app/namespaces';
import { ProtectedBranchAccessLevelEntity } from './protected-branch-access-level.entity';

/** A protection rule of a project: an exact branch name or a wildcard (`release/*`). */
@Entity('protected_branches')
@Index('protected_branches_project_name_key', ['projectId', 'name'], { unique: true })
export class ProtectedBranchEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id' })
  projectId: number;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'allow_force_push', default: false })
  allowForcePush: boolean;

  @Column({ name: 'code_owner_approval_required', default: false })
  codeOwnerApprovalRequired: boolean;

  @OneToMany(() => ProtectedBranchAccessLevelEntity, (level) => level.protectedBranch)
  accessLevels?: ProtectedBranchAccessLevelEntity[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
