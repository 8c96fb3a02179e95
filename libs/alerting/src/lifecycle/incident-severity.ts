import type { IssueSeverity } from '@app/issues';
import type { AlertSeverity } from '../engine/alert-severity';

/** An incident takes its alert's severity; `info` has no incident level and becomes `low`. */
export function incidentSeverityOf(severity: AlertSeverity | string | null | undefined): IssueSeverity {
  switch (severity) {
    case 'critical':
    case 'high':
    case 'medium':
    case 'low':
      return severity;
    case 'info':
      return 'low';
    default:
      return 'unknown';
  }
}
