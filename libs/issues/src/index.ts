// libs/issues is built as one-way slices (docs/ci.md "Code layout"): a folder imports only the
// folders below it, and nothing in a folder imports the files directly in src/ (this index, the
// module and the controllers, which compose them):
//
//   use-cases/                                 issue, merge request, milestone, iteration and epic writes
//   presenters/                                the issuable views (`IssuablesPresenter`)
//   repositories/                              the SQL of the lib
//   relations/                                 milestones, iterations, labels and state events of issuables
//   ports/ events/ dto/ entities/              tokens implemented by other libs, domain events, the core
//
// Check: `node scripts/folder-cycles.mjs issues`.
//
// Other libs, the apps and the tests use these names only.
export { EpicEntity, InternalIdEntity, IssueEntity, IterationEntity, LabelEntity, MergeRequestEntity, MilestoneEntity } from './entities';
export type { IssueSeverity } from './entities';
export { ISSUES_EVENTS, iterationSnapshot, mergeRequestAttributes, mergeRequestEvent, milestoneSnapshot } from './events/issues.events';
export type { IterationSnapshot, MilestoneSnapshot } from './events/issues.events';
export { IssuesModule } from './issues.module';
export { confidentialIssueReadableSql, IssuesRepository } from './repositories/issues.repository';
export { IterationsRepository } from './repositories/iterations.repository';
export { MergeRequestsRepository } from './repositories/merge-requests.repository';
export { MilestonesRepository } from './repositories/milestones.repository';
export { IssuablesPresenter } from './presenters/issuables-presenter.service';
export { presentIterationSnapshot } from './presenters/iteration.presenter';
export { presentMilestoneSnapshot } from './presenters/milestone.presenter';
export { CreateIssueUseCase } from './use-cases/create-issue.use-case';
export type { CreateIssueCommand } from './use-cases/create-issue.use-case';
export { UpdateIssueUseCase } from './use-cases/update-issue.use-case';
export { MERGE_REQUEST_GIT } from './ports/merge-request-git';
export type { MergeRequestGit, MergeRequestGitStatus } from './ports/merge-request-git';
export { MERGE_REQUEST_APPROVALS } from './ports/merge-request-approvals';
export type { MergeRequestApprovals } from './ports/merge-request-approvals';
export { UpdateMergeRequestUseCase } from './use-cases/update-merge-request.use-case';
export { InternalIdsRepository } from './repositories/internal-ids.repository';
export { EpicsRepository } from './repositories/epics.repository';
export { UpdateEpicUseCase } from './use-cases/epic.use-cases';
export { LabelsRepository } from './repositories/labels.repository';
