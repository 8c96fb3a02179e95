import { Global, Module } from '@nestjs/common';
import { MERGE_REQUEST_APPROVALS } from '@app/issues';
import { ProtectedBranchesModule } from '@app/repository';
import { ApprovalRulesService } from './approval-rules.service';
import { ApprovalsPresenter } from './approvals.presenter';
import { ApprovalsPushConsumer } from './approvals-push.consumer';
import { MergeRequestApprovalsController } from './merge-request-approvals.controller';
import { ProjectApprovalsController } from './project-approvals.controller';
import {
  ApprovalEligibility,
  ApproveMergeRequestUseCase,
  MergeRequestRulesUseCases,
  ResetApprovalsUseCase,
  UnapproveMergeRequestUseCase,
} from './use-cases/merge-request-approvals.use-cases';
import { CreateProjectRuleUseCase, DeleteProjectRuleUseCase, UpdateProjectApprovalsUseCase, UpdateProjectRuleUseCase } from './use-cases/project-approvals.use-cases';

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
    ApprovalRulesService,
    { provide: MERGE_REQUEST_APPROVALS, useExisting: ApprovalRulesService },
    ApprovalsPresenter,
    ApprovalEligibility,
    UpdateProjectApprovalsUseCase,
    CreateProjectRuleUseCase,
    UpdateProjectRuleUseCase,
    DeleteProjectRuleUseCase,
    ApproveMergeRequestUseCase,
    UnapproveMergeRequestUseCase,
    ResetApprovalsUseCase,
    MergeRequestRulesUseCases,
    ApprovalsPushConsumer,
  ],
  exports: [MERGE_REQUEST_APPROVALS, ApprovalRulesService],
})
export class ApprovalsModule {}
