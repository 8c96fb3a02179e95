import type { CataloguedEvent, DomainEvent } from '@app/messaging';
import { ALERT_EVENTS } from '../core/alerting.events';

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
 * The events the console shows live: the changes of a listed alert (its consumer lists them; other
 * types, `alert.recovery_unmatched` among them, are skipped unread).
 */
export type AlertLiveEvent = CataloguedEvent<
  | typeof ALERT_EVENTS.CREATED
  | typeof ALERT_EVENTS.GROUPED
  | typeof ALERT_EVENTS.REPEATS
  | typeof ALERT_EVENTS.RESOLVED
  | typeof ALERT_EVENTS.STATUS_CHANGED
  | typeof ALERT_EVENTS.ASSIGNEES_CHANGED
>;

const pick = <T>(value: unknown, test: (v: unknown) => v is T): T | undefined => (test(value) ? value : undefined);
const isString = (v: unknown): v is string => typeof v === 'string';
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isIdList = (v: unknown): v is number[] => Array.isArray(v) && v.every(isCount);

/**
 * The live messages of an alert event: one for a change of an alert the console lists, one per
 * alert for `alert.repeats` (each as an `alert.grouped` message, event id `<event id>/<iid>`),
 * none for events without a project or older than `maxAgeMs` at `now`.
 */
export function alertLiveMessagesOf(event: AlertLiveEvent, now = Date.now(), maxAgeMs = LIVE_EVENT_MAX_AGE_MS): AlertLiveMessage[] {
  if (event.type !== ALERT_EVENTS.REPEATS) {
    const message = liveMessageOf(event, event.data, now, maxAgeMs);
    return message ? [message] : [];
  }
  const messages: AlertLiveMessage[] = [];
  for (const alert of event.data.alerts) {
    const message = liveMessageOf({ ...event, type: ALERT_EVENTS.GROUPED, id: `${event.id}/${alert.iid}`, target: null }, alert, now, maxAgeMs);
    if (message) messages.push(message);
  }
  return messages;
}

/**
 * The live message of an alert event, or null when the event has no project or iid, or is older
 * than `maxAgeMs` at `now` (`alert.repeats`: see `alertLiveMessagesOf`).
 */
export function alertLiveMessageOf(event: AlertLiveEvent, now = Date.now(), maxAgeMs = LIVE_EVENT_MAX_AGE_MS): AlertLiveMessage | null {
  return event.type === ALERT_EVENTS.REPEATS ? null : liveMessageOf(event, event.data, now, maxAgeMs);
}

/** What an event says about one alert (`data`: the event's data, or one alert of `alert.repeats`). */
function liveMessageOf(
  event: Pick<DomainEvent, 'id' | 'project_id' | 'occurred_at' | 'target'> & { type: Exclude<AlertLiveEvent['type'], typeof ALERT_EVENTS.REPEATS> },
  data: Readonly<Record<string, unknown>>,
  now: number,
  maxAgeMs: number,
): AlertLiveMessage | null {
  if (event.project_id === null) return null;
  const iid = data.iid ?? event.target?.iid;
  if (!isCount(iid)) return null;
  const occurred = Date.parse(event.occurred_at);
  if (Number.isNaN(occurred) || now - occurred > maxAgeMs) return null;
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
