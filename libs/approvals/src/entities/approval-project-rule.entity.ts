import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { ProjectEntity } from '@app/namespaces';

export type ApprovalRuleType = 'regular' | 'any_approver' | 'report_approver' | 'code_owner';

/** A project approval rule: who approves (users, members of groups) and how many approvals merge requests need. */
@Entity('approval_project_rules')
@Index('approval_project_rules_project_name_key', ['projectId', 'name'], { unique: true })
export class ApprovalProjectRuleEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id', type: 'int' })
  projectId: number;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'rule_type', type: 'varchar', length: 20 })
  ruleType: ApprovalRuleType;

  @Column({ name: 'report_type', type: 'varchar', length: 30, nullable: true })
  reportType: string | null;

  @Column({ name: 'approvals_required', type: 'int', default: 0 })
  approvalsRequired: number;

  @Column({ name: 'user_ids', type: 'int', array: true, default: () => "'{}'" })
  userIds: number[];

  @Column({ name: 'group_ids', type: 'int', array: true, default: () => "'{}'" })
  groupIds: number[];

  /** Empty: the rule applies to every target branch. */
  @Column({ name: 'protected_branch_ids', type: 'int', array: true, default: () => "'{}'" })
  protectedBranchIds: number[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
