export * from './alert-live.channel';
export * from './alert-live.consumer';
export * from './alert-live.hub';
export * from './alert-live.message';
export * from './alert-live.module';
