import { fingerprintOf } from '@app/alerting';
import { AlertingFixture } from './support/alerting-fixture';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

/** A webhook as Prometheus Alertmanager (version 4) sends it. */
function webhook(status: 'firing' | 'resolved', alerts: unknown[], extra: Record<string, unknown> = {}) {
  return {
    receiver: 'service-api',
    status,
    alerts,
    groupLabels: { alertname: 'HighLatency' },
    commonLabels: { alertname: 'HighLatency', job: 'web' },
    commonAnnotations: {},
    externalURL: 'http://alertmanager.example:9093',
    version: '4',
    groupKey: '{}/{severity="page"}:{alertname="HighLatency"}',
    truncatedAlerts: 0,
    ...extra,
  };
}

const ZERO = '0001-01-01T00:00:00Z';

function element(instance: string, overrides: Record<string, unknown> = {}) {
  const labels = { alertname: 'HighLatency', instance, job: 'web', severity: 'warning', ...(overrides.labels as object | undefined) };
  return {
    status: 'firing',
    annotations: { summary: `p99 latency high on ${instance}`, description: 'p99 above 1s for 5 minutes', runbook_url: 'https://runbooks.example/latency' },
    startsAt: '2026-03-01T11:58:00.123Z',
    endsAt: ZERO,
    generatorURL: 'http://prometheus.example:9090/graph?g0.expr=latency%3E1&g0.tab=1',
    fingerprint: `fp-${instance}`,
    ...overrides,
    labels,
  };
}

/**
 * The Prometheus integration over HTTP on the FREE tier (it is on every tier): managed with the
 * integrations API, Alertmanager's and Grafana's webhooks on `prometheus/alerts/notify.json`.
 */
describe('Prometheus / Alertmanager integration', () => {
  let gw: TestGateway;
  let fx: AlertingFixture;
  let project: { id: number; fullPath: string };
  let prometheus: { id: number; url: string; token: string; path: string };

  beforeAll(async () => {
    gw = await startTestGateway('alert-prometheus', { SERVICE_TIER: 'free' });
    fx = new AlertingFixture(gw);
    project = await fx.project('infra', 'web');
  });
  afterAll(() => gw.close());

  const integrationsPath = () => `/api/v4/projects/${project.id}/alert_management/http_integrations`;
  const post = (body: unknown, options: { token?: string; raw?: string; path?: string } = {}) =>
    fx.notify(options.path ?? prometheus.path, body, { token: options.token ?? prometheus.token, raw: options.raw });
  const alertRows = () =>
    gw.dataSource.query(`SELECT iid, title, status, severity, event_count, fingerprint FROM alerts WHERE project_id = $1 ORDER BY iid`, [
      project.id,
    ]) as Promise<any[]>;
  const outboxCount = async () =>
    (await gw.dataSource.query(`SELECT count(*)::int AS n FROM outbox_events WHERE payload->>'project_id' = $1`, [String(project.id)]))[0].n as number;
  const notesOf = async (iid: number) =>
    (
      await gw.dataSource.query(`SELECT n.body FROM alert_notes n JOIN alerts a ON a.id = n.alert_id WHERE a.project_id = $1 AND a.iid = $2 ORDER BY n.id`, [
        project.id,
        iid,
      ])
    ).map((r: { body: string }) => r.body);

  describe('the integration', () => {
    it('is created with type prometheus beside the one HTTP integration of FREE, with its own key and GitLab’s notify URL', async () => {
      const http = await fx.integration(project.id, { name: 'Generic' });
      const created = await api(gw.baseUrl, 'POST', integrationsPath(), { token: gw.rootToken, body: { name: 'Alertmanager', type: 'prometheus' } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'Alertmanager',
        type: 'prometheus',
        active: true,
        url: `${gw.config.http.externalUrl}/infra/web/prometheus/alerts/notify.json`,
      });
      expect(created.body.token).toMatch(/^[0-9a-f]{64}$/);
      prometheus = { id: created.body.id, url: created.body.url, token: created.body.token, path: new URL(created.body.url).pathname };

      const listed = await api(gw.baseUrl, 'GET', integrationsPath(), { token: gw.rootToken });
      expect(listed.body.map((i: any) => [i.name, i.type])).toEqual([
        ['Generic', 'http'],
        ['Alertmanager', 'prometheus'],
      ]);
      // The HTTP integration's key is not the Prometheus integration's.
      expect((await post(webhook('firing', []), { token: http.token })).status).toBe(401);
    });

    it('one per project, no custom mapping, a type that cannot change, an unknown type refused', async () => {
      const second = await api(gw.baseUrl, 'POST', integrationsPath(), { token: gw.rootToken, body: { name: 'Another', type: 'prometheus' } });
      expect(second.status).toBe(400);
      expect(second.body).toEqual({ message: { type: ['Multiple Prometheus integrations are not supported'] } });
      const unknown = await api(gw.baseUrl, 'POST', integrationsPath(), { token: gw.rootToken, body: { name: 'X', type: 'nagios' } });
      expect(unknown.status).toBe(400);
      const mapped = await api(gw.baseUrl, 'PUT', `${integrationsPath()}/${prometheus.id}`, { token: gw.rootToken, body: { payload_example: '{"a":1}' } });
      expect(mapped.status).toBe(400);
      expect(mapped.body).toEqual({ message: { payload_example: ['is not supported by a Prometheus integration'] } });
      const retyped = await api(gw.baseUrl, 'PUT', `${integrationsPath()}/${prometheus.id}`, { token: gw.rootToken, body: { type: 'http' } });
      expect(retyped.status).toBe(400);
      expect(retyped.body).toEqual({ message: { type: ['cannot be changed'] } });
      const same = await api(gw.baseUrl, 'PUT', `${integrationsPath()}/${prometheus.id}`, {
        token: gw.rootToken,
        body: { type: 'prometheus', name: 'Alertmanager' },
      });
      expect(same.status).toBe(200);
    });

    it('401 for a wrong key, 403 when inactive, 404 for a project without one', async () => {
      expect((await post(webhook('firing', []), { token: 'wrong' })).status).toBe(401);
      await api(gw.baseUrl, 'PUT', `${integrationsPath()}/${prometheus.id}`, { token: gw.rootToken, body: { active: false } });
      expect((await post(webhook('firing', []))).status).toBe(403);
      await api(gw.baseUrl, 'PUT', `${integrationsPath()}/${prometheus.id}`, { token: gw.rootToken, body: { active: true } });
      const other = await fx.project('infra', 'empty');
      expect((await post(webhook('firing', []), { path: `/${other.fullPath}/prometheus/alerts/notify.json` })).status).toBe(404);
      expect((await post(webhook('firing', []))).body).toEqual([]);
    });
  });

  describe('Alertmanager webhooks', () => {
    it('a firing group: one alert per element, read as GitLab reads Prometheus alerts, logged once', async () => {
      const group = webhook('firing', [
        element('web-1:9100', { labels: { environment: 'production' } }),
        element('web-2:9100'),
        element('web-3:9100', { labels: { severity: 'critical' } }),
      ]);
      const response = await post(group);
      expect(response.status).toBe(200);
      expect(response.body).toEqual([
        { iid: 1, title: 'p99 latency high on web-1:9100' },
        { iid: 2, title: 'p99 latency high on web-2:9100' },
        { iid: 3, title: 'p99 latency high on web-3:9100' },
      ]);
      const alert = await fx.alert(project.id, 1);
      expect(alert).toMatchObject({
        title: 'p99 latency high on web-1:9100',
        description: 'p99 above 1s for 5 minutes',
        severity: 'low',
        status: 'triggered',
        monitoring_tool: 'Prometheus',
        hosts: ['web-1:9100'],
        environment: 'production',
        started_at: '2026-03-01T11:58:00.123Z',
        ended_at: null,
        event_count: 1,
        fingerprint: fingerprintOf('fp-web-1:9100'),
        details: {
          generatorURL: 'http://prometheus.example:9090/graph?g0.expr=latency%3E1&g0.tab=1',
          labels: { alertname: 'HighLatency', instance: 'web-1:9100', job: 'web', severity: 'warning', environment: 'production' },
          annotations: {
            summary: 'p99 latency high on web-1:9100',
            description: 'p99 above 1s for 5 minutes',
            runbook_url: 'https://runbooks.example/latency',
          },
        },
      });
      expect((await fx.alert(project.id, 3)).severity).toBe('critical');
      expect(await notesOf(1)).toEqual(['logged an alert from **Prometheus**']);

      // Alertmanager re-sends the group every group_interval: each alert counts an event, no note is
      // added, and the whole re-sent group is one outbox row (alert.repeats with each alert's count).
      const events = await outboxCount();
      const again = await post(group);
      expect(again.body).toEqual(response.body);
      expect((await alertRows()).map((r) => r.event_count)).toEqual([2, 2, 2]);
      expect(await notesOf(1)).toEqual(['logged an alert from **Prometheus**']);
      expect(await outboxCount()).toBe(events + 1);
      const [repeats] = await gw.dataSource.query(`SELECT payload FROM outbox_events WHERE payload->>'project_id' = $1 ORDER BY seq DESC LIMIT 1`, [
        String(project.id),
      ]);
      expect(repeats.payload).toMatchObject({
        type: 'alert.repeats',
        data: { alerts: [1, 2, 3].map((iid) => expect.objectContaining({ iid, event_count: 2 })) },
      });
    });

    it('a label set that changes is another alert; without fingerprint the canonical label set identifies it', async () => {
      const before = (await alertRows()).length;
      // The severity label changed: Alertmanager gives it another fingerprint.
      const escalated = await post(webhook('firing', [element('web-2:9100', { labels: { severity: 'page' }, fingerprint: 'fp-web-2-page' })]));
      expect(escalated.body).toEqual([{ iid: before + 1, title: 'p99 latency high on web-2:9100' }]);
      expect((await fx.alert(project.id, before + 1)).severity).toBe('high');

      const unfingerprinted = (labels: Record<string, string>) => ({
        status: 'firing',
        labels,
        annotations: { title: 'Disk almost full' },
        startsAt: '2026-03-01T10:00:00Z',
        endsAt: ZERO,
      });
      const a = await post(webhook('firing', [unfingerprinted({ alertname: 'DiskFull', instance: 'db-1', mountpoint: '/' })]));
      const b = await post(webhook('firing', [unfingerprinted({ mountpoint: '/', instance: 'db-1', alertname: 'DiskFull' })]));
      const c = await post(webhook('firing', [unfingerprinted({ alertname: 'DiskFull', instance: 'db-1', mountpoint: '/var' })]));
      expect(b.body).toEqual(a.body);
      expect(c.body[0].iid).toBe(a.body[0].iid + 1);
      const alert = await fx.alert(project.id, a.body[0].iid);
      expect(alert).toMatchObject({
        title: 'Disk almost full',
        event_count: 2,
        fingerprint: fingerprintOf({ alertname: 'DiskFull', instance: 'db-1', mountpoint: '/' }),
      });
    });

    it('resolved elements resolve their alert at endsAt (the receipt time when endsAt is the zero time); a later firing opens a new alert', async () => {
      const opened = await post(webhook('firing', [element('cache-1'), element('cache-2')]));
      const [first, second] = opened.body.map((a: { iid: number }) => a.iid);
      const before = Date.now();
      const resolved = await post(
        webhook('resolved', [
          element('cache-1', { status: 'resolved', endsAt: '2026-03-01T12:10:00Z' }),
          element('cache-2', { status: 'resolved', endsAt: ZERO }),
        ]),
      );
      expect(resolved.status).toBe(200);
      expect(resolved.body).toEqual(opened.body);
      const a = await fx.alert(project.id, first);
      expect(a).toMatchObject({ status: 'resolved', ended_at: '2026-03-01T12:10:00.000Z', event_count: 1 });
      const b = await fx.alert(project.id, second);
      expect(b.status).toBe('resolved');
      expect(Date.parse(b.ended_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(await notesOf(first)).toEqual(['logged an alert from **Prometheus**', 'logged a recovery alert from **Prometheus**']);

      // A repeat of the resolved notification matches no open alert: 200 with [], kept as an unmatched recovery.
      const repeated = await post(webhook('resolved', [element('cache-1', { status: 'resolved', endsAt: '2026-03-01T12:10:00Z' })]));
      expect(repeated.body).toEqual([]);
      const [unmatched] = await gw.dataSource.query(`SELECT payload FROM alert_unmatched_recoveries WHERE project_id = $1 ORDER BY id DESC LIMIT 1`, [
        project.id,
      ]);
      expect(unmatched.payload).toMatchObject({ fingerprint: 'fp-cache-1', status: 'resolved' });

      const refired = await post(webhook('firing', [element('cache-1')]));
      expect(refired.body[0].iid).toBeGreaterThan(second);
    });

    it('a mixed group applies its elements in order in one transaction: fire, resolve and fire again gives two alerts', async () => {
      const response = await post(
        webhook('firing', [
          element('queue-1'),
          element('queue-1', { status: 'resolved', endsAt: '2026-03-01T12:20:00Z' }),
          element('queue-1', { startsAt: '2026-03-01T12:30:00Z' }),
        ]),
      );
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(2);
      expect(response.body[1].iid).toBe(response.body[0].iid + 1);
      expect((await fx.alert(project.id, response.body[0].iid)).status).toBe('resolved');
      expect((await fx.alert(project.id, response.body[1].iid)).started_at).toBe('2026-03-01T12:30:00.000Z');
    });

    it('missing annotations and a zero startsAt: title from labels.alertname, no description, started at the receipt time', async () => {
      const before = Date.now();
      const response = await post(
        webhook('firing', [
          { status: 'firing', labels: { alertname: 'NodeDown', instance: 'node-7' }, startsAt: ZERO, endsAt: ZERO, fingerprint: 'node-7-down' },
        ]),
      );
      expect(response.body).toEqual([{ iid: expect.any(Number), title: 'NodeDown' }]);
      const alert = await fx.alert(project.id, response.body[0].iid);
      expect(alert).toMatchObject({
        description: null,
        severity: 'critical',
        hosts: ['node-7'],
        details: { labels: { alertname: 'NodeDown', instance: 'node-7' }, annotations: {} },
      });
      expect(Date.parse(alert.started_at)).toBeGreaterThanOrEqual(before - 1000);
    });

    it('maps every Prometheus severity as GitLab does; missing or unknown ⇒ critical', async () => {
      const table: Array<[string | undefined, string]> = [
        ['critical', 'critical'], ['high', 'high'], ['medium', 'medium'], ['low', 'low'], ['info', 'info'], ['unknown', 'unknown'],
        ['s1', 'critical'], ['s2', 'high'], ['s3', 'medium'], ['s4', 'low'], ['s5', 'info'],
        ['p1', 'critical'], ['p2', 'high'], ['p3', 'medium'], ['p4', 'low'], ['p5', 'info'],
        ['debug', 'info'], ['information', 'info'], ['notice', 'info'], ['warn', 'low'], ['warning', 'low'], ['minor', 'low'],
        ['error', 'medium'], ['major', 'high'], ['emergency', 'critical'], ['fatal', 'critical'], ['alert', 'medium'], ['page', 'high'],
        ['Warning', 'low'], ['sev-unheard-of', 'critical'], [undefined, 'critical'],
      ]; // prettier-ignore
      const elements = table.map(([severity], i) => ({
        status: 'firing',
        labels: severity === undefined ? { alertname: `Sev${i}` } : { alertname: `Sev${i}`, severity },
        annotations: {},
        startsAt: '2026-03-01T12:00:00Z',
        endsAt: ZERO,
      }));
      const response = await post(webhook('firing', elements));
      expect(response.status).toBe(200);
      const rows = await gw.dataSource.query(`SELECT title, severity FROM alerts WHERE project_id = $1 AND title LIKE 'Sev%'`, [project.id]);
      const byTitle = new Map(rows.map((r: { title: string; severity: string }) => [r.title, r.severity]));
      expect(table.map((_, i) => byTitle.get(`Sev${i}`))).toEqual(table.map(([, severity]) => severity));
    });

    it('Grafana Alerting’s webhook contact point works on the same endpoint', async () => {
      const grafana = {
        receiver: 'service-api',
        status: 'firing',
        orgId: 1,
        alerts: [
          {
            status: 'firing',
            labels: { alertname: 'CPU high', grafana_folder: 'Infra', instance: 'vm-3' },
            annotations: { summary: 'CPU above 90%' },
            startsAt: '2026-03-01T12:05:00Z',
            endsAt: ZERO,
            generatorURL: 'http://grafana.example/alerting/grafana/abc/view',
            fingerprint: 'c6eadffa33fcdf37',
            silenceURL: 'http://grafana.example/alerting/silence/new',
            dashboardURL: 'http://grafana.example/d/xyz',
            panelURL: 'http://grafana.example/d/xyz?viewPanel=2',
            values: { B: 93.5 },
            valueString: "[ var='B' value=93.5 ]",
          },
        ],
        groupLabels: { alertname: 'CPU high' },
        commonLabels: { alertname: 'CPU high' },
        commonAnnotations: {},
        externalURL: 'http://grafana.example/',
        version: '1',
        groupKey: '{}:{alertname="CPU high"}',
        truncatedAlerts: 0,
        title: '[FIRING:1] CPU high (Infra vm-3)',
        state: 'alerting',
        message: '**Firing**\n\nValue: B=93.5',
      };
      const fired = await post(grafana);
      expect(fired.body).toEqual([{ iid: expect.any(Number), title: 'CPU above 90%' }]);
      const alert = await fx.alert(project.id, fired.body[0].iid);
      expect(alert).toMatchObject({
        monitoring_tool: 'Grafana',
        hosts: ['vm-3'],
        details: { dashboardURL: 'http://grafana.example/d/xyz', values: { B: 93.5 } },
      });
      const resolved = await post({
        ...grafana,
        status: 'resolved',
        state: 'ok',
        alerts: [{ ...grafana.alerts[0], status: 'resolved', endsAt: '2026-03-01T12:15:00Z' }],
      });
      expect(resolved.body).toEqual(fired.body);
      expect(await fx.alert(project.id, fired.body[0].iid)).toMatchObject({ status: 'resolved', ended_at: '2026-03-01T12:15:00.000Z' });
    });

    it('a test alert of the Prometheus integration is an Alertmanager webhook, sent as the user', async () => {
      const tested = await api(gw.baseUrl, 'POST', `${integrationsPath()}/${prometheus.id}/test`, {
        token: gw.rootToken,
        body: webhook('firing', [element('test-1')]),
      });
      expect(tested.status).toBe(200);
      expect(tested.body).toEqual([{ iid: expect.any(Number), title: 'p99 latency high on test-1' }]);
      const generic = await api(gw.baseUrl, 'POST', `${integrationsPath()}/${prometheus.id}/test`, { token: gw.rootToken, body: { title: 'generic' } });
      expect(generic.status).toBe(422);
      expect(generic.body.message).toContain('not an Alertmanager webhook payload');
    });

    it('a project whose path ends in /prometheus keeps its first HTTP integration’s alerts/notify.json URL', async () => {
      const named = await fx.project('edge/cases', 'prometheus');
      const http = await fx.integration(named.id, { name: 'Generic' });
      const response = await fx.notify(`/${named.fullPath}/alerts/notify.json`, { title: 'still generic' }, { token: http.token });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([{ iid: 1, title: 'still generic' }]);
    });

    it('the integration’s endpoint-identifier URL reads the same webhooks', async () => {
      const [row] = await gw.dataSource.query('SELECT endpoint_identifier FROM alert_http_integrations WHERE id = $1', [prometheus.id]);
      const response = await post(webhook('firing', [element('by-id')]), {
        path: `/${project.fullPath}/alerts/notify/alertmanager/${row.endpoint_identifier}.json`,
      });
      expect(response.body).toEqual([{ iid: expect.any(Number), title: 'p99 latency high on by-id' }]);
    });

    it('malformed bodies: 400 or 422 with what is wrong, never a 500, nothing written', async () => {
      const alerts = (await alertRows()).length;
      const events = await outboxCount();
      const cases: Array<[string | object, number, string]> = [
        ['{"version": "4", ', 400, 'the alert payload is not valid JSON'],
        ['[1, 2]', 400, 'the alert payload must be a JSON object'],
        [
          { title: 'a generic alert' },
          422,
          'not an Alertmanager webhook payload: version, groupKey, status, receiver, groupLabels, commonLabels, commonAnnotations, externalURL, alerts missing',
        ],
        [webhook('firing', [element('x')], { version: '3' }), 422, `unsupported webhook version "3" (Alertmanager's version "4" or Grafana Alerting's "1")`],
        [webhook('firing', [element('x')], { version: 4 }), 422, `unsupported webhook version 4 (Alertmanager's version "4" or Grafana Alerting's "1")`],
        [webhook('firing', [element('x')], { alerts: { 0: element('x') } }), 422, 'alerts must be an array'],
        // The first element is fine: it is not stored either.
        [webhook('firing', [element('half-1'), 'not an alert']), 422, 'alerts[1] must be an object'],
        [webhook('firing', [element('half-2'), element('half-3', { status: 'pending' })]), 422, 'alerts[1].status must be "firing" or "resolved"'],
        [webhook('firing', [{ ...element('half-5'), labels: ['a'] }]), 422, 'alerts[0].labels must be an object'],
        [webhook('firing', [element('half-6', { annotations: 'summary' })]), 422, 'alerts[0].annotations must be an object'],
      ];
      for (const [body, status, message] of cases) {
        const response = typeof body === 'string' ? await post(null, { raw: body }) : await post(body);
        expect([response.status, response.body]).toEqual([status, { message: status === 400 ? `400 Bad request - ${message}` : message }]);
      }
      expect((await alertRows()).length).toBe(alerts);
      expect(await outboxCount()).toBe(events);
      const deep = `{"version":"4","alerts":${'['.repeat(150)}${']'.repeat(150)}}`;
      expect((await post(null, { raw: deep })).status).toBe(400);
    });

    it('100 concurrent webhooks of one group: one alert per label set with 100 events each, iids gap-free', async () => {
      const before = (await alertRows()).length;
      const group = webhook('firing', [element('storm-1'), element('storm-2'), element('storm-3'), element('storm-4'), element('storm-5')]);
      const responses = await Promise.all(Array.from({ length: 100 }, () => post(group)));
      expect(responses.map((r) => r.status)).toEqual(Array(100).fill(200));
      const iids = responses[0].body.map((a: { iid: number }) => a.iid);
      for (const r of responses) expect(r.body).toEqual(responses[0].body);
      expect(iids).toEqual([1, 2, 3, 4, 5].map((i) => before + i));
      const rows = (await alertRows()).filter((r) => r.title.includes('storm-'));
      expect(rows.map((r) => [r.title, r.event_count, r.status])).toEqual([1, 2, 3, 4, 5].map((i) => [`p99 latency high on storm-${i}`, 100, 'triggered']));
      const all = (await alertRows()).map((r) => r.iid);
      expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
      for (const iid of iids) expect(await notesOf(iid)).toEqual(['logged an alert from **Prometheus**']);
    });
  });
});
