export * from './default-job-options';
export * from './job-handlers';
export * from './queue.constants';
export * from './queue.module';
export * from './redis.constants';
export * from './redis.module';
export * from './invalidation-channel';
