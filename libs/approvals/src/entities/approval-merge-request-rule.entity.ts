import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { MergeRequestEntity } from '@app/issues';
import { ApprovalProjectRuleEntity, ApprovalRuleType } from './approval-project-rule.entity';

/**
 * An approval rule of one merge request: a copy of a project rule (`source_rule_id`) made when the
 * merge request was opened or retargeted, or a rule created on the merge request.
 */
@Entity('approval_merge_request_rules')
@Index('approval_merge_request_rules_mr_name_key', ['mergeRequestId', 'name'], { unique: true })
export class ApprovalMergeRequestRuleEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'merge_request_id', type: 'int' })
  mergeRequestId: number;

  @ManyToOne(() => MergeRequestEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merge_request_id' })
  mergeRequest?: MergeRequestEntity;

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

  @Column({ name: 'source_rule_id', type: 'int', nullable: true })
  @Index('approval_merge_request_rules_source_idx')
  sourceRuleId: number | null;

  @ManyToOne(() => ApprovalProjectRuleEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'source_rule_id' })
  sourceRule?: ApprovalProjectRuleEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
