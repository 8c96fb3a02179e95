import { buildDomainEvent, type CataloguedEvent, type DomainEventConsumerOptions, type UncheckedNewDomainEvent } from '@app/messaging';
import { ALERT_EVENTS } from '../core/alerting.events';
import { compareIds } from './alert-stream.controller';
import { AlertLiveConsumer } from './alert-live.consumer';
import { type AlertLiveEvent, alertLiveMessageOf, alertLiveMessagesOf, LIVE_EVENT_MAX_AGE_MS } from './alert-live.message';

// The consumer checks `data` against the catalogue before a handler sees it; these tests give only the fields read.
const live = <T extends AlertLiveEvent['type']>(event: UncheckedNewDomainEvent & { type: T }) => buildDomainEvent(event) as unknown as CataloguedEvent<T>;

describe(alertLiveMessageOf.name, () => {
  const now = Date.parse('2026-11-25T01:00:00Z');
  const event = <T extends AlertLiveEvent['type']>(type: T, data: Record<string, unknown>, occurredAt = new Date(now - 1_000)) =>
    live({ type, projectId: 7, target: { type: 'alert', id: 3, iid: 2, title: 'Disk full' }, data, occurredAt });

  it('keeps what a created, grouped or resolved alert event says about the alert', () => {
    const sut = alertLiveMessageOf(
      event(ALERT_EVENTS.GROUPED, { alert_id: 3, iid: 2, title: 'Disk full', status: 'triggered', severity: 'high', event_count: 4, fingerprint: 'x' }),
      now,
    );
    expect(sut).toEqual({
      type: 'alert.grouped',
      event_id: expect.any(String),
      project_id: 7,
      iid: 2,
      occurred_at: new Date(now - 1_000).toISOString(),
      alert: { title: 'Disk full', status: 'triggered', severity: 'high', event_count: 4 },
    });
  });

  it('fans alert.repeats out into one alert.grouped message per alert', () => {
    const repeats = live({
      type: ALERT_EVENTS.REPEATS,
      projectId: 7,
      target: null,
      data: {
        alerts: [
          { alert_id: 3, iid: 2, title: 'Disk full', severity: 'high', status: 'triggered', fingerprint: 'x', event_count: 5 },
          { alert_id: 4, iid: 9, title: 'CPU', severity: 'low', status: 'acknowledged', fingerprint: 'y', event_count: 12 },
        ],
      },
      occurredAt: new Date(now - 1_000),
    });
    const sut = alertLiveMessagesOf(repeats, now);
    expect(sut).toEqual([
      {
        type: 'alert.grouped',
        event_id: `${repeats.id}/2`,
        project_id: 7,
        iid: 2,
        occurred_at: repeats.occurred_at,
        alert: { title: 'Disk full', status: 'triggered', severity: 'high', event_count: 5 },
      },
      {
        type: 'alert.grouped',
        event_id: `${repeats.id}/9`,
        project_id: 7,
        iid: 9,
        occurred_at: repeats.occurred_at,
        alert: { title: 'CPU', status: 'acknowledged', severity: 'low', event_count: 12 },
      },
    ]);
    expect(alertLiveMessageOf(repeats, now)).toBeNull();
    expect(alertLiveMessagesOf(event(ALERT_EVENTS.GROUPED, { iid: 2, event_count: 3 }), now)).toHaveLength(1);
  });

  it('takes the new status of a status change, and the assignees of an assignment', () => {
    expect(alertLiveMessageOf(event(ALERT_EVENTS.STATUS_CHANGED, { alert_id: 3, iid: 2, from: 'triggered', to: 'acknowledged' }), now)?.alert).toEqual({
      title: 'Disk full',
      status: 'acknowledged',
    });
    expect(alertLiveMessageOf(event(ALERT_EVENTS.ASSIGNEES_CHANGED, { alert_id: 3, iid: 2, assignee_ids: [5, 6] }), now)?.alert).toEqual({
      title: 'Disk full',
      assignee_ids: [5, 6],
    });
  });

  it('receives only the changes of an alert the console lists', () => {
    const sut = new AlertLiveConsumer(null as never) as unknown as { consumerOptions(): DomainEventConsumerOptions };
    expect(Object.keys(sut.consumerOptions().handlers ?? {}).sort()).toEqual(
      [
        ALERT_EVENTS.CREATED,
        ALERT_EVENTS.GROUPED,
        ALERT_EVENTS.REPEATS,
        ALERT_EVENTS.RESOLVED,
        ALERT_EVENTS.STATUS_CHANGED,
        ALERT_EVENTS.ASSIGNEES_CHANGED,
      ].sort(),
    );
  });

  it('ignores events without a project or iid, and events older than the live window', () => {
    expect(alertLiveMessageOf({ ...event(ALERT_EVENTS.CREATED, { iid: 2 }), project_id: null }, now)).toBeNull();
    expect(alertLiveMessageOf({ ...event(ALERT_EVENTS.CREATED, {}), target: null }, now)).toBeNull();
    expect(alertLiveMessageOf(event(ALERT_EVENTS.CREATED, { iid: 2 }, new Date(now - LIVE_EVENT_MAX_AGE_MS - 1)), now)).toBeNull();
    expect(alertLiveMessageOf(event(ALERT_EVENTS.CREATED, { iid: 2 }, new Date(now - LIVE_EVENT_MAX_AGE_MS + 1_000)), now)).not.toBeNull();
  });
});

describe(compareIds.name, () => {
  it('orders Redis stream ids by time, then sequence, numerically', () => {
    expect(compareIds('1700000000000-0', '1700000000000-0')).toBe(0);
    expect(compareIds('1700000000000-2', '1700000000000-10')).toBe(-1);
    expect(compareIds('1700000000001-0', '1700000000000-99')).toBe(1);
    expect(compareIds('0-0', '1-0')).toBe(-1);
  });
});
