import { BeforeApplicationShutdown, Inject, OnApplicationBootstrap } from '@nestjs/common';
import { DomainEventConsumer, DomainEventConsumerOptions, DomainEventConsumerSnapshot } from './domain-event.consumer';
import { DomainEventConsumerFactory } from './domain-event-consumer.factory';

const NOT_STARTED: DomainEventConsumerSnapshot = { running: false, handled: 0, deadLettered: 0, lastError: null };

/**
 * Base class of every consumer of the domain event stream (`domain-events.v1`): a provider that
 * names its consumer group and handlers in `consumerOptions()` and gets the rest:
 *
 * - `start()` at application bootstrap, not awaited (while Kafka is unreachable the consumer
 *   keeps retrying in the background), resolving once the consumer runs;
 * - `stop()` (finishes the message or batch in progress and commits it; `start()` resumes from
 *   the committed offsets), called at shutdown;
 * - health: `running` and `snapshot()` (handled, dead-lettered, last error);
 * - metrics: `domain_event_consumer_*{group}` on /-/metrics (see `DomainEventConsumerFactory`).
 */
export abstract class DomainEventSubscriber implements OnApplicationBootstrap, BeforeApplicationShutdown {
  @Inject(DomainEventConsumerFactory) private readonly consumerFactory!: DomainEventConsumerFactory;
  private consumer: DomainEventConsumer | null = null;

  /** The consumer group, the handlers and the tuning of this consumer (read once, at the first start). */
  protected abstract consumerOptions(): DomainEventConsumerOptions;

  onApplicationBootstrap(): void {
    // Not awaited: while Kafka is unreachable the consumer keeps retrying in the background.
    void this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** Starts consuming (resolves once the consumer runs). */
  start(): Promise<void> {
    this.consumer ??= this.consumerFactory.create(this.consumerOptions());
    return this.consumer.start();
  }

  /** Stops consuming (after the message or batch in progress); `start()` resumes from the committed offsets. */
  async stop(): Promise<void> {
    await this.consumer?.stop();
  }

  get running(): boolean {
    return this.consumer?.running ?? false;
  }

  snapshot(): DomainEventConsumerSnapshot {
    return this.consumer?.snapshot() ?? NOT_STARTED;
  }
}
