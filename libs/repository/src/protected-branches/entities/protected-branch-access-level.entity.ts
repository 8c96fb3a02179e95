import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '@app/identity';
import { NamespaceEntity } from '@app/namespaces';
import type { ProtectedBranchAction } from '../branch-permissions';
import { ProtectedBranchEntity } from './protected-branch.entity';

/**
 * One entry of a rule's push, merge or unprotect list: a role (`access_level`), a user or a
 * group (exactly one is set). Entries of removed users and groups go with them.
 */
@Entity('protected_branch_access_levels')
export class ProtectedBranchAccessLevelEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'protected_branch_id' })
  @Index()
  protectedBranchId: number;

  @ManyToOne(() => ProtectedBranchEntity, (branch) => branch.accessLevels, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'protected_branch_id' })
  protectedBranch?: ProtectedBranchEntity;

  @Column({ type: 'varchar', length: 10 })
  action: ProtectedBranchAction;

  @Column({ name: 'access_level', type: 'int', nullable: true })
  accessLevel: number | null;

  @Column({ name: 'user_id', type: 'int', nullable: true })
  @Index()
  userId: number | null;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ name: 'group_id', type: 'int', nullable: true })
  @Index()
  groupId: number | null;

  @ManyToOne(() => NamespaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id' })
  group?: NamespaceEntity;
}
