export * from './eventually';
export * from './kafka-broker';
export * from './kafka-topic-reader';
export * from './test-database';
export * from './expect-domain-error';
export * from './namespaces.fixture';
export * from './redis-keys';
