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
export * from './entities';
export * from './git/git-cli';
export * from './git/git-repository';
export { presentCommit } from './branches/branches.service';
export * from './git-http/git-http-routes';
export * from './events/repository.events';
export * from './push/record-push.use-case';
export * from './storage/repository-storage';
export * from './repository.module';
export * from './merge/merge-merge-request.use-case';
export * from './errors/repository-error';
export * from './protected-branches';
