import { Type } from '@sinclair/typebox';
import { Data, DateTime, defineEvents, Id, NullableString } from './event-part';

const Integration = Type.Object({ id: Id, name: Type.String(), create_incident: Type.Boolean(), auto_close_incident: Type.Boolean() });
const AlertData = Data({
  alert_id: Id,
  iid: Id,
  title: Type.String(),
  description: NullableString,
  severity: Type.String(),
  status: Type.String(),
  service: NullableString,
  monitoring_tool: NullableString,
  hosts: Type.Array(Type.String()),
  environment: NullableString,
  fingerprint: NullableString,
  started_at: DateTime,
  ended_at: Type.Union([DateTime, Type.Null()]),
  event_count: Type.Integer({ minimum: 1 }),
  integration: Integration,
  previous_status: Type.Optional(Type.String()),
});
const IntegrationData = Data({
  id: Id,
  name: Type.String(),
  type: Type.Optional(Type.String()),
  active: Type.Optional(Type.Boolean()),
  create_incident: Type.Optional(Type.Boolean()),
  auto_close_incident: Type.Optional(Type.Boolean()),
});

/** Events of `libs/alerting`: alerts (ingestion and the on-call API) and HTTP endpoint integrations. */
export const ALERTING_EVENT_PART = defineEvents({
  'alert.created': { description: 'A payload opened a new alert (the integration settings travel in `integration`).', data: AlertData },
  'alert.grouped': {
    description:
      'Repeats of an alert created by the same ingestion batch (at most one per alert and batch), `event_count` the count they leave; repeats of alerts already open are `alert.repeats`.',
    data: AlertData,
  },
  'alert.repeats': {
    description:
      'Repeats of open alerts in one ingestion batch of a project (one event for the batch, not one per repeat): each alert once, with the count the batch leaves. Repeats of an alert created by the same batch are an `alert.grouped` instead.',
    data: Data({
      alerts: Type.Array(
        Type.Object({
          alert_id: Id,
          iid: Id,
          title: Type.String(),
          severity: Type.String(),
          status: Type.String(),
          fingerprint: NullableString,
          event_count: Type.Integer({ minimum: 1 }),
        }),
      ),
    }),
  },
  'alert.resolved': { description: 'A recovery resolved an open alert (`previous_status`).', data: AlertData },
  'alert.status_changed': {
    description: "A user changed an alert's status (`from`, `to`).",
    data: Data({
      alert_id: Id,
      iid: Id,
      from: Type.String(),
      to: Type.String(),
      fingerprint: NullableString,
      integration: Type.Union([Integration, Type.Null()]),
    }),
  },
  'alert.assignees_changed': {
    description: "A user changed an alert's assignees.",
    data: Data({ alert_id: Id, iid: Id, previous_assignee_ids: Type.Array(Id), assignee_ids: Type.Array(Id) }),
  },
  'alert.recovery_unmatched': {
    description: 'A recovery matched no open alert; kept in `alert_unmatched_recoveries`.',
    data: Data({
      recovery_id: Id,
      title: Type.String(),
      fingerprint: NullableString,
      ended_at: DateTime,
      integration: Type.Object({ id: Id, name: Type.String() }),
    }),
  },
  'alert_integration.created': { description: 'An HTTP endpoint integration was created.', data: IntegrationData },
  'alert_integration.updated': { description: 'An HTTP endpoint integration was changed.', data: IntegrationData },
  'alert_integration.deleted': { description: 'An HTTP endpoint integration was deleted.', data: IntegrationData },
  'alert_integration.token_reset': { description: "An HTTP endpoint integration's token was reset (never its value).", data: IntegrationData },
});
