export * from './transforms';
export * from './db-int';
