export * from './internal-id.entity';
export * from './issue.entity';
export * from './iteration.entity';
export * from './merge-request.entity';
export * from './milestone.entity';
export * from './epic.entity';
export * from './label.entity';
