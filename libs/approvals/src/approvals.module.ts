import { Global, Module } from '@nestjs/common';
import { MERGE_REQUEST_APPROVALS } from '@app/issues';
import { ProtectedBranchesModule } from '@app/repository';
import { ApprovalEligibility } from './use-cases/approval-eligibility';
import { ApprovalRulesRepository } from './core/approval-rules.repository';
import { ApprovalsPresenter } from './approvals.presenter';
import { ApprovalsPushConsumer } from './approvals-push.consumer';
import { MergeRequestApprovalsAdapter } from './merge-request-approvals.adapter';
import { MergeRequestApprovalsController } from './merge-request-approvals.controller';
import { ProjectApprovalsController } from './project-approvals.controller';
import { ApproveMergeRequestUseCase } from './use-cases/approve-merge-request/approve-merge-request.use-case';
import { CreateMergeRequestRuleUseCase } from './use-cases/create-merge-request-rule/create-merge-request-rule.use-case';
import { CreateProjectRuleUseCase } from './use-cases/create-project-rule/create-project-rule.use-case';
import { DeleteMergeRequestRuleUseCase } from './use-cases/delete-merge-request-rule/delete-merge-request-rule.use-case';
import { DeleteProjectRuleUseCase } from './use-cases/delete-project-rule/delete-project-rule.use-case';
import { GetApprovalStatusUseCase } from './use-cases/get-approval-status/get-approval-status.use-case';
import { GetMergeRequestApprovalsUseCase } from './use-cases/get-merge-request-approvals/get-merge-request-approvals.use-case';
import { LoadApprovalContextsUseCase } from './use-cases/load-approval-contexts/load-approval-contexts.use-case';
import { ResetApprovalsUseCase } from './use-cases/reset-approvals/reset-approvals.use-case';
import { ResetApprovalsOnPushUseCase } from './use-cases/reset-approvals-on-push/reset-approvals-on-push.use-case';
import { SetApprovalsRequiredUseCase } from './use-cases/set-approvals-required/set-approvals-required.use-case';
import { SyncRuleCopiesUseCase } from './use-cases/sync-rule-copies/sync-rule-copies.use-case';
import { UnapproveMergeRequestUseCase } from './use-cases/unapprove-merge-request/unapprove-merge-request.use-case';
import { UpdateMergeRequestRuleUseCase } from './use-cases/update-merge-request-rule/update-merge-request-rule.use-case';
import { UpdateProjectApprovalsUseCase } from './use-cases/update-project-approvals/update-project-approvals.use-case';
import { UpdateProjectRuleUseCase } from './use-cases/update-project-rule/update-project-rule.use-case';

/**
 * Merge request approvals (PREMIUM): project configuration and rules, merge request rules,
 * approving, and the state that gates merging, provided to libs/issues and libs/repository as
 * `MERGE_REQUEST_APPROVALS` (hence global). Resets approvals on pushes (a domain event consumer).
 * Needs the global ConfigModule, DatabaseModule, MessagingModule and RepositoryModule.
 */
@Global()
@Module({
  imports: [ProtectedBranchesModule],
  controllers: [ProjectApprovalsController, MergeRequestApprovalsController],
  providers: [
    ApprovalRulesRepository,
    MergeRequestApprovalsAdapter,
    { provide: MERGE_REQUEST_APPROVALS, useExisting: MergeRequestApprovalsAdapter },
    ApprovalsPresenter,
    ApprovalEligibility,
    LoadApprovalContextsUseCase,
    SyncRuleCopiesUseCase,
    GetMergeRequestApprovalsUseCase,
    GetApprovalStatusUseCase,
    UpdateProjectApprovalsUseCase,
    CreateProjectRuleUseCase,
    UpdateProjectRuleUseCase,
    DeleteProjectRuleUseCase,
    ApproveMergeRequestUseCase,
    UnapproveMergeRequestUseCase,
    ResetApprovalsUseCase,
    SetApprovalsRequiredUseCase,
    CreateMergeRequestRuleUseCase,
    UpdateMergeRequestRuleUseCase,
    DeleteMergeRequestRuleUseCase,
    ResetApprovalsOnPushUseCase,
    ApprovalsPushConsumer,
  ],
  exports: [MERGE_REQUEST_APPROVALS],
})
export class ApprovalsModule {}
