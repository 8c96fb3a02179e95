import { Injectable } from '@nestjs/common';
import { CONSUMER_GROUPS, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import { ALERT_EVENTS } from '../core/alerting.events';
import { AlertLiveChannel } from './alert-live.channel';
import { type AlertLiveEvent, alertLiveMessagesOf } from './alert-live.message';

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
    const handle = (event: AlertLiveEvent) => this.handle(event);
    return {
      groupId: CONSUMER_GROUPS.ALERT_LIVE,
      // The changes of an alert the console lists (`alert.recovery_unmatched` matched none; integrations are not alerts).
      handlers: {
        [ALERT_EVENTS.CREATED]: handle,
        [ALERT_EVENTS.GROUPED]: handle,
        [ALERT_EVENTS.REPEATS]: handle,
        [ALERT_EVENTS.RESOLVED]: handle,
        [ALERT_EVENTS.STATUS_CHANGED]: handle,
        [ALERT_EVENTS.ASSIGNEES_CHANGED]: handle,
      },
      isTransient: () => true,
    };
  }

  async handle(event: AlertLiveEvent): Promise<void> {
    for (const message of alertLiveMessagesOf(event)) await this.channel.publish(message);
  }
}
