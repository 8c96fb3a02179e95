export * from './transforms';
export * from './db-int';
export * from './email';
