export * from './domain-error';
export * from './error-code';
export * from './error-response';
export * from './client-disconnect';
