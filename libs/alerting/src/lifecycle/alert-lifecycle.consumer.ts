import { Injectable, Logger, Optional } from '@nestjs/common';
import { assertNever, type CataloguedEvent, CONSUMER_GROUPS, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import { MetricsService } from '@app/observability';
import type { Counter } from 'prom-client';
import { ALERT_EVENTS } from '../core/alerting.events';
import type { AlertStatus } from '../engine/alert-severity';
import { AlertStateChange, AlertStateEventsRepository } from './alert-state-events.repository';
import { CloseAlertIncidentUseCase } from './close-alert-incident.use-case';
import { CreateAlertIncidentUseCase } from './create-alert-incident.use-case';

/** The events the alert engine acts on (its consumer lists them; other types are skipped unread). */
export type AlertLifecycleEvent = CataloguedEvent<typeof ALERT_EVENTS.CREATED | typeof ALERT_EVENTS.RESOLVED | typeof ALERT_EVENTS.STATUS_CHANGED>;

/** What the alert engine does with one domain event. */
export type AlertLifecycleAction = { kind: 'create_incident'; alertId: number } | { kind: 'close_incident'; alertId: number } | { kind: 'none' };

const NONE: AlertLifecycleAction = { kind: 'none' };

/** The alert's id; null for 0 (the catalogue admits it, no alert has it). */
const alertIdOf = (event: AlertLifecycleEvent): number | null => {
  const id = event.data.alert_id;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};

const ALERT_STATUSES: readonly string[] = ['triggered', 'acknowledged', 'resolved', 'ignored'];
const statusOf = (value: string | undefined): AlertStatus | null => (value !== undefined && ALERT_STATUSES.includes(value) ? (value as AlertStatus) : null);

/**
 * Decides from the event alone (the integration's settings travel in it, as they were when
 * the alert changed): a new alert opens an incident when `create_incident` is on; an alert
 * resolved by a recovery or by a user closes its incident when `auto_close_incident` is on.
 */
export function alertLifecycleActionOf(event: AlertLifecycleEvent): AlertLifecycleAction {
  const alertId = alertIdOf(event);
  if (alertId === null) return NONE;
  switch (event.type) {
    case ALERT_EVENTS.CREATED:
      return event.data.integration.create_incident === true ? { kind: 'create_incident', alertId } : NONE;
    case ALERT_EVENTS.RESOLVED:
      return event.data.integration.auto_close_incident === true ? { kind: 'close_incident', alertId } : NONE;
    case ALERT_EVENTS.STATUS_CHANGED:
      return event.data.to === 'resolved' && event.data.integration?.auto_close_incident === true ? { kind: 'close_incident', alertId } : NONE;
    default:
      return assertNever(event, 'alert engine event');
  }
}

/** The status change an event records as the alert's state event, if any: a recovery, or a user's change. */
export function alertStateChangeOf(event: AlertLifecycleEvent): AlertStateChange | null {
  const alertId = alertIdOf(event);
  if (alertId === null) return null;
  const occurredAt = new Date(event.occurred_at);
  if (Number.isNaN(occurredAt.getTime())) return null;
  switch (event.type) {
    case ALERT_EVENTS.RESOLVED:
      return { alertId, userId: event.actor, state: 'resolved', previousState: statusOf(event.data.previous_status), occurredAt };
    case ALERT_EVENTS.STATUS_CHANGED: {
      const state = statusOf(event.data.to);
      if (state === null) return null;
      return { alertId, userId: event.actor, state, previousState: statusOf(event.data.from), occurredAt };
    }
    case ALERT_EVENTS.CREATED:
      return null;
    default:
      return assertNever(event, 'alert engine event');
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
      metrics?.counter('alert_engine_actions_total', 'Incident actions of the alert engine, by action and outcome (done, duplicate, skipped)', [
        'action',
        'outcome',
      ]) ?? null;
  }

  protected consumerOptions(): DomainEventConsumerOptions {
    const handle = (event: AlertLifecycleEvent) => this.handle(event);
    return {
      groupId: CONSUMER_GROUPS.ALERT_ENGINE,
      handlers: { [ALERT_EVENTS.CREATED]: handle, [ALERT_EVENTS.RESOLVED]: handle, [ALERT_EVENTS.STATUS_CHANGED]: handle },
    };
  }

  /** Runs the action of one event; throwing makes the consumer retry it, then dead-letter it. */
  async handle(event: AlertLifecycleEvent): Promise<void> {
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
