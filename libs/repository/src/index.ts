// libs/repository is built as one-way slices (docs/ci.md "Code layout"): a folder imports only the
// folders below it, and nothing in a folder imports the files directly in src/ (this index, the
// module and the project repositories, which compose them):
//
//   branches/  merge/  git-http/               branch routes and writes; merging; Git over HTTP
//   push/                                      recording pushes (events, languages refresh)
//   protected-branches/  languages/            branch protection (its own module); repository languages
//   events/ storage/ errors/ dto/ entities/ git/   push events, repositories on disk, the core
//
// Check: `node scripts/folder-cycles.mjs repository`.
//
// Other libs, the apps and the tests use these names only.
export { REPOSITORY_ENTITIES } from './entities';
export { runGit } from './git/git-cli';
export { OBJECT_ID_PATTERN, ZERO_SHA } from './git/git-repository';
export type { GitCommit } from './git/git-repository';
export { presentCommit } from './branches/branches.service';
export { GIT_HTTP_ROUTES } from './git-http/git-http-routes';
export { pushOf } from './events/repository.events';
export type { Push } from './events/repository.events';
export { RepositoryStorage } from './storage/repository-storage';
export { RepositoryModule } from './repository.module';
export { MergeMergeRequestUseCase } from './merge/merge-merge-request.use-case';
export { RepositoryErrorFilter } from './errors/repository-error';
export {
  matchesBranch,
  presentProtectedBranch,
  PROTECTED_BRANCH_ENTITIES,
  ProtectedBranchAccessLevelEntity,
  ProtectedBranchEntity,
  ProtectedBranchesModule,
  ProtectedBranchesRepository,
  ProtectedBranchesService,
} from './protected-branches';
export type { NewGrant } from './protected-branches';
