export * from './custom-attribute-events';
export * from './custom-attributes.module';
export * from './entities';
