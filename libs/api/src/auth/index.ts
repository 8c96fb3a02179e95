export * from './access';
export * from './auth.decorators';
export * from './auth.guard';
export * from './credentials';
export * from './principal';
export * from './tier';
export * from './job-token';
