/** `Name Of Integration!` → `name-of-integration` (the cosmetic name segment of a notify URL). */
export function integrationSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'integration' : slug.slice(0, 100);
}

/** The notify URL of an integration. The name segment is informative: the identifier selects the integration. */
export const notifyUrlOf = (externalUrl: string, projectFullPath: string, integration: { name: string; endpointIdentifier: string }): string =>
  `${externalUrl}/${projectFullPath}/alerts/notify/${integrationSlug(integration.name)}/${integration.endpointIdentifier}.json`;

/** Deepest project path served (GitLab allows 20 levels of groups). */
export const MAX_PROJECT_PATH_SEGMENTS = 21;

const segments = (count: number): string => Array.from({ length: count }, (_, i) => `:s${i}`).join('/');

/**
 * Routes of the notify endpoints, outside /api/v4, one per project path depth (namespace
 * paths contain `/`): `/:s0/:s1/alerts/notify.json` … and `/:s0/:s1/alerts/notify/:name/:endpoint`.
 * The handler joins `s0..sN` back into the project's full path.
 */
export const ALERT_NOTIFY_FIRST_INTEGRATION_ROUTES: string[] = Array.from(
  { length: MAX_PROJECT_PATH_SEGMENTS - 1 },
  (_, i) => `${segments(i + 2)}/alerts/notify.json`,
);
export const ALERT_NOTIFY_INTEGRATION_ROUTES: string[] = Array.from(
  { length: MAX_PROJECT_PATH_SEGMENTS - 1 },
  (_, i) => `${segments(i + 2)}/alerts/notify/:name/:endpoint`,
);
/** `/:s0/:s1/prometheus/alerts/notify.json` …: the project's Prometheus integration (GitLab's path). */
export const ALERT_NOTIFY_PROMETHEUS_ROUTES: string[] = Array.from(
  { length: MAX_PROJECT_PATH_SEGMENTS - 1 },
  (_, i) => `${segments(i + 2)}/prometheus/alerts/notify.json`,
);
/** For the gateway's list of routes served outside /api/v4. */
export const ALERT_NOTIFY_ROUTES: string[] = [...ALERT_NOTIFY_FIRST_INTEGRATION_ROUTES, ...ALERT_NOTIFY_INTEGRATION_ROUTES, ...ALERT_NOTIFY_PROMETHEUS_ROUTES];

/** The notify URL of a Prometheus integration (one per project). */
export const prometheusNotifyUrlOf = (externalUrl: string, projectFullPath: string): string =>
  `${externalUrl}/${projectFullPath}/prometheus/alerts/notify.json`;

/** The project full path of a matched notify route's parameters. */
export function projectPathOfParams(params: Record<string, string | undefined>): string {
  const parts: string[] = [];
  for (let i = 0; i < MAX_PROJECT_PATH_SEGMENTS; i++) {
    const part = params[`s${i}`];
    if (part === undefined) break;
    parts.push(part);
  }
  return parts.join('/');
}
