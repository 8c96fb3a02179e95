import { Injectable } from '@nestjs/common';
import { CONSUMER_GROUPS, DomainEvent, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import { AlertLiveChannel } from './alert-live.channel';
import { alertLiveMessagesOf } from './alert-live.message';

/**
 * Relays the alert changes of the domain event stream to the console's live streams: one
 * consumer group (`alert-live.v1`) shared by the gateway replicas, so each event is published
 * to Redis once and fanned out to every replica's browser connections. Events older than a
 * minute are skipped (a backlog after downtime; the console reloads on reconnection anyway).
 * A Redis failure holds the partition until Redis answers again (never dead-lettered).
 */
@Injectable()
export class AlertLiveConsumer extends DomainEventSubscriber {
  constructor(private readonly channel: AlertLiveChannel) {
    super();
  }

  protected consumerOptions(): DomainEventConsumerOptions {
    return { groupId: CONSUMER_GROUPS.ALERT_LIVE, handler: (event) => this.handle(event), isTransient: () => true };
  }

  async handle(event: DomainEvent): Promise<void> {
    for (const message of alertLiveMessagesOf(event)) await this.channel.publish(message);
  }
}
