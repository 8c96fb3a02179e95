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
export * from './entities';
export * from './events/issues.events';
export * from './issues.module';
export * from './repositories/issues.repository';
export * from './repositories/iterations.repository';
export * from './repositories/merge-requests.repository';
export * from './repositories/milestones.repository';
export * from './presenters/issuables-presenter.service';
export * from './presenters/iteration.presenter';
export * from './presenters/milestone.presenter';
export * from './use-cases/create-issue.use-case';
export * from './use-cases/update-issue.use-case';
export * from './ports/merge-request-git';
export * from './ports/merge-request-approvals';
export * from './use-cases/update-merge-request.use-case';
export * from './repositories/internal-ids.repository';
export * from './events/epics.events';
export * from './repositories/epics.repository';
export * from './use-cases/epic.use-cases';
export * from './repositories/labels.repository';
export * from './repositories/milestones.repository';
export * from './repositories/merge-requests.repository';
