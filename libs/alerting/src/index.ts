export * from './alerting.events';
export * from './alerting.module';
export * from './engine';
export * from './entities';
export * from './notify-url';
export * from './live';
