// Topic and consumer-group names. Never rename: they are part of the stored stream.
export const TOPICS = {
  DOMAIN_EVENTS: 'domain-events.v1',
  DOMAIN_EVENTS_DLQ: 'domain-events.v1.dlq',
} as const;

export const CONSUMER_GROUPS = {
  ALERT_ENGINE: 'alert-engine.v1',
  PROJECTOR: 'projector.v1',
  HOOK_DISPATCHER: 'hook-dispatcher.v1',
  SYSTEM_NOTES: 'system-notes.v1',
  /** Pipeline creation on pushes (libs/ci). */
  CI_PIPELINES: 'ci-pipelines.v1',
  /** Ingestion of default-branch pipelines' security reports (libs/vulnerabilities). */
  SECURITY_REPORTS: 'security-reports.v1',
  /** The gateway's relay of alert events to the console's live streams (Redis pub/sub). */
  ALERT_LIVE: 'alert-live.v1',
  /** Approvals reset on pushes to merge request source branches (libs/approvals). */
  APPROVALS: 'approvals.v1',
} as const;

/** Applies the configured prefix (tests and tenants share one broker). */
/** `<prefix>.<name>`; a prefix written with its trailing dot (`x.`) gives one dot, not two. */
export const prefixed = (prefix: string, name: string): string => {
  const bare = prefix.replace(/\.+$/, '');
  return bare ? `${bare}.${name}` : name;
};
