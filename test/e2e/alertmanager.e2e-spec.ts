import { AlertingFixture } from './support/alerting-fixture';
import { RunningAlertmanager, startAlertmanager } from './support/alertmanager';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

/**
 * The real Prometheus Alertmanager (Debian's package) with a webhook receiver pointing at the
 * service's Prometheus notify URL: alerts posted into Alertmanager arrive, grouped, and are
 * resolved in the service. Alertmanager's group timers are tiny so that the test is quick.
 */
describe('Prometheus Alertmanager → the Prometheus integration', () => {
  let gw: TestGateway;
  let fx: AlertingFixture;
  let am: RunningAlertmanager;
  let project: { id: number; fullPath: string };

  beforeAll(async () => {
    gw = await startTestGateway('alertmanager');
    fx = new AlertingFixture(gw);
    project = await fx.project('monitoring', 'shop');
    const integration = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.id}/alert_management/http_integrations`, {
      token: gw.rootToken,
      body: { name: 'Alertmanager', type: 'prometheus' },
    });
    if (integration.status !== 201) throw new Error(`integration: ${integration.status} ${integration.text}`);
    // The receiver stanza of docs/alerts.md, with tiny group timers.
    am = await startAlertmanager(
      [
        'route:',
        '  receiver: service-api',
        "  group_by: ['alertname']",
        '  group_wait: 100ms',
        '  group_interval: 300ms',
        '  repeat_interval: 1h',
        'receivers:',
        '  - name: service-api',
        '    webhook_configs:',
        `      - url: '${integration.body.url}'`,
        '        send_resolved: true',
        '        http_config:',
        '          authorization:',
        `            credentials: '${integration.body.token}'`,
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await am?.stop();
    await gw?.close();
  });

  const postToAlertmanager = async (alerts: unknown[]) => {
    const response = await fetch(`${am.url}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(alerts) });
    expect(response.status).toBe(200);
  };
  const rows = () =>
    gw.dataSource.query(
      `SELECT iid, title, status, severity, hosts, event_count, ended_at, created_at, monitoring_tool, details FROM alerts WHERE project_id = $1 ORDER BY iid`,
      [project.id],
    ) as Promise<any[]>;
  async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms; last ${JSON.stringify(value)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('alerts posted into Alertmanager arrive grouped (one webhook, one transaction), then resolved', async () => {
    const startsAt = new Date(Date.now() - 60_000).toISOString();
    const alert = (instance: string, severity: string, endsAt: string) => ({
      labels: { alertname: 'HighLatency', instance, job: 'checkout', severity },
      annotations: { summary: `p99 latency high on ${instance}`, description: 'p99 above 1s' },
      startsAt,
      endsAt,
      generatorURL: 'http://prometheus.example:9090/graph?g0.expr=latency',
    });
    const later = new Date(Date.now() + 3_600_000).toISOString();
    await postToAlertmanager([alert('web-1:9100', 'warning', later), alert('web-2:9100', 'critical', later)]);

    const firing = await waitFor('two alerts', rows, (r) => r.length >= 2);
    expect(firing.map((r) => [r.iid, r.title, r.status, r.severity, r.hosts, r.monitoring_tool])).toEqual([
      [1, 'p99 latency high on web-1:9100', 'triggered', 'low', ['web-1:9100'], 'Prometheus'],
      [2, 'p99 latency high on web-2:9100', 'triggered', 'critical', ['web-2:9100'], 'Prometheus'],
    ]);
    // One webhook for the group: both alerts were created by the same transaction.
    expect(firing[0].created_at.getTime()).toBe(firing[1].created_at.getTime());
    expect(firing[0].details).toMatchObject({
      generatorURL: 'http://prometheus.example:9090/graph?g0.expr=latency',
      labels: { alertname: 'HighLatency', instance: 'web-1:9100' },
    });

    // Ending them in Alertmanager sends the resolved notification (send_resolved).
    const endsAt = new Date(Date.now() - 1_000);
    await postToAlertmanager([alert('web-1:9100', 'warning', endsAt.toISOString()), alert('web-2:9100', 'critical', endsAt.toISOString())]);
    const resolved = await waitFor('both resolved', rows, (r) => r.length === 2 && r.every((a) => a.status === 'resolved'));
    expect(resolved.map((r) => [r.ended_at.getTime(), r.event_count])).toEqual([
      [endsAt.getTime(), 1],
      [endsAt.getTime(), 1],
    ]);
    const notes = await gw.dataSource.query(
      `SELECT n.body FROM alert_notes n JOIN alerts a ON a.id = n.alert_id WHERE a.project_id = $1 AND a.iid = 1 ORDER BY n.id`,
      [project.id],
    );
    expect(notes.map((n: { body: string }) => n.body)).toEqual(['logged an alert from **Prometheus**', 'logged a recovery alert from **Prometheus**']);
  });
});
