// libs/approvals: folders import only the folders below them, from the top down:
//   use-cases/ -> core/ (approval state, rule copies, events, ApprovalRulesRepository) -> dto/, entities/
// The files directly in src/ (this index, the module, ...) compose them and are imported by none.
// Check: `node scripts/folder-cycles.mjs approvals`.
export * from './entities';
export * from './core/approval-state';
export * from './core/approvals.events';
export * from './approvals.module';
export * from './approvals-push.consumer';
