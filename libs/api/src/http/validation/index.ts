export * from './create-validation-pipe';
export * from './decorators';
export * from './validation-errors';
