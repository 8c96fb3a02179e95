import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { MergeRequestEntity } from '@app/issues';

/** Per merge request: whether its rules were overwritten through the merge request API, and the deprecated `approvals_required`. */
@Entity('merge_request_approval_states')
export class MergeRequestApprovalStateEntity {
  @PrimaryColumn({ name: 'merge_request_id', type: 'int' })
  mergeRequestId: number;

  @OneToOne(() => MergeRequestEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merge_request_id' })
  mergeRequest?: MergeRequestEntity;

  /** True once a rule was created, changed or removed on the merge request: project rule changes no longer reach it. */
  @Column({ name: 'rules_overwritten', default: false })
  rulesOverwritten: boolean;

  /** `POST …/approvals` (deprecated): a floor on the number of approvals of this merge request. */
  @Column({ name: 'approvals_before_merge', type: 'int', nullable: true })
  approvalsBeforeMerge: number | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
