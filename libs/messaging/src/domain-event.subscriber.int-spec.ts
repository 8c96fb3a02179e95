import 'reflect-metadata';
import { Injectable, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigModule } from '@app/config';
import { MetricsService } from '@app/observability';
import { eventually, randomKafkaPrefix, TEST_KAFKA_BROKERS } from '@app/testing';
import { Partitioners } from 'kafkajs';
import { buildDomainEvent, DomainEvent } from './core/domain-event';
import { DomainEventConsumerOptions } from './domain-event.consumer';
import { DomainEventConsumerFactory } from './domain-event-consumer.factory';
import { DomainEventSubscriber } from './domain-event.subscriber';
import { KafkaClient } from './kafka.factory';
import { CONSUMER_GROUPS, TOPICS } from './core/topics.constants';

jest.setTimeout(60_000);

@Injectable()
class RecordingSubscriber extends DomainEventSubscriber {
  readonly seen: DomainEvent[] = [];

  protected consumerOptions(): DomainEventConsumerOptions {
    return { groupId: CONSUMER_GROUPS.ALERT_ENGINE, handler: async (event) => void this.seen.push(event) };
  }
}

describe(DomainEventSubscriber.name, () => {
  const config = AppConfig.fromEnvironment({
    KAFKA_BROKERS: TEST_KAFKA_BROKERS.join(','),
    KAFKA_TOPIC_PREFIX: randomKafkaPrefix('subscriber'),
    LOG_LEVEL: 'silent',
  });
  let app: INestApplicationContext;

  beforeAll(async () => {
    @Module({ imports: [ConfigModule.forRoot(config)], providers: [KafkaClient, DomainEventConsumerFactory, MetricsService, RecordingSubscriber] })
    class TestModule {}
    app = await NestFactory.createApplicationContext(TestModule, { logger: false });
    await app.get(KafkaClient).ensureTopics();
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('starts at bootstrap, hands events to its handler, reports them on /-/metrics, and stops at shutdown', async () => {
    const subscriber = app.get(RecordingSubscriber);
    await eventually(() => (subscriber.running ? true : undefined), 'the subscriber to run', 30_000);

    const kafka = app.get(KafkaClient);
    const producer = kafka.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const event = buildDomainEvent({ type: 'test.subscribed', projectId: 9 });
    try {
      await producer.send({ topic: kafka.topic(TOPICS.DOMAIN_EVENTS), messages: [{ key: '9', value: JSON.stringify(event) }] });
    } finally {
      await producer.disconnect();
    }
    await eventually(() => (subscriber.seen.some((seen) => seen.id === event.id) ? true : undefined), 'the event to be handled', 30_000);
    expect(subscriber.snapshot()).toMatchObject({ running: true, handled: 1, deadLettered: 0 });

    const text = await app.get(MetricsService).registry.metrics();
    expect(text).toContain(`domain_event_consumer_running{group="${CONSUMER_GROUPS.ALERT_ENGINE}"} 1`);
    expect(text).toContain(`domain_event_consumer_handled{group="${CONSUMER_GROUPS.ALERT_ENGINE}"} 1`);

    await app.close();
    expect(subscriber.running).toBe(false);
  });
});
