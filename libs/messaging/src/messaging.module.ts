import { DynamicModule, Module } from '@nestjs/common';
import { DomainEventConsumerFactory } from './domain-event-consumer.factory';
import { KafkaClient } from './kafka.factory';
import { OUTBOX_RELAY_OPTIONS, OutboxRelay, OutboxRelayOptions } from './outbox.relay';
import { OutboxRelayMetrics } from './outbox-relay.metrics';
import { OutboxService } from './outbox.service';

export interface MessagingModuleOptions {
  /** Run the outbox relay in this process (started on bootstrap, stopped on shutdown). */
  relay: boolean;
  /** Relay tuning (batch size, poll interval, backoff). */
  relayOptions?: Omit<OutboxRelayOptions, 'autoStart'>;
}

/**
 * Kafka plumbing, global: `KafkaClient`, `OutboxService` (write events in the caller's
 * transaction), `OutboxRelay` (publish them; runs only with `relay: true`) and
 * `DomainEventConsumerFactory` (consume them). Needs `ConfigModule` and `DatabaseModule`.
 */
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingModuleOptions): DynamicModule {
    return {
      module: MessagingModule,
      global: true,
      providers: [
        KafkaClient,
        OutboxService,
        OutboxRelay,
        DomainEventConsumerFactory,
        OutboxRelayMetrics,
        { provide: OUTBOX_RELAY_OPTIONS, useValue: { ...options.relayOptions, autoStart: options.relay } satisfies OutboxRelayOptions },
      ],
      exports: [KafkaClient, OutboxService, OutboxRelay, DomainEventConsumerFactory],
    };
  }
}
