import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ProjectEntity } from '@app/namespaces';

/** A project's approval configuration (`/projects/:id/approvals`); a project without a row has GitLab's defaults. */
@Entity('approval_project_settings')
export class ApprovalProjectSettingsEntity {
  @PrimaryColumn({ name: 'project_id', type: 'int' })
  projectId: number;

  @OneToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  /**
   * Deprecated since 12.0: a floor on the number of approvals of every merge request. Not a
   * column: it is the project attribute `approvals_before_merge` (projects.settings, also set by
   * `PUT /projects/:id` and shown in the project record), filled in by `ApprovalRulesRepository.settingsOf`.
   */
  approvalsBeforeMerge: number;

  @Column({ name: 'reset_approvals_on_push', default: true })
  resetApprovalsOnPush: boolean;

  @Column({ name: 'disable_overriding_approvers_per_merge_request', default: false })
  disableOverridingApproversPerMergeRequest: boolean;

  @Column({ name: 'merge_requests_author_approval', default: false })
  mergeRequestsAuthorApproval: boolean;

  @Column({ name: 'merge_requests_disable_committers_approval', default: false })
  mergeRequestsDisableCommittersApproval: boolean;

  @Column({ name: 'require_password_to_approve', default: false })
  requirePasswordToApprove: boolean;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
