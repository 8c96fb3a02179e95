import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { DomainEventConsumer, DomainEventConsumerOptions } from './domain-event.consumer';
import { KafkaClient } from './kafka.factory';

/**
 * Creates `DomainEventConsumer`s on the application's Kafka client and stops all of them
 * (finishing the message in progress, committing its offset) when the application shuts down.
 */
@Injectable()
export class DomainEventConsumerFactory implements BeforeApplicationShutdown {
  private readonly consumers = new Set<DomainEventConsumer>();

  constructor(private readonly kafka: KafkaClient) {}

  create(options: DomainEventConsumerOptions): DomainEventConsumer {
    const consumer = new DomainEventConsumer(this.kafka, options);
    this.consumers.add(consumer);
    return consumer;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.consumers].map((consumer) => consumer.stop()));
    this.consumers.clear();
  }
}
