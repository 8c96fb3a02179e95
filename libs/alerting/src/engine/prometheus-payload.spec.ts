import { fingerprintOf } from './fingerprint';
import { checkPrometheusPayload, normalizePrometheusAlert, prometheusSeverityOf, PROMETHEUS_MAX_ALERTS, webhookTimeOf } from './prometheus-payload';

const NOW = new Date('2026-03-01T12:00:00Z');

const webhook = (alerts: unknown[], extra: Record<string, unknown> = {}) => ({
  version: '4',
  groupKey: '{}:{alertname="HighLatency"}',
  truncatedAlerts: 0,
  status: 'firing',
  receiver: 'service-api',
  groupLabels: { alertname: 'HighLatency' },
  commonLabels: { alertname: 'HighLatency' },
  commonAnnotations: {},
  externalURL: 'http://alertmanager:9093',
  alerts,
  ...extra,
});

const element = (overrides: Record<string, unknown> = {}) => ({
  status: 'firing',
  labels: { alertname: 'HighLatency', instance: 'web-1:9100', severity: 'warning', job: 'web' },
  annotations: { summary: 'p99 above 1s', description: 'p99 latency is 1.4s' },
  startsAt: '2026-03-01T11:58:00.123Z',
  endsAt: '0001-01-01T00:00:00Z',
  generatorURL: 'http://prometheus:9090/graph?g0.expr=x',
  fingerprint: '5b1c9a3e0e7f2d11',
  ...overrides,
});

describe('checkPrometheusPayload', () => {
  it('accepts an Alertmanager webhook (version 4) and a Grafana one (version 1 with orgId/state)', () => {
    const am = checkPrometheusPayload(webhook([element()]));
    expect(am).toMatchObject({ ok: true, source: 'alertmanager' });
    const grafana = checkPrometheusPayload(webhook([element()], { version: '1', orgId: 1, state: 'alerting', title: '[FIRING:1]', message: 'm' }));
    expect(grafana).toMatchObject({ ok: true, source: 'grafana' });
  });

  it.each([
    [{ ...webhook([]), version: '3' }, 'unsupported webhook version "3"'],
    [
      { title: 'generic alert' },
      'not an Alertmanager webhook payload: version, groupKey, status, receiver, groupLabels, commonLabels, commonAnnotations, externalURL, alerts missing',
    ],
    [webhook([element()], { version: '1' }), 'unsupported webhook version "1"'],
    [webhook({} as unknown as unknown[]), 'alerts must be an array'],
    [webhook([42]), 'alerts[0] must be an object'],
    [webhook([element(), element({ status: 'pending' })]), 'alerts[1].status must be "firing" or "resolved"'],
    [webhook([element({ labels: 'x' })]), 'alerts[0].labels must be an object'],
    [webhook([element({ annotations: [] })]), 'alerts[0].annotations must be an object'],
    [webhook(Array(PROMETHEUS_MAX_ALERTS + 1).fill(element())), `alerts has ${PROMETHEUS_MAX_ALERTS + 1} elements, at most ${PROMETHEUS_MAX_ALERTS}`],
  ])('refuses a malformed webhook with what is wrong (%#)', (payload, message) => {
    const checked = checkPrometheusPayload(payload as Record<string, unknown>);
    expect(checked.ok).toBe(false);
    expect((checked as { message: string }).message).toContain(message);
  });
});

describe('prometheusSeverityOf', () => {
  it.each([
    ['critical', 'critical'],
    ['HIGH', 'high'],
    ['medium', 'medium'],
    ['low', 'low'],
    ['info', 'info'],
    ['unknown', 'unknown'],
    ['s1', 'critical'],
    ['s2', 'high'],
    ['s3', 'medium'],
    ['s4', 'low'],
    ['s5', 'info'],
    ['p1', 'critical'],
    ['P2', 'high'],
    ['p3', 'medium'],
    ['p4', 'low'],
    ['p5', 'info'],
    ['debug', 'info'],
    ['information', 'info'],
    ['notice', 'info'],
    ['warn', 'low'],
    ['warning', 'low'],
    ['minor', 'low'],
    ['error', 'medium'],
    ['major', 'high'],
    ['emergency', 'critical'],
    ['fatal', 'critical'],
    ['alert', 'medium'],
    ['page', 'high'],
    ['toString', 'critical'],
    ['whatever', 'critical'],
    [undefined, 'critical'],
    [3, 'critical'],
  ])('%s ⇒ %s', (value, severity) => {
    expect(prometheusSeverityOf(value)).toBe(severity);
  });
});

describe('normalizePrometheusAlert', () => {
  const normalize = (raw: Record<string, unknown>, source: 'alertmanager' | 'grafana' = 'alertmanager') => {
    const checked = checkPrometheusPayload(webhook([raw]));
    if (!checked.ok) throw new Error(checked.message);
    return normalizePrometheusAlert(checked.alerts[0], source, NOW);
  };

  it('reads a firing alert as GitLab does; a firing alert’s endsAt does not resolve it', () => {
    const alert = normalize(element({ endsAt: '2026-03-01T12:04:00Z' }));
    expect(alert).toEqual({
      title: 'p99 above 1s',
      description: 'p99 latency is 1.4s',
      startedAt: new Date('2026-03-01T11:58:00.123Z'),
      endedAt: null,
      service: null,
      monitoringTool: 'Prometheus',
      hosts: ['web-1:9100'],
      severity: 'low',
      fingerprint: fingerprintOf('5b1c9a3e0e7f2d11'),
      environment: null,
      details: {
        labels: { alertname: 'HighLatency', instance: 'web-1:9100', severity: 'warning', job: 'web' },
        annotations: { summary: 'p99 above 1s', description: 'p99 latency is 1.4s' },
        generatorURL: 'http://prometheus:9090/graph?g0.expr=x',
      },
    });
  });

  it('title: annotations.title, then summary, then labels.alertname, then the default', () => {
    expect(normalize(element({ annotations: { title: 'T', summary: 'S' } })).title).toBe('T');
    expect(normalize(element({ annotations: {} })).title).toBe('HighLatency');
    expect(normalize(element({ annotations: undefined, labels: { job: 'x' } })).title).toBe('New: Alert');
  });

  it('resolved: at endsAt, or at the receipt time when endsAt is the zero time', () => {
    expect(normalize(element({ status: 'resolved', endsAt: '2026-03-01T11:59:30Z' })).endedAt).toEqual(new Date('2026-03-01T11:59:30Z'));
    expect(normalize(element({ status: 'resolved' })).endedAt).toEqual(NOW);
    expect(normalize(element({ startsAt: '0001-01-01T00:00:00Z' })).startedAt).toEqual(NOW);
  });

  it('fingerprint: the element’s, else the canonical label set (label order irrelevant)', () => {
    const a = normalize(element({ fingerprint: undefined, labels: { b: '2', a: '1' } }));
    const b = normalize(element({ fingerprint: '', labels: { a: '1', b: '2' } }));
    expect(a.fingerprint).toBe(fingerprintOf({ a: '1', b: '2' }));
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(normalize(element({ fingerprint: undefined, labels: { a: '1', b: '3' } })).fingerprint).not.toBe(a.fingerprint);
  });

  it('environment from gitlab_environment_name, else environment; Grafana is its own monitoring tool and keeps its extra keys', () => {
    expect(normalize(element({ labels: { environment: 'staging' } })).environment).toBe('staging');
    expect(normalize(element({ labels: { environment: 'staging', gitlab_environment_name: 'production' } })).environment).toBe('production');
    const grafana = normalize(element({ dashboardURL: 'http://grafana/d/1', values: { B: 1.5 } }), 'grafana');
    expect(grafana.monitoringTool).toBe('Grafana');
    expect(grafana.details).toMatchObject({ dashboardURL: 'http://grafana/d/1', values: { B: 1.5 } });
  });

  it('webhookTimeOf: RFC 3339, the zero time and garbage are null', () => {
    expect(webhookTimeOf('2026-03-01T11:58:00Z')).toEqual(new Date('2026-03-01T11:58:00Z'));
    expect(webhookTimeOf('0001-01-01T00:00:00Z')).toBeNull();
    expect(webhookTimeOf('soon')).toBeNull();
    expect(webhookTimeOf(12)).toBeNull();
  });
});
