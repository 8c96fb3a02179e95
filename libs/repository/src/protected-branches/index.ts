export * from './branch-permissions';
export * from './entities';
export * from './protected-branches.module';
export * from './protected-branches.repository';
export * from './protected-branches.service';
export * from './protected-branch.presenter';
export * from './protected-branch.events';
