import { AlertingFixture } from './support/alerting-fixture';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

/** The FREE tier (one integration, no custom mapping, no payload grouping) and the per-project rate limit. */
describe('Alert ingestion on the free tier, with a rate limit', () => {
  let gw: TestGateway;
  let fx: AlertingFixture;
  let project: { id: number; fullPath: string };
  let integration: { id: number; path: string; token: string };

  beforeAll(async () => {
    gw = await startTestGateway('alert-free', { SERVICE_TIER: 'free', ALERT_NOTIFY_RATE_LIMIT: '5', ALERT_NOTIFY_RATE_PERIOD: '3600' });
    fx = new AlertingFixture(gw);
    project = await fx.project('free', 'shop');
    integration = await fx.integration(project.id, { name: 'Only one' });
  });
  afterAll(() => gw.close());

  const integrationsPath = () => `/api/v4/projects/${project.id}/alert_management/http_integrations`;

  it('allows one integration per project', async () => {
    const second = await api(gw.baseUrl, 'POST', integrationsPath(), { token: gw.rootToken, body: { name: 'Second' } });
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ message: { base: ['Multiple integrations are not supported for this project'] } });
  });

  it('refuses custom payload mapping', async () => {
    const mapping = await api(gw.baseUrl, 'PUT', `${integrationsPath()}/${integration.id}`, {
      token: gw.rootToken,
      body: { payload_attribute_mappings: [{ field_name: 'title', path: ['a'], type: 'string' }] },
    });
    expect(mapping.status).toBe(400);
    expect(mapping.body).toEqual({ message: { payload_attribute_mappings: ['custom payload mapping requires the PREMIUM tier'] } });
    const example = await api(gw.baseUrl, 'PUT', `${integrationsPath()}/${integration.id}`, { token: gw.rootToken, body: { payload_example: '{"a":1}' } });
    expect(example.status).toBe(400);
  });

  it('does not group identical payloads without a fingerprint, but groups by explicit fingerprint', async () => {
    const send = (payload: unknown) => fx.notify(integration.path, payload, { token: integration.token });
    const a = await send({ title: 'Same', service: 'db' });
    const b = await send({ title: 'Same', service: 'db' });
    expect(a.status).toBe(200);
    expect(b.body[0].iid).toBe(a.body[0].iid + 1);
    const [row] = await gw.dataSource.query('SELECT fingerprint FROM alerts WHERE project_id = $1 AND iid = $2', [project.id, a.body[0].iid]);
    expect(row.fingerprint).toBeNull();
    const c = await send({ title: 'fp', fingerprint: 'x' });
    const d = await send({ title: 'fp', fingerprint: 'x' });
    expect(d.body[0].iid).toBe(c.body[0].iid);
  });

  it('answers 429 with Retry-After past the project rate limit, counting every authenticated request', async () => {
    // Four requests were made above; the fifth is the last allowed in this period.
    const fifth = await fx.notify(integration.path, { title: 'fifth' }, { token: integration.token });
    expect(fifth.status).toBe(200);
    const limited = await fx.notify(integration.path, { title: 'sixth' }, { token: integration.token });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'Retry later' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const count = await gw.dataSource.query(`SELECT count(*)::int AS n FROM alerts WHERE project_id = $1 AND title = 'sixth'`, [project.id]);
    expect(count[0].n).toBe(0);
    // Unauthenticated requests do not use the budget and still get 401.
    expect((await fx.notify(integration.path, { title: 'x' }, { token: 'wrong' })).status).toBe(401);
  });

  it('the Prometheus integration (besides the one HTTP integration) shares the project rate limit', async () => {
    const created = await api(gw.baseUrl, 'POST', integrationsPath(), { token: gw.rootToken, body: { name: 'Alertmanager', type: 'prometheus' } });
    expect(created.status).toBe(201);
    const webhook = {
      version: '4',
      groupKey: 'g',
      status: 'firing',
      receiver: 'r',
      groupLabels: {},
      commonLabels: {},
      commonAnnotations: {},
      externalURL: 'http://am',
      alerts: [],
    };
    const limited = await fx.notify(new URL(created.body.url).pathname, webhook, { token: created.body.token });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
