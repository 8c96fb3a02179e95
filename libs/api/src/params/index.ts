export * from './project-or-group-ref';
