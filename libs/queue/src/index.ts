export * from './default-job-options';
export * from './job-handler.registry';
export * from './job-handlers';
export * from './job-queue';
export * from './queue.module';
export * from './redis.constants';
export * from './redis.module';
export * from './invalidation-channel';
