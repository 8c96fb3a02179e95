import { Injectable, Logger, Optional } from '@nestjs/common';
import {
  APPROVALS_EVENT_PART,
  assertNever,
  BADGES_EVENT_PART,
  CI_EVENT_PART,
  CONSUMER_GROUPS,
  DomainEvent,
  DomainEventConsumerOptions,
  DomainEventSubscriber,
  type DomainEventType,
  HOOKS_EVENT_PART,
  IDENTITY_EVENT_PART,
  ignoring,
  isCataloguedEvent,
  ISSUES_EVENT_PART,
  NAMESPACES_EVENT_PART,
  NOTES_EVENT_PART,
  OTHER_SERVICES_EVENT_PART,
  REPOSITORY_EVENT_PART,
  SETTINGS_EVENT_PART,
  SNIPPETS_EVENT_PART,
  PROJECT_TRANSFER_EVENT_PART,
  VULNERABILITIES_EVENT_PART,
  CUSTOM_ATTRIBUTES_EVENT_PART,
} from '@app/messaging';
import { MetricsService } from '@app/observability';
import type { Counter } from 'prom-client';
import type { AlertStatus } from '../engine/alert-severity';
import { AlertStateChange, AlertStateEventsRepository } from './alert-state-events.repository';
import { CloseAlertIncidentUseCase } from './close-alert-incident.use-case';
import { CreateAlertIncidentUseCase } from './create-alert-incident.use-case';

/** What the alert engine does with one domain event. */
export type AlertLifecycleAction = { kind: 'create_incident'; alertId: number } | { kind: 'close_incident'; alertId: number } | { kind: 'none' };

const alertIdOf = (event: DomainEvent): number | null => {
  const id = event.data.alert_id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
};

const integrationFlag = (event: DomainEvent, flag: 'create_incident' | 'auto_close_incident'): boolean => {
  const integration = event.data.integration;
  return typeof integration === 'object' && integration !== null && (integration as Record<string, unknown>)[flag] === true;
};

const ALERT_STATUSES: readonly string[] = ['triggered', 'acknowledged', 'resolved', 'ignored'];
const statusOf = (value: unknown): AlertStatus | null => (typeof value === 'string' && ALERT_STATUSES.includes(value) ? (value as AlertStatus) : null);

/**
 * What the alert engine looks at in each catalogued event type. Exhaustive: a new event type
 * does not compile until it is given a role here.
 */
const ALERT_ENGINE_ROUTES = {
  'alert.created': 'created',
  'alert.resolved': 'resolved',
  'alert.status_changed': 'status_changed',
  'alert.grouped': 'ignored',
  'alert.repeats': 'ignored',
  'alert.assignees_changed': 'ignored',
  'alert.recovery_unmatched': 'ignored',
  'alert_integration.created': 'ignored',
  'alert_integration.updated': 'ignored',
  'alert_integration.deleted': 'ignored',
  'alert_integration.token_reset': 'ignored',
  ...ignoring(IDENTITY_EVENT_PART),
  ...ignoring(NAMESPACES_EVENT_PART),
  ...ignoring(ISSUES_EVENT_PART),
  ...ignoring(REPOSITORY_EVENT_PART),
  ...ignoring(HOOKS_EVENT_PART),
  ...ignoring(BADGES_EVENT_PART),
  ...ignoring(CI_EVENT_PART),
  ...ignoring(SETTINGS_EVENT_PART),
  ...ignoring(CUSTOM_ATTRIBUTES_EVENT_PART),
  ...ignoring(NOTES_EVENT_PART),
  ...ignoring(SNIPPETS_EVENT_PART),
  ...ignoring(PROJECT_TRANSFER_EVENT_PART),
  ...ignoring(VULNERABILITIES_EVENT_PART),
  ...ignoring(OTHER_SERVICES_EVENT_PART),
  ...ignoring(APPROVALS_EVENT_PART),
} as const satisfies Record<DomainEventType, 'created' | 'resolved' | 'status_changed' | 'ignored'>;

const routeOf = (event: DomainEvent) => (isCataloguedEvent(event) ? ALERT_ENGINE_ROUTES[event.type] : 'ignored');

/**
 * Decides from the event alone (the integration's settings travel in it, as they were when
 * the alert changed): a new alert opens an incident when `create_incident` is on; an alert
 * resolved by a recovery or by a user closes its incident when `auto_close_incident` is on.
 */
export function alertLifecycleActionOf(event: DomainEvent): AlertLifecycleAction {
  const alertId = alertIdOf(event);
  if (alertId === null) return { kind: 'none' };
  const route = routeOf(event);
  switch (route) {
    case 'created':
      return integrationFlag(event, 'create_incident') ? { kind: 'create_incident', alertId } : { kind: 'none' };
    case 'resolved':
      return integrationFlag(event, 'auto_close_incident') ? { kind: 'close_incident', alertId } : { kind: 'none' };
    case 'status_changed':
      return event.data.to === 'resolved' && integrationFlag(event, 'auto_close_incident') ? { kind: 'close_incident', alertId } : { kind: 'none' };
    case 'ignored':
      return { kind: 'none' };
    default:
      return assertNever(route, 'alert engine route');
  }
}

/** The status change an event records as the alert's state event, if any: a recovery, or a user's change. */
export function alertStateChangeOf(event: DomainEvent): AlertStateChange | null {
  const alertId = alertIdOf(event);
  if (alertId === null) return null;
  const occurredAt = new Date(event.occurred_at);
  if (Number.isNaN(occurredAt.getTime())) return null;
  const route = routeOf(event);
  switch (route) {
    case 'resolved':
      return { alertId, userId: event.actor, state: 'resolved', previousState: statusOf(event.data.previous_status), occurredAt };
    case 'status_changed': {
      const state = statusOf(event.data.to);
      if (state === null) return null;
      return { alertId, userId: event.actor, state, previousState: statusOf(event.data.from), occurredAt };
    }
    case 'created':
    case 'ignored':
      return null;
    default:
      return assertNever(route, 'alert engine route');
  }
}

/**
 * Consumes the domain event stream in group `alert-engine.v1`: records each status change of
 * an alert as its state event, opens the incident of a new alert and closes it when the alert
 * is resolved, as the integration asks. Idempotent by event
 * id (see `ProcessedAlertEventsRepository`); a failing event is retried, then dead-lettered.
 */
@Injectable()
export class AlertLifecycleConsumer extends DomainEventSubscriber {
  private readonly logger = new Logger(AlertLifecycleConsumer.name);
  private readonly handled: Counter<'action' | 'outcome'> | null;

  constructor(
    private readonly createIncident: CreateAlertIncidentUseCase,
    private readonly closeIncident: CloseAlertIncidentUseCase,
    private readonly stateEvents: AlertStateEventsRepository,
    @Optional() metrics?: MetricsService,
  ) {
    super();
    this.handled =
      metrics?.counter('alert_engine_actions_total', 'Incident actions of the alert engine, by action and outcome (done, duplicate, skipped)', ['action', 'outcome']) ?? null;
  }

  protected consumerOptions(): DomainEventConsumerOptions {
    return { groupId: CONSUMER_GROUPS.ALERT_ENGINE, handler: (event) => this.handle(event) };
  }

  /** Runs the action of one event; throwing makes the consumer retry it, then dead-letter it. */
  async handle(event: DomainEvent): Promise<void> {
    // First the state event (idempotent by event id on its own), then the incident action.
    const change = alertStateChangeOf(event);
    if (change) await this.stateEvents.record(event.id, change);
    const action = alertLifecycleActionOf(event);
    if (action.kind === 'none') return;
    const outcome =
      action.kind === 'create_incident' ? await this.createIncident.execute(event, action.alertId) : await this.closeIncident.execute(event, action.alertId);
    this.handled?.inc({ action: action.kind, outcome });
    this.logger.log(`${action.kind} for alert ${action.alertId} (event ${event.id}): ${outcome}`);
  }
}
