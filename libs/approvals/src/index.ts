export * from './entities';
export * from './approval-state';
export * from './approvals.events';
export * from './approvals.module';
export * from './approvals-push.consumer';
