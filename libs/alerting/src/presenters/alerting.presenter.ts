import { presentUserSummary } from '@app/identity';
import type { UserEntity } from '@app/identity';
import { presentAttributeMappings } from '../engine/attribute-mapping';
import type { AlertHttpIntegrationEntity } from '../entities/alert-http-integration.entity';
import type { AlertNoteEntity } from '../entities/alert-note.entity';
import type { AlertEntity } from '../entities/alert.entity';
import { notifyUrlOf, prometheusNotifyUrlOf } from '../core/notify-url';

export interface PresentContext {
  externalUrl: string;
  projectFullPath: string;
}

const iso = (date: Date | null): string | null => (date ? new Date(date).toISOString() : null);

/** An integration (HTTP endpoint or Prometheus); `token` only right after creation or reset. */
export function presentHttpIntegration(integration: AlertHttpIntegrationEntity, context: PresentContext, token: string | null = null): Record<string, unknown> {
  return {
    id: integration.id,
    name: integration.name,
    type: integration.type,
    active: integration.active,
    url:
      integration.type === 'prometheus'
        ? prometheusNotifyUrlOf(context.externalUrl, context.projectFullPath)
        : notifyUrlOf(context.externalUrl, context.projectFullPath, integration),
    token,
    payload_example: integration.payloadExample,
    payload_attribute_mappings: presentAttributeMappings(integration.payloadAttributeMappings ?? []),
    create_incident: integration.createIncident,
    auto_close_incident: integration.autoCloseIncident,
    created_at: iso(integration.createdAt),
    updated_at: iso(integration.updatedAt),
  };
}

export function presentAlert(
  alert: AlertEntity,
  context: PresentContext & { users: Map<number, UserEntity>; integrations: Map<number, Pick<AlertHttpIntegrationEntity, 'id' | 'name'>> },
): Record<string, unknown> {
  const integration = alert.integrationId !== null ? context.integrations.get(alert.integrationId) : undefined;
  return {
    id: alert.id,
    iid: alert.iid,
    title: alert.title,
    description: alert.description,
    severity: alert.severity,
    status: alert.status,
    service: alert.service,
    monitoring_tool: alert.monitoringTool,
    hosts: alert.hosts,
    started_at: iso(alert.startedAt),
    ended_at: iso(alert.endedAt),
    event_count: alert.eventCount,
    fingerprint: alert.fingerprint,
    environment: alert.environment,
    details: alert.details,
    integration: integration ? { id: integration.id, name: integration.name } : null,
    issue_iid: alert.issueIid,
    assignees: alert.assigneeIds.flatMap((id) => {
      const user = context.users.get(id);
      return user ? [presentUserSummary(user, context.externalUrl)] : [];
    }),
    created_at: iso(alert.createdAt),
    updated_at: iso(alert.updatedAt),
    web_url: `${context.externalUrl}/${context.projectFullPath}/-/alert_management/${alert.iid}/details`,
  };
}

/** A system note on an alert, in the shape of the notes API. `author` is null when the integration logged it. */
export function presentAlertNote(
  note: AlertNoteEntity,
  alert: AlertEntity,
  context: { externalUrl: string; users: Map<number, UserEntity> },
): Record<string, unknown> {
  const author = note.authorId !== null ? context.users.get(note.authorId) : undefined;
  return {
    id: note.id,
    type: null,
    body: note.body,
    attachment: null,
    author: author ? presentUserSummary(author, context.externalUrl) : null,
    created_at: iso(note.createdAt),
    updated_at: iso(note.createdAt),
    system: note.system,
    noteable_id: alert.id,
    noteable_type: 'AlertManagement::Alert',
    noteable_iid: alert.iid,
    project_id: alert.projectId,
    resolvable: false,
    confidential: false,
    internal: false,
  };
}
