export * from './project-or-group-ref';
export * from './int-param';
