// libs/approvals: folders import only the folders below them, from the top down:
//   use-cases/ -> core/ (approval state, rule copies, events, ApprovalRulesRepository) -> dto/, entities/
// The files directly in src/ (this index, the module, ...) compose them and are imported by none.
// Check: `node scripts/folder-cycles.mjs approvals`.
//
// Other libs, the apps and the tests use these names only.
export { APPROVALS_ENTITIES } from './entities';
export { ApprovalsModule } from './approvals.module';
export { ApprovalsPushConsumer } from './approvals-push.consumer';
