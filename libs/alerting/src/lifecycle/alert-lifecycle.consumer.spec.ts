import { buildDomainEvent, type CataloguedEvent, type DomainEventConsumerOptions } from '@app/messaging';
import { ALERT_EVENTS } from '../core/alerting.events';
import { AlertLifecycleConsumer, type AlertLifecycleEvent, alertLifecycleActionOf, alertStateChangeOf } from './alert-lifecycle.consumer';

// The consumer checks `data` against the catalogue before a handler sees it; these tests give only the fields read.
const event = <T extends AlertLifecycleEvent['type']>(type: T, data: Record<string, unknown>, actor: number | null = null) =>
  buildDomainEvent({ type, projectId: 1, data, actor, occurredAt: new Date('2026-02-03T04:05:06Z') }) as unknown as CataloguedEvent<T>;
const integration = (createIncident: unknown, autoClose: unknown) => ({ id: 3, name: 'Prom', create_incident: createIncident, auto_close_incident: autoClose });

describe(alertLifecycleActionOf.name, () => {
  it('opens an incident for a new alert only when the integration asks', () => {
    expect(alertLifecycleActionOf(event(ALERT_EVENTS.CREATED, { alert_id: 7, integration: integration(true, false) }))).toEqual({
      kind: 'create_incident',
      alertId: 7,
    });
    expect(alertLifecycleActionOf(event(ALERT_EVENTS.CREATED, { alert_id: 7, integration: integration(false, true) }))).toEqual({ kind: 'none' });
    expect(alertLifecycleActionOf(event(ALERT_EVENTS.CREATED, { alert_id: 7, integration: integration('true', true) }))).toEqual({ kind: 'none' });
  });

  it('closes the incident of a resolved alert only when auto-close is on', () => {
    expect(alertLifecycleActionOf(event(ALERT_EVENTS.RESOLVED, { alert_id: 9, integration: integration(true, true) }))).toEqual({
      kind: 'close_incident',
      alertId: 9,
    });
    expect(alertLifecycleActionOf(event(ALERT_EVENTS.RESOLVED, { alert_id: 9, integration: integration(true, false) }))).toEqual({ kind: 'none' });
  });

  it('closes the incident of an alert a user resolves only when auto-close is on', () => {
    const changed = (to: string, autoClose: unknown) =>
      event(ALERT_EVENTS.STATUS_CHANGED, { alert_id: 9, from: 'triggered', to, integration: integration(true, autoClose) }, 5);
    expect(alertLifecycleActionOf(changed('resolved', true))).toEqual({ kind: 'close_incident', alertId: 9 });
    expect(alertLifecycleActionOf(changed('resolved', false))).toEqual({ kind: 'none' });
    expect(alertLifecycleActionOf(changed('acknowledged', true))).toEqual({ kind: 'none' });
    expect(alertLifecycleActionOf(event(ALERT_EVENTS.STATUS_CHANGED, { alert_id: 9, from: 'triggered', to: 'resolved', integration: null }))).toEqual({
      kind: 'none',
    });
  });

  it('records recoveries and user changes as state events, with who and when', () => {
    const at = new Date('2026-02-03T04:05:06Z');
    expect(alertStateChangeOf(event(ALERT_EVENTS.RESOLVED, { alert_id: 9, previous_status: 'acknowledged' }))).toEqual({
      alertId: 9,
      userId: null,
      state: 'resolved',
      previousState: 'acknowledged',
      occurredAt: at,
    });
    expect(alertStateChangeOf(event(ALERT_EVENTS.STATUS_CHANGED, { alert_id: 9, from: 'resolved', to: 'triggered' }, 5))).toEqual({
      alertId: 9,
      userId: 5,
      state: 'triggered',
      previousState: 'resolved',
      occurredAt: at,
    });
    expect(alertStateChangeOf(event(ALERT_EVENTS.CREATED, { alert_id: 9 }))).toBeNull();
    expect(alertStateChangeOf(event(ALERT_EVENTS.STATUS_CHANGED, { alert_id: 9, from: 'triggered', to: 'closed' }))).toBeNull();
    expect(alertStateChangeOf(event(ALERT_EVENTS.RESOLVED, { alert_id: '9' }))).toBeNull();
  });

  it('does nothing for an alert id no alert has, or a status change without an integration', () => {
    expect(alertLifecycleActionOf(event(ALERT_EVENTS.STATUS_CHANGED, { alert_id: 7, from: 'triggered', to: 'resolved', integration: null }))).toEqual({
      kind: 'none',
    });
    for (const alertId of [undefined, null, '7', 0, -1, 1.5]) {
      expect(alertLifecycleActionOf(event(ALERT_EVENTS.CREATED, { alert_id: alertId, integration: integration(true, true) }))).toEqual({ kind: 'none' });
    }
  });
});

describe(AlertLifecycleConsumer.name, () => {
  it('receives only the events that create, resolve or change the status of an alert', () => {
    const sut = new AlertLifecycleConsumer(null as never, null as never, null as never) as unknown as { consumerOptions(): DomainEventConsumerOptions };
    expect(Object.keys(sut.consumerOptions().handlers ?? {}).sort()).toEqual([ALERT_EVENTS.CREATED, ALERT_EVENTS.RESOLVED, ALERT_EVENTS.STATUS_CHANGED].sort());
  });
});
