import { Injectable } from '@nestjs/common';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';

/** A push of new commits to a branch of a project, at the time of the push. */
export interface PushedBranch {
  projectId: number;
  branch: string;
  occurredAt: Date;
}

/**
 * `reset_approvals_on_push`: a push of new commits to the source branch of open merge requests
 * removes their approvals (as GitLab, without approval events or hooks). Only approvals given
 * before the push are removed, so a late redelivery never removes a newer one.
 */
@Injectable()
export class ResetApprovalsOnPushUseCase {
  constructor(private readonly repository: ApprovalRulesRepository) {}

  async execute(push: PushedBranch): Promise<void> {
    await this.repository.deleteApprovalsOnPush({ projectId: push.projectId, branch: push.branch, before: push.occurredAt });
  }
}
