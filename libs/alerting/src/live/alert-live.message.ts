import {
  APPROVALS_EVENT_PART,
  BADGES_EVENT_PART,
  CI_EVENT_PART,
  CUSTOM_ATTRIBUTES_EVENT_PART,
  DomainEvent,
  DomainEventType,
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
} from '@app/messaging';
import { ALERT_EVENTS } from '../alerting.events';

/** How long after it happened an event is still worth showing live (older ones: a backlog being caught up). */
export const LIVE_EVENT_MAX_AGE_MS = 60_000;

/** One change of an alert, as sent to the console's live streams (`event: alert`). */
export interface AlertLiveMessage {
  /** The domain event type, e.g. `alert.created`. */
  type: string;
  /** The domain event id (idempotency on the client). */
  event_id: string;
  project_id: number;
  iid: number;
  occurred_at: string;
  /** What the event says about the alert now (only the fields it carries). */
  alert: { title?: string; status?: string; severity?: string; event_count?: number; assignee_ids?: number[] };
}

/**
 * Which catalogued events the console shows live: the changes of a listed alert. Exhaustive:
 * a new event type does not compile until it is given a role here.
 */
const LIVE_ROUTES = {
  'alert.created': 'live',
  'alert.grouped': 'live',
  // Fanned out: one message per alert (as `alert.grouped`).
  'alert.repeats': 'live',
  'alert.resolved': 'live',
  'alert.status_changed': 'live',
  'alert.assignees_changed': 'live',
  // Not an alert of the list (it matched none).
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
  ...ignoring(SETTINGS_EVENT_PART),
  ...ignoring(CUSTOM_ATTRIBUTES_EVENT_PART),
  ...ignoring(OTHER_SERVICES_EVENT_PART),
  ...ignoring(APPROVALS_EVENT_PART),
  ...ignoring(CI_EVENT_PART),
  ...ignoring(NOTES_EVENT_PART),
  ...ignoring(SNIPPETS_EVENT_PART),
  ...ignoring(PROJECT_TRANSFER_EVENT_PART),
  ...ignoring(VULNERABILITIES_EVENT_PART),
} as const satisfies Record<DomainEventType, 'live' | 'ignored'>;

const isLive = (event: DomainEvent): boolean => isCataloguedEvent(event) && LIVE_ROUTES[event.type] === 'live';

const pick = <T>(value: unknown, test: (v: unknown) => v is T): T | undefined => (test(value) ? value : undefined);
const isString = (v: unknown): v is string => typeof v === 'string';
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isIdList = (v: unknown): v is number[] => Array.isArray(v) && v.every(isCount);

/**
 * The live messages of a domain event: one for a change of an alert the console lists, one per
 * alert for `alert.repeats` (each as an `alert.grouped` message, event id `<event id>/<iid>`),
 * none for other events or events older than `maxAgeMs` at `now`.
 */
export function alertLiveMessagesOf(event: DomainEvent, now = Date.now(), maxAgeMs = LIVE_EVENT_MAX_AGE_MS): AlertLiveMessage[] {
  if (event.type !== ALERT_EVENTS.REPEATS) {
    const message = alertLiveMessageOf(event, now, maxAgeMs);
    return message ? [message] : [];
  }
  const alerts = event.data.alerts;
  if (!Array.isArray(alerts)) return [];
  const messages: AlertLiveMessage[] = [];
  for (const alert of alerts as unknown[]) {
    if (alert === null || typeof alert !== 'object') continue;
    const data = alert as Record<string, unknown>;
    const message = alertLiveMessageOf({ ...event, type: ALERT_EVENTS.GROUPED, id: `${event.id}/${String(data.iid)}`, target: null, data }, now, maxAgeMs);
    if (message) messages.push(message);
  }
  return messages;
}

/**
 * The live message of a domain event, or null when the event is not a change of an alert the
 * console lists, or is older than `maxAgeMs` at `now` (`alert.repeats`: see `alertLiveMessagesOf`).
 */
export function alertLiveMessageOf(event: DomainEvent, now = Date.now(), maxAgeMs = LIVE_EVENT_MAX_AGE_MS): AlertLiveMessage | null {
  if (event.type === ALERT_EVENTS.REPEATS) return null;
  if (!isLive(event) || event.project_id === null) return null;
  const iid = event.data.iid ?? event.target?.iid;
  if (!isCount(iid)) return null;
  const occurred = Date.parse(event.occurred_at);
  if (Number.isNaN(occurred) || now - occurred > maxAgeMs) return null;
  const data = event.data;
  const alert: AlertLiveMessage['alert'] = {
    title: pick(data.title, isString) ?? pick(event.target?.title, isString),
    status: pick(event.type === ALERT_EVENTS.STATUS_CHANGED ? data.to : data.status, isString),
    severity: pick(data.severity, isString),
    event_count: pick(data.event_count, isCount),
    assignee_ids: pick(data.assignee_ids, isIdList),
  };
  for (const key of Object.keys(alert) as (keyof typeof alert)[]) if (alert[key] === undefined) delete alert[key];
  return { type: event.type, event_id: event.id, project_id: event.project_id, iid, occurred_at: event.occurred_at, alert };
}
