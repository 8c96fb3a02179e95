export * from './member.entity';
export * from './namespace.entity';
export * from './project.entity';
