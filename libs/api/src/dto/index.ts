export * from './transforms';
