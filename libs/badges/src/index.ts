export * from './badge-context.service';
export * from './badges.events';
export * from './badge-urls';
export * from './badge.presenter';
export * from './badges.module';
export * from './badges.repository';
export * from './commit-reader';
export * from './entities';
