import { Injectable, Logger, Optional } from '@nestjs/common';
import { CONSUMER_GROUPS, DomainEvent, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import { MetricsService } from '@app/observability';
import type { Counter } from 'prom-client';
import { ALERT_EVENTS } from '../alerting.events';
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
 * Decides from the event alone (the integration's settings travel in it, as they were when
 * the alert changed): a new alert opens an incident when `create_incident` is on; an alert
 * resolved by a recovery or by a user closes its incident when `auto_close_incident` is on.
 */
export function alertLifecycleActionOf(event: DomainEvent): AlertLifecycleAction {
  const alertId = alertIdOf(event);
  if (alertId === null) return { kind: 'none' };
  if (event.type === ALERT_EVENTS.CREATED && integrationFlag(event, 'create_incident')) return { kind: 'create_incident', alertId };
  if (event.type === ALERT_EVENTS.RESOLVED && integrationFlag(event, 'auto_close_incident')) return { kind: 'close_incident', alertId };
  if (event.type === ALERT_EVENTS.STATUS_CHANGED && event.data.to === 'resolved' && integrationFlag(event, 'auto_close_incident')) {
    return { kind: 'close_incident', alertId };
  }
  return { kind: 'none' };
}

/** The status change an event records as the alert's state event, if any: a recovery, or a user's change. */
export function alertStateChangeOf(event: DomainEvent): AlertStateChange | null {
  const alertId = alertIdOf(event);
  if (alertId === null) return null;
  const occurredAt = new Date(event.occurred_at);
  if (Number.isNaN(occurredAt.getTime())) return null;
  if (event.type === ALERT_EVENTS.RESOLVED) {
    return { alertId, userId: event.actor, state: 'resolved', previousState: statusOf(event.data.previous_status), occurredAt };
  }
  if (event.type === ALERT_EVENTS.STATUS_CHANGED) {
    const state = statusOf(event.data.to);
    if (state === null) return null;
    return { alertId, userId: event.actor, state, previousState: statusOf(event.data.from), occurredAt };
  }
  return null;
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
