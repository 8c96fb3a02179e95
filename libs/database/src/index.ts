export * from './data-source';
export * from './database.module';
export * from './ensure-database';
export * from './migrate';
export * from './unique-violation';
export * from './transaction-retry';
export * from './prepared-query';
export * from './transaction-batcher';
