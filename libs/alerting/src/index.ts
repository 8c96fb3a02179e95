export * from './alerting.events';
export * from './alerting.module';
export * from './engine';
export * from './entities';
export * from './notify-url';
export * from './alert-notify.routes';
export * from './lifecycle';
export * from './use-cases/receive-alert-notification.use-case';
