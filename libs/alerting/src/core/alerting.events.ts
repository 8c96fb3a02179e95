import type { DomainEventType } from '@app/messaging';

/** Domain event types of the alerting library (declared in the catalogue, `@app/messaging`; stable names: never rename). */
export const ALERT_EVENTS = {
  CREATED: 'alert.created',
  /** Repeats of an alert created by the same ingestion batch, at most one event per alert and batch: `data.event_count` is the count they leave. */
  GROUPED: 'alert.grouped',
  /** Repeats of alerts already open, one event per project and ingestion batch: `data.alerts[]` with each alert's new count. */
  REPEATS: 'alert.repeats',
  RESOLVED: 'alert.resolved',
  STATUS_CHANGED: 'alert.status_changed',
  ASSIGNEES_CHANGED: 'alert.assignees_changed',
  /** A recovery matched no open alert; kept in `alert_unmatched_recoveries`. */
  RECOVERY_UNMATCHED: 'alert.recovery_unmatched',
  INTEGRATION_CREATED: 'alert_integration.created',
  INTEGRATION_UPDATED: 'alert_integration.updated',
  INTEGRATION_DELETED: 'alert_integration.deleted',
  INTEGRATION_TOKEN_RESET: 'alert_integration.token_reset',
} as const satisfies Record<string, DomainEventType>;
