export * from './event.entity';
export * from './projected-event.entity';
export * from './resource-events.entity';
