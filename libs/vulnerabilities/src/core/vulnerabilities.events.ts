import type { DomainEventType, NewDomainEvent } from '@app/messaging';
import type { VulnerabilityEntity, VulnerabilityState } from '../entities';

/** Domain event types of vulnerabilities. Never rename: consumers match on them. */
export const VULNERABILITY_EVENTS = {
  CREATED: 'vulnerability.created',
  CONFIRMED: 'vulnerability.confirmed',
  RESOLVED: 'vulnerability.resolved',
  DISMISSED: 'vulnerability.dismissed',
  REVERTED: 'vulnerability.reverted',
  REPORTS_INGESTED: 'security_reports.ingested',
} as const satisfies Record<string, DomainEventType>;

export type VulnerabilityEventType = Exclude<(typeof VULNERABILITY_EVENTS)[keyof typeof VULNERABILITY_EVENTS], 'security_reports.ingested'>;

export interface ProjectScope {
  projectId: number;
  groupId: number | null;
}

export function vulnerabilityEvent(
  type: VulnerabilityEventType,
  actorId: number | null,
  vulnerability: VulnerabilityEntity,
  findingId: number | null,
  from: VulnerabilityState | null,
  scope: ProjectScope,
): NewDomainEvent<VulnerabilityEventType> {
  return {
    type,
    actor: actorId,
    projectId: scope.projectId,
    groupId: scope.groupId,
    target: { type: 'vulnerability', id: vulnerability.id, title: vulnerability.title },
    data: {
      vulnerability_id: vulnerability.id,
      finding_id: findingId,
      title: vulnerability.title,
      state: vulnerability.state,
      from,
      severity: vulnerability.severity,
      confidence: vulnerability.confidence,
      report_type: vulnerability.reportType,
      resolved_on_default_branch: vulnerability.resolvedOnDefaultBranch,
    },
  };
}
