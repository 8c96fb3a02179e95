import { Module } from '@nestjs/common';
import { IdentityModule } from '@app/identity';
import { NamespacesModule } from '@app/namespaces';
import { InternalIdsRepository } from './repositories/internal-ids.repository';
import { IssuesController } from './issues.controller';
import { IterationsRepository } from './repositories/iterations.repository';
import { MergeRequestsRepository } from './repositories/merge-requests.repository';
import { MilestonesRepository } from './repositories/milestones.repository';
import { IssuesRepository } from './repositories/issues.repository';
import { IterationsController } from './iterations.controller';
import { LabelsController } from './labels.controller';
import { EpicsController } from './epics.controller';
import { EpicsRepository } from './repositories/epics.repository';
import { LabelsRepository } from './repositories/labels.repository';
import { CreateEpicUseCase, DeleteEpicUseCase, UpdateEpicUseCase } from './use-cases/epic.use-cases';
import { MergeRequestsController } from './merge-requests.controller';
import { MilestonesController } from './milestones.controller';
import { IssuablesPresenter } from './presenters/issuables-presenter.service';
import { CreateIssueUseCase } from './use-cases/create-issue.use-case';
import { CreateIterationUseCase } from './use-cases/create-iteration.use-case';
import { CreateMergeRequestUseCase } from './use-cases/create-merge-request.use-case';
import { CreateMilestoneUseCase } from './use-cases/create-milestone.use-case';
import { DeleteIssueUseCase } from './use-cases/delete-issue.use-case';
import { DeleteMilestoneUseCase } from './use-cases/delete-milestone.use-case';
import { UpdateIssueUseCase } from './use-cases/update-issue.use-case';
import { UpdateMergeRequestUseCase } from './use-cases/update-merge-request.use-case';
import { UpdateMilestoneUseCase } from './use-cases/update-milestone.use-case';

const USE_CASES = [
  CreateIssueUseCase,
  UpdateIssueUseCase,
  DeleteIssueUseCase,
  CreateMilestoneUseCase,
  UpdateMilestoneUseCase,
  DeleteMilestoneUseCase,
  CreateIterationUseCase,
  CreateMergeRequestUseCase,
  UpdateMergeRequestUseCase,
  CreateEpicUseCase,
  UpdateEpicUseCase,
  DeleteEpicUseCase,
];

/**
 * Issues (incidents included), milestones, iterations and merge requests: the records whose
 * changes feed contribution and resource events. Needs the global ConfigModule, DatabaseModule
 * and MessagingModule. `CreateIssueUseCase` is exported for the alert lifecycle (incidents).
 */
@Module({
  imports: [IdentityModule, NamespacesModule],
  controllers: [IssuesController, MilestonesController, IterationsController, MergeRequestsController, LabelsController, EpicsController],
  providers: [
    ...USE_CASES,
    InternalIdsRepository,
    IssuesRepository,
    MergeRequestsRepository,
    MilestonesRepository,
    IterationsRepository,
    IssuablesPresenter,
    EpicsRepository,
    LabelsRepository,
  ],
  exports: [
    CreateIssueUseCase,
    UpdateIssueUseCase,
    UpdateMergeRequestUseCase,
    IssuesRepository,
    MergeRequestsRepository,
    MilestonesRepository,
    IterationsRepository,
    IssuablesPresenter,
    InternalIdsRepository,
    EpicsRepository,
    UpdateEpicUseCase,
    LabelsRepository,
  ],
})
export class IssuesModule {}
