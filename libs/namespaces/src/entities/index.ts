export * from './member.entity';
export * from './namespace.entity';
export * from './project.entity';
export * from './project-star.entity';
export * from './project-statistics.entity';
export * from './topic.entity';
