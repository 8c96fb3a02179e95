export * from './custom-attribute-filters';
export * from './custom-attribute-filters.module';
export * from './custom-attributes.events';
export * from './custom-attributes.module';
export * from './entities';
