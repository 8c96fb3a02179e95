import type { AlertPayload } from './alert-payload-parser';
import type { AlertSeverity } from './alert-severity';
import { fingerprintOf } from './fingerprint';
import { ALERT_FIELD_LIMITS, DEFAULT_ALERT_TITLE, hostsOf, type NormalizedAlert, textOf, timeOf } from './normalize-alert';

/** Most alerts one webhook may carry (Alertmanager's `max_alerts` of the receiver bounds what it sends). */
export const PROMETHEUS_MAX_ALERTS = 1000;

/** The Alertmanager webhook version understood (GitLab's `SUPPORTED_VERSION`). */
export const ALERTMANAGER_WEBHOOK_VERSION = '4';
/** The version Grafana Alerting's webhook contact point sends. */
export const GRAFANA_WEBHOOK_VERSION = '1';

/** Keys every Alertmanager webhook has (GitLab's `REQUIRED_PAYLOAD_KEYS`). */
export const ALERTMANAGER_REQUIRED_KEYS = [
  'version',
  'groupKey',
  'status',
  'receiver',
  'groupLabels',
  'commonLabels',
  'commonAnnotations',
  'externalURL',
  'alerts',
] as const;

export type PrometheusSource = 'alertmanager' | 'grafana';

export const PROMETHEUS_MONITORING_TOOL: Record<PrometheusSource, string> = { alertmanager: 'Prometheus', grafana: 'Grafana' };

/**
 * `labels.severity` as GitLab maps Prometheus severities (`Payload::Prometheus`): the alert
 * severities themselves, then the common aliases. Case-insensitive; anything else ⇒ critical.
 */
export const PROMETHEUS_SEVERITY_MAPPING: Readonly<Record<string, AlertSeverity>> = {
  critical: 'critical',
  high: 'high',
  medium: 'medium',
  low: 'low',
  info: 'info',
  unknown: 'unknown',
  s1: 'critical',
  s2: 'high',
  s3: 'medium',
  s4: 'low',
  s5: 'info',
  p1: 'critical',
  p2: 'high',
  p3: 'medium',
  p4: 'low',
  p5: 'info',
  debug: 'info',
  information: 'info',
  notice: 'info',
  warn: 'low',
  warning: 'low',
  minor: 'low',
  error: 'medium',
  major: 'high',
  emergency: 'critical',
  fatal: 'critical',
  alert: 'medium',
  page: 'high',
};

export function prometheusSeverityOf(value: unknown): AlertSeverity {
  if (typeof value !== 'string') return 'critical';
  return Object.prototype.hasOwnProperty.call(PROMETHEUS_SEVERITY_MAPPING, value.trim().toLowerCase())
    ? PROMETHEUS_SEVERITY_MAPPING[value.trim().toLowerCase()]
    : 'critical';
}

/** One element of `alerts[]`, checked. */
export interface PrometheusAlertElement {
  status: 'firing' | 'resolved';
  labels: Record<string, unknown>;
  annotations: Record<string, unknown>;
  /** The element as received (kept with an unmatched recovery). */
  raw: Record<string, unknown>;
}

export type PrometheusPayloadCheck = { ok: true; source: PrometheusSource; alerts: PrometheusAlertElement[] } | { ok: false; message: string };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Checks an Alertmanager (version 4) or Grafana Alerting (version 1 with `orgId` or `state`)
 * webhook payload. The keys Alertmanager always sends must be there (as GitLab requires them);
 * each element of `alerts` must be an object with `status` `firing` or `resolved` and a
 * `labels` object (`annotations`, when present, an object). Returns what is wrong otherwise.
 */
export function checkPrometheusPayload(payload: AlertPayload): PrometheusPayloadCheck {
  const missing = ALERTMANAGER_REQUIRED_KEYS.filter((key) => !Object.prototype.hasOwnProperty.call(payload, key));
  if (missing.length > 0) return { ok: false, message: `not an Alertmanager webhook payload: ${missing.join(', ')} missing` };
  const version = payload.version;
  let source: PrometheusSource;
  if (version === ALERTMANAGER_WEBHOOK_VERSION) source = 'alertmanager';
  else if (version === GRAFANA_WEBHOOK_VERSION && ('orgId' in payload || 'state' in payload)) source = 'grafana';
  else return { ok: false, message: `unsupported webhook version ${JSON.stringify(version)} (Alertmanager's version "4" or Grafana Alerting's "1")` };
  const alerts = payload.alerts;
  if (!Array.isArray(alerts)) return { ok: false, message: 'alerts must be an array' };
  if (alerts.length > PROMETHEUS_MAX_ALERTS)
    return { ok: false, message: `alerts has ${alerts.length} elements, at most ${PROMETHEUS_MAX_ALERTS} are accepted (set max_alerts on the receiver)` };
  const checked: PrometheusAlertElement[] = [];
  for (let i = 0; i < alerts.length; i++) {
    const element: unknown = alerts[i];
    if (!isObject(element)) return { ok: false, message: `alerts[${i}] must be an object` };
    if (element.status !== 'firing' && element.status !== 'resolved') return { ok: false, message: `alerts[${i}].status must be "firing" or "resolved"` };
    if (!isObject(element.labels)) return { ok: false, message: `alerts[${i}].labels must be an object` };
    if (element.annotations !== undefined && element.annotations !== null && !isObject(element.annotations)) {
      return { ok: false, message: `alerts[${i}].annotations must be an object` };
    }
    checked.push({ status: element.status, labels: element.labels, annotations: isObject(element.annotations) ? element.annotations : {}, raw: element });
  }
  return { ok: true, source, alerts: checked };
}

/** Alertmanager's (Go's) zero time, `0001-01-01T00:00:00Z`: "not set". Earlier than any real alert. */
const ZERO_TIME_LIMIT = Date.UTC(1970, 0, 2);

/** A time of the webhook: RFC 3339; Go's zero time and anything unreadable are null. */
export function webhookTimeOf(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const time = timeOf(value);
  return time === null || time.getTime() < ZERO_TIME_LIMIT ? null : time;
}

/** Element keys read into the alert's own attributes; the others (labels, annotations, generatorURL, Grafana's URLs and values) go to `details`. */
const ELEMENT_ATTRIBUTES = new Set(['status', 'startsAt', 'endsAt', 'fingerprint']);

/**
 * One element of `alerts[]` as an alert (GitLab's `Payload::Prometheus`, but for the fingerprint):
 * - title: `annotations.title`, else `annotations.summary`, else `labels.alertname` (else `New: Alert`);
 * - description: `annotations.description`; severity: `labels.severity` (see `prometheusSeverityOf`);
 * - monitoring tool `Prometheus` (`Grafana` for Grafana's webhook); hosts: `labels.instance`;
 * - environment: `labels.gitlab_environment_name`, else `labels.environment`;
 * - started at `startsAt` (zero or unreadable: the receipt time); `status: resolved` resolves, at
 *   `endsAt` (zero or unreadable: the receipt time) — a firing alert's `endsAt` is only
 *   Alertmanager's expiry estimate and is ignored;
 * - fingerprint: SHA-1 of the element's `fingerprint` (Alertmanager's hash of the label set) when
 *   present, else of the canonical JSON of the label set: one label set, one alert;
 * - details: every other key of the element (`labels`, `annotations`, `generatorURL`, …). Pure.
 */
export function normalizePrometheusAlert(element: PrometheusAlertElement, source: PrometheusSource, now: Date): NormalizedAlert {
  const { labels, annotations, raw } = element;
  const details: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) if (!ELEMENT_ATTRIBUTES.has(key)) details[key] = raw[key];
  if (!('annotations' in details)) details.annotations = annotations;
  const title =
    textOf(annotations.title, ALERT_FIELD_LIMITS.title) ??
    textOf(annotations.summary, ALERT_FIELD_LIMITS.title) ??
    textOf(labels.alertname, ALERT_FIELD_LIMITS.title);
  const environment = textOf(labels.gitlab_environment_name, ALERT_FIELD_LIMITS.environment) ?? textOf(labels.environment, ALERT_FIELD_LIMITS.environment);
  return {
    title: title ?? DEFAULT_ALERT_TITLE,
    description: textOf(annotations.description, ALERT_FIELD_LIMITS.description),
    startedAt: webhookTimeOf(raw.startsAt) ?? now,
    endedAt: element.status === 'resolved' ? (webhookTimeOf(raw.endsAt) ?? now) : null,
    service: null,
    monitoringTool: PROMETHEUS_MONITORING_TOOL[source],
    hosts: labels.instance === undefined ? [] : hostsOf(labels.instance),
    severity: prometheusSeverityOf(labels.severity),
    fingerprint: fingerprintOf(typeof raw.fingerprint === 'string' ? raw.fingerprint : null) ?? fingerprintOf(labels) ?? fingerprintOf('{}'),
    environment,
    details,
  };
}
