// libs/messaging: folders import only the folders below them, from the top down:
//   catalogue/ (event types and their validation) -> core/ (the DomainEvent envelope, topic names)
// The files directly in src/ (this index, the module, ...) compose them and are imported by none.
// Check: `node scripts/folder-cycles.mjs messaging`.
export { buildDomainEvent, messageKeyOf } from './core/domain-event';
export type { DomainEvent, UncheckedNewDomainEvent } from './core/domain-event';
export { DLQ_HEADERS } from './domain-event.consumer';
export type { DomainEventConsumerOptions, DomainEventContext } from './domain-event.consumer';
export { DomainEventSubscriber } from './domain-event.subscriber';
export { KafkaClient } from './kafka.factory';
export { DOMAIN_EVENTS_PARTITIONS, domainTopicConfigs, ensureTopics } from './kafka-topics';
export { MessagingModule } from './messaging.module';
export { OutboxEventEntity } from './outbox-event.entity';
export { OUTBOX_NOTIFY_CHANNEL, OutboxService } from './outbox.service';
export { currentOutboxContext, outboxHeaders, outboxRecordOf, runWithEnvelopeExtras } from './outbox-rows';
export type { OutboxContext, OutboxRecord } from './outbox-rows';
export { CONSUMER_GROUPS, prefixed, TOPICS } from './core/topics.constants';
export { assertNever, eventTypeSet, ignoring, isCataloguedEvent, typesOf } from './catalogue/domain-event-catalogue';
export type { CataloguedEvent, DomainEventData, DomainEventType, NewDomainEvent } from './catalogue/domain-event-catalogue';
export { IDENTITY_EVENT_PART } from './catalogue/identity.events';
export { NAMESPACES_EVENT_PART } from './catalogue/namespaces.events';
export { ISSUES_EVENT_PART } from './catalogue/issues.events';
export { REPOSITORY_EVENT_PART } from './catalogue/repository.events';
export { ALERTING_EVENT_PART } from './catalogue/alerting.events';
export { HOOKS_EVENT_PART } from './catalogue/hooks.events';
export { BADGES_EVENT_PART } from './catalogue/badges.events';
export { CI_EVENT_PART } from './catalogue/ci.events';
export { SETTINGS_EVENT_PART } from './catalogue/settings.events';
export { CUSTOM_ATTRIBUTES_EVENT_PART } from './catalogue/custom-attributes.events';
export { NOTES_EVENT_PART } from './catalogue/notes.events';
export { SNIPPETS_EVENT_PART } from './catalogue/snippets.events';
export { VULNERABILITIES_EVENT_PART } from './catalogue/vulnerabilities.events';
export { APPROVALS_EVENT_PART } from './catalogue/approvals.events';
export { OTHER_SERVICES_EVENT_PART } from './catalogue/other-services.events';
export { PROJECT_TRANSFER_EVENT_PART } from './catalogue/project-transfer.events';
export { writeEventDocs } from './catalogue/event-catalogue.docs';
