export * from './custom-attributes.events';
export * from './custom-attributes.module';
export * from './entities';
