import { BeforeApplicationShutdown, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { MetricsService } from '@app/observability';
import { DomainEventConsumer, DomainEventConsumerOptions } from './domain-event.consumer';
import { KafkaClient } from './kafka.factory';

/**
 * Creates `DomainEventConsumer`s on the application's Kafka client, exposes them on /-/metrics
 * (`domain_event_consumer_running`, `_handled`, `_dead_lettered`, by consumer group), and stops
 * all of them (finishing the message in progress, committing its offset) when the application
 * shuts down.
 */
@Injectable()
export class DomainEventConsumerFactory implements OnModuleInit, BeforeApplicationShutdown {
  private readonly consumers = new Set<DomainEventConsumer>();
  private readonly groups = new Map<DomainEventConsumer, string>();

  constructor(
    private readonly kafka: KafkaClient,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  create(options: DomainEventConsumerOptions): DomainEventConsumer {
    const consumer = new DomainEventConsumer(this.kafka, options);
    this.consumers.add(consumer);
    this.groups.set(consumer, options.groupId);
    return consumer;
  }

  onModuleInit(): void {
    if (!this.metrics) return;
    const gauges = {
      running: this.metrics.gauge('domain_event_consumer_running', '1 while the consumer of the domain event stream runs, by consumer group', ['group']),
      handled: this.metrics.gauge('domain_event_consumer_handled', 'Domain events handled since the process started, by consumer group', ['group']),
      deadLettered: this.metrics.gauge(
        'domain_event_consumer_dead_lettered',
        'Domain events moved to the dead-letter topic since the process started, by consumer group',
        ['group'],
      ),
    };
    // Read at scrape time, so the figures are never stale.
    const collect = (): void => {
      for (const consumer of this.consumers) {
        const group = this.groups.get(consumer)!;
        const snapshot = consumer.snapshot();
        gauges.running.set({ group }, snapshot.running ? 1 : 0);
        gauges.handled.set({ group }, snapshot.handled);
        gauges.deadLettered.set({ group }, snapshot.deadLettered);
      }
    };
    for (const gauge of Object.values(gauges)) Object.assign(gauge, { collect });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.consumers].map((consumer) => consumer.stop()));
    this.consumers.clear();
  }
}
