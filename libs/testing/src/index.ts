export { eventually } from './eventually';
export { startTestBroker, TestKafkaBroker } from './kafka-broker';
export { KafkaTopicReader, randomKafkaPrefix, TEST_KAFKA_BROKERS } from './kafka-topic-reader';
export type { ReadMessage } from './kafka-topic-reader';
export { createTestDatabase, dropTemplateDatabase, prepareTemplateDatabase } from './test-database';
export { rejectsWithoutEvents } from './expect-domain-error';
export { createNamespacesFixture, dayOffset } from './namespaces.fixture';
export type { NamespacesFixture } from './namespaces.fixture';
export { deleteRedisKeys } from './redis-keys';
