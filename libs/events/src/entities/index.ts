export * from './event.entity';
export * from './project-event-position.entity';
export * from './projected-event.entity';
export * from './resource-events.entity';
