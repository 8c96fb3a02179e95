import { AlertingFixture } from './support/alerting-fixture';
import { startTestGateway, TestGateway } from './support/test-gateway';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The notify endpoints are plain routes of the gateway's Fastify instance, outside the
 * controller pipeline: what that pipeline gives the other routes still holds for them.
 */
describe('Alert notify routes', () => {
  let gw: TestGateway;
  let fx: AlertingFixture;
  let project: { id: number; fullPath: string };
  let integration: { id: number; path: string; token: string };
  let firstPath: string;

  beforeAll(async () => {
    gw = await startTestGateway('alert-notify-route');
    fx = new AlertingFixture(gw);
    project = await fx.project('routes/team', 'api');
    integration = await fx.integration(project.id, { name: 'Routes' });
    firstPath = `/${project.fullPath}/alerts/notify.json`;
  });
  afterAll(() => gw.close());

  const outboxRowOf = async (title: string): Promise<{ headers: Record<string, string>; payload: Record<string, any> }> => {
    const rows = await gw.dataSource.query(`SELECT headers, payload FROM outbox_events WHERE payload->'data'->>'title' = $1`, [title]);
    expect(rows).toHaveLength(1);
    return rows[0];
  };

  it('echoes the caller X-Request-Id and writes it into the outbox headers of the alert event', async () => {
    const response = await fx.notify(
      integration.path,
      { title: 'with-request-id' },
      { token: integration.token, headers: { 'X-Request-Id': 'notify-trace-1' } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('notify-trace-1');
    expect(response.headers.get('content-type')).toBe('application/json');
    const row = await outboxRowOf('with-request-id');
    expect(row.headers).toEqual({ 'x-request-id': 'notify-trace-1' });
    expect(row.payload.type).toBe('alert.created');
  });

  it('makes up a request id when none (or an unusable one) is given, on success and on failure', async () => {
    const ok = await fx.notify(firstPath, { title: 'generated-request-id' }, { token: integration.token });
    expect(ok.status).toBe(200);
    const id = ok.headers.get('x-request-id')!;
    expect(id).toMatch(UUID);
    expect((await outboxRowOf('generated-request-id')).headers).toEqual({ 'x-request-id': id });

    const refused = await fx.notify(integration.path, { title: 'x' }, { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toMatch(UUID);
    expect(refused.body).toEqual({ message: '401 Unauthorized' });
  });

  it('accepts the hook chain headers of a hook receiver', async () => {
    const response = await fx.notify(
      integration.path,
      { title: 'from-a-hook-receiver' },
      {
        token: integration.token,
        headers: { 'X-Service-Event-UUID': '0f8fad5b-d9cb-469f-a165-70867728950e', 'X-Service-Event-Chain-Depth': '2', 'X-Request-Id': 'chain-1' },
      },
    );
    expect(response.status).toBe(200);
    expect((await outboxRowOf('from-a-hook-receiver')).headers).toEqual({ 'x-request-id': 'chain-1' });
  });

  it('answers other methods with 405 and Allow: POST, and OPTIONS with 204', async () => {
    for (const path of [integration.path, firstPath]) {
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
        const response = await fetch(`${gw.baseUrl}${path}`, { method });
        expect({ method, status: response.status, allow: response.headers.get('allow'), body: await response.json() }).toEqual({
          method,
          status: 405,
          allow: 'POST',
          body: { error: '405 Method Not Allowed' },
        });
        expect(response.headers.get('x-request-id')).toMatch(UUID);
      }
      const options = await fetch(`${gw.baseUrl}${path}`, { method: 'OPTIONS' });
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toBe('POST, OPTIONS');
    }
  });

  it('404 with the route-not-found body for an empty path segment or an endpoint without .json', async () => {
    const emptySegment = await fx.notify(`/routes//api/alerts/notify.json`, { title: 'x' }, { token: integration.token });
    expect(emptySegment.status).toBe(404);
    expect(emptySegment.body).toEqual({ error: '404 Not Found' });
    const withoutSuffix = await fx.notify(integration.path.replace(/\.json$/, ''), { title: 'x' }, { token: integration.token });
    expect(withoutSuffix.status).toBe(404);
    expect(withoutSuffix.body).toEqual({ error: '404 Not Found' });
    const unknown = await fx.notify(`/routes/team/nope/alerts/notify.json`, { title: 'x' }, { token: integration.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Integration Not Found' });
  });

  it('keeps the body parsers: 413 over the raw body limit, 415 for text/plain, 400 for a form body', async () => {
    const huge = await fx.notify(integration.path, null, { token: integration.token, raw: Buffer.alloc(5 * 1024 * 1024, 0x20) });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ message: `413 Request Entity Too Large - the request body is larger than ${gw.config.http.bodyLimit} bytes` });
    const text = await fx.notify(integration.path, null, { token: integration.token, raw: '{"title":"x"}', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ message: '415 Unsupported Media Type' });
    const form = await fx.notify(integration.path, null, {
      token: integration.token,
      raw: 'title=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    expect(form.body).toEqual({ message: '400 Bad request - the alert payload must be a JSON object' });
  });

  it('ignores a query string, as before', async () => {
    const response = await fx.notify(`${integration.path}?title=from-query`, { title: 'from-body' }, { token: integration.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ iid: expect.any(Number), title: 'from-body' }]);
  });

  it('records the HTTP and the alerting metrics of the notify routes', async () => {
    const metrics = await fetch(`${gw.baseUrl}/-/metrics`).then((r) => r.text());
    expect(metrics).toMatch(
      /^http_request_duration_seconds_count\{method="POST",route="\/:s0\/:s1\/:s2\/alerts\/notify\/:name\/:endpoint",status_code="200"\} [1-9]/m,
    );
    expect(metrics).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/:s0\/:s1\/:s2\/alerts\/notify\.json",status_code="200"\} [1-9]/m);
    expect(metrics).toMatch(/^alerts_rejected_total\{reason="unauthorized"\} [1-9]/m);
    expect(metrics).toMatch(/^alerts_received_total [4-9]/m);
  });
});
