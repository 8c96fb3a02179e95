/** Alert severities, most severe first (the order of `order_by=severity`). */
export const ALERT_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** Case-insensitive; anything else, or nothing, is `critical` (a page is safer than silence). */
export function normalizeSeverity(value: unknown): AlertSeverity {
  if (typeof value !== 'string') return 'critical';
  const candidate = value.trim().toLowerCase();
  return (ALERT_SEVERITIES as readonly string[]).includes(candidate) ? (candidate as AlertSeverity) : 'critical';
}

/** Alert statuses. `resolved` alerts never group new payloads. */
export const ALERT_STATUSES = ['triggered', 'acknowledged', 'resolved', 'ignored'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
