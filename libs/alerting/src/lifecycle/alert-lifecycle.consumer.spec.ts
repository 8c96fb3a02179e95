import { buildDomainEvent } from '@app/messaging/domain-event';
import { ALERT_EVENTS } from '../alerting.events';
import { alertLifecycleActionOf } from './alert-lifecycle.consumer';

const event = (type: string, data: Record<string, unknown>) => buildDomainEvent({ type, projectId: 1, data });
const integration = (createIncident: unknown, autoClose: unknown) => ({ id: 3, name: 'Prom', create_incident: createIncident, auto_close_incident: autoClose });

describe(alertLifecycleActionOf.name, () => {
  it('opens an incident for a new alert only when the integration asks', () => {
    expect(alertLifecycleActionOf(event(ALERT_EVENTS.CREATED, { alert_id: 7, integration: integration(true, false) }))).toEqual({ kind: 'create_incident', alertId: 7 });
    expect(alertLifecycleActionOf(event(ALERT_EVENTS.CREATED, { alert_id: 7, integration: integration(false, true) }))).toEqual({ kind: 'none' });
    expect(alertLifecycleActionOf(event(ALERT_EVENTS.CREATED, { alert_id: 7, integration: integration('true', true) }))).toEqual({ kind: 'none' });
  });

  it('closes the incident of a resolved alert only when auto-close is on', () => {
    expect(alertLifecycleActionOf(event(ALERT_EVENTS.RESOLVED, { alert_id: 9, integration: integration(true, true) }))).toEqual({ kind: 'close_incident', alertId: 9 });
    expect(alertLifecycleActionOf(event(ALERT_EVENTS.RESOLVED, { alert_id: 9, integration: integration(true, false) }))).toEqual({ kind: 'none' });
  });

  it('ignores other events and malformed data', () => {
    expect(alertLifecycleActionOf(event(ALERT_EVENTS.GROUPED, { alert_id: 7, integration: integration(true, true) }))).toEqual({ kind: 'none' });
    expect(alertLifecycleActionOf(event(ALERT_EVENTS.STATUS_CHANGED, { alert_id: 7 }))).toEqual({ kind: 'none' });
    expect(alertLifecycleActionOf(event('issue.opened', { alert_id: 7, integration: integration(true, true) }))).toEqual({ kind: 'none' });
    for (const alertId of [undefined, null, '7', 0, -1, 1.5]) {
      expect(alertLifecycleActionOf(event(ALERT_EVENTS.CREATED, { alert_id: alertId, integration: integration(true, true) }))).toEqual({ kind: 'none' });
    }
    expect(alertLifecycleActionOf(event(ALERT_EVENTS.CREATED, { alert_id: 7, integration: null }))).toEqual({ kind: 'none' });
  });
});
