import { Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { CONSUMER_GROUPS, DomainEvent, DomainEventConsumer, DomainEventConsumerFactory } from '@app/messaging';
import { MetricsService } from '@app/observability';
import type { Counter } from 'prom-client';
import { ALERT_EVENTS } from '../alerting.events';
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

/** Decides from the event alone (the integration's settings travel in it, as they were on ingestion). */
export function alertLifecycleActionOf(event: DomainEvent): AlertLifecycleAction {
  const alertId = alertIdOf(event);
  if (alertId === null) return { kind: 'none' };
  if (event.type === ALERT_EVENTS.CREATED && integrationFlag(event, 'create_incident')) return { kind: 'create_incident', alertId };
  if (event.type === ALERT_EVENTS.RESOLVED && integrationFlag(event, 'auto_close_incident')) return { kind: 'close_incident', alertId };
  return { kind: 'none' };
}

/**
 * Consumes the domain event stream in group `alert-engine.v1`: opens the incident of a new
 * alert and closes it when the alert recovers, as the integration asks. Idempotent by event
 * id (see `ProcessedAlertEventsRepository`); a failing event is retried, then dead-lettered.
 */
@Injectable()
export class AlertLifecycleConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(AlertLifecycleConsumer.name);
  private consumer: DomainEventConsumer | null = null;
  private readonly handled: Counter<'action' | 'outcome'> | null;

  constructor(
    private readonly consumers: DomainEventConsumerFactory,
    private readonly createIncident: CreateAlertIncidentUseCase,
    private readonly closeIncident: CloseAlertIncidentUseCase,
    @Optional() metrics?: MetricsService,
  ) {
    this.handled =
      metrics?.counter('alert_engine_actions_total', 'Incident actions of the alert engine, by action and outcome (done, duplicate, skipped)', ['action', 'outcome']) ?? null;
  }

  onApplicationBootstrap(): void {
    // Not awaited: while Kafka is unreachable the consumer keeps retrying in the background.
    void this.start();
  }

  /** Starts consuming (resolves once the consumer runs). */
  start(): Promise<void> {
    this.consumer ??= this.consumers.create({ groupId: CONSUMER_GROUPS.ALERT_ENGINE, handler: (event) => this.handle(event) });
    return this.consumer.start();
  }

  async stop(): Promise<void> {
    await this.consumer?.stop();
  }

  /** Runs the action of one event; throwing makes the consumer retry it, then dead-letter it. */
  async handle(event: DomainEvent): Promise<void> {
    const action = alertLifecycleActionOf(event);
    if (action.kind === 'none') return;
    const outcome =
      action.kind === 'create_incident' ? await this.createIncident.execute(event, action.alertId) : await this.closeIncident.execute(event, action.alertId);
    this.handled?.inc({ action: action.kind, outcome });
    this.logger.log(`${action.kind} for alert ${action.alertId} (event ${event.id}): ${outcome}`);
  }
}
