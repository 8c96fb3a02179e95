import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';
import { UpdateProjectApprovalsDto } from '../../dto/approvals.dto';
import { ApprovalProjectSettingsEntity } from '../../entities';

/** `POST /projects/:id/approvals`: only the given attributes change. */
@Injectable()
export class UpdateProjectApprovalsUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ApprovalRulesRepository,
  ) {}

  execute(projectId: number, dto: UpdateProjectApprovalsDto): Promise<ApprovalProjectSettingsEntity> {
    return this.dataSource.transaction(async (tx) => {
      const settings = await this.repository.settingsOf(projectId, tx);
      if (dto.approvals_before_merge !== undefined) {
        await this.repository.setProjectApprovalsBeforeMerge(tx, projectId, dto.approvals_before_merge);
        settings.approvalsBeforeMerge = dto.approvals_before_merge;
      }
      if (dto.reset_approvals_on_push !== undefined) settings.resetApprovalsOnPush = dto.reset_approvals_on_push;
      if (dto.disable_overriding_approvers_per_merge_request !== undefined)
        settings.disableOverridingApproversPerMergeRequest = dto.disable_overriding_approvers_per_merge_request;
      if (dto.merge_requests_author_approval !== undefined) settings.mergeRequestsAuthorApproval = dto.merge_requests_author_approval;
      if (dto.merge_requests_disable_committers_approval !== undefined)
        settings.mergeRequestsDisableCommittersApproval = dto.merge_requests_disable_committers_approval;
      if (dto.require_password_to_approve !== undefined) settings.requirePasswordToApprove = dto.require_password_to_approve;
      return this.repository.saveSettings(tx, settings);
    });
  }
}
