import { api, startTestGateway, TestGateway } from './support/test-gateway';

/** Document 1's conventions as the real gateway serves them (the HTTP layer alone is covered in test/integration/api-*). */
describe('Conventions on the gateway', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway('conventions');
  });
  afterAll(() => gw.close());

  it('answers liveness, readiness (PostgreSQL, migrations, Redis, Kafka) and Prometheus metrics', async () => {
    const health = await api(gw.baseUrl, 'GET', '/-/health');
    expect(health.status).toBe(200);
    const ready = await api(gw.baseUrl, 'GET', '/-/readiness');
    expect(ready.status).toBe(200);
    expect(Object.keys(ready.body.checks).sort()).toEqual(['kafka', 'migrations', 'postgres', 'redis']);
    await api(gw.baseUrl, 'GET', '/api/v4/projects/999999', { token: gw.rootToken });
    const metrics = await api(gw.baseUrl, 'GET', '/-/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/http_request_duration_seconds_bucket\{[^}]*route="\/api\/v4\/projects\/:id"[^}]*status_code="404"/);
    expect(metrics.text).toContain('process_cpu_user_seconds_total');
  });

  it('serves only /api/v4: other versions and unknown routes are 404 {"error":"404 Not Found"}', async () => {
    for (const path of ['/api/v3/user', '/api/v5/user', '/api/v4/no-such-thing']) {
      const res = await api(gw.baseUrl, 'GET', path, { token: gw.rootToken });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: '404 Not Found' });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('sends every JSON answer and error as exactly `application/json`, as GitLab (python-gitlab < 3.14 parses only that)', async () => {
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: gw.rootToken, body: { name: 'content-type' } });
    const id = project.body.id as number;
    expect(project.headers.get('content-type')).toBe('application/json');
    const integration = await api(gw.baseUrl, 'POST', `/api/v4/projects/${id}/alert_management/http_integrations`, {
      token: gw.rootToken,
      body: { name: 'ct', active: true },
    });
    // A route of each lib, answers and errors, objects, arrays and strings.
    const paths = [
      '/api/v4/user', // identity
      '/api/v4/projects', // namespaces
      `/api/v4/projects/${id}/issues`, // issues
      `/api/v4/projects/${id}/issues/1/notes`, // notes (404)
      `/api/v4/projects/${id}/alert_management/alerts`, // alerting
      `/api/v4/projects/${id}/pipelines`, // ci
      `/api/v4/projects/${id}/repository/branches`, // repository
      `/api/v4/projects/${id}/approval_rules`, // approvals
      `/api/v4/projects/${id}/snippets`, // snippets
      `/api/v4/projects/${id}/badges`, // badges
      `/api/v4/projects/${id}/vulnerabilities`, // vulnerabilities
      `/api/v4/projects/${id}/events`, // events
      '/api/v4/hooks', // hooks
      '/api/v4/application/settings', // settings
      '/api/v4/users/1/custom_attributes', // custom attributes
      `/api/v4/projects/${id}/export`, // project transfer
      '/api/v4/no-such-route', // 404 of the router
      '/api/v4/projects/abc/issues/x', // 400/404 of a pipe
    ];
    for (const path of paths) {
      const res = await api(gw.baseUrl, 'GET', path, { token: gw.rootToken });
      expect({ path, type: res.headers.get('content-type') }).toEqual({ path, type: 'application/json' });
    }
    const unauthenticated = await api(gw.baseUrl, 'GET', '/api/v4/user');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('content-type')).toBe('application/json');
    const notify = await fetch(integration.body.url as string, {
      method: 'POST',
      headers: { authorization: `Bearer ${integration.body.token as string}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'content type' }),
    });
    expect(notify.status).toBe(200);
    expect(notify.headers.get('content-type')).toBe('application/json');
    const openapi = await fetch(`${gw.baseUrl}/api/v4/openapi.json`);
    expect(openapi.headers.get('content-type')).toBe('application/json');
  });

  it('answers 405 for a known path with an unsupported method', async () => {
    const res = await api(gw.baseUrl, 'PATCH', '/api/v4/user', { token: gw.rootToken });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
  });

  it('addresses projects and groups by URL-encoded full path, and a wrongly encoded path is 404', async () => {
    const group = await api(gw.baseUrl, 'POST', '/api/v4/groups', { token: gw.rootToken, body: { name: 'Ops', path: 'ops' } });
    const sub = await api(gw.baseUrl, 'POST', '/api/v4/groups', { token: gw.rootToken, body: { name: 'Oncall', path: 'oncall', parent_id: group.body.id } });
    expect(sub.body.full_path).toBe('ops/oncall');
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: gw.rootToken, body: { name: 'pager', namespace_id: sub.body.id } });
    const byPath = await api(gw.baseUrl, 'GET', '/api/v4/projects/ops%2Foncall%2Fpager', { token: gw.rootToken });
    expect(byPath.status).toBe(200);
    expect(byPath.body.id).toBe(project.body.id);
    expect((await api(gw.baseUrl, 'GET', '/api/v4/groups/ops%2Foncall', { token: gw.rootToken })).body.id).toBe(sub.body.id);
    expect((await api(gw.baseUrl, 'GET', '/api/v4/projects/ops/oncall/pager', { token: gw.rootToken })).status).toBe(404);
    expect((await api(gw.baseUrl, 'GET', '/api/v4/projects/ops%2Foncall%2Fpager%E0%A4%A', { token: gw.rootToken })).status).toBe(404);
  });

  it('refuses a DELETE whose If-Unmodified-Since is older than the last change (412) and honours a current one', async () => {
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: gw.rootToken, body: { name: 'guarded' } });
    const before = new Date(Date.now() - 60_000).toUTCString();
    const refused = await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${project.body.id}`, { token: gw.rootToken, headers: { 'If-Unmodified-Since': before } });
    expect(refused.status).toBe(412);
    expect(refused.body).toEqual({ message: '412 Precondition Failed' });
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.body.id}`, { token: gw.rootToken })).status).toBe(200);
    const after = new Date(Date.now() + 1000).toUTCString();
    const accepted = await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${project.body.id}`, { token: gw.rootToken, headers: { 'If-Unmodified-Since': after } });
    expect(accepted.status).toBe(202);
  });

  it('takes bracketed arrays in query strings and form bodies', async () => {
    const form = await api(gw.baseUrl, 'POST', '/api/v4/users/1/personal_access_tokens', {
      token: gw.rootToken,
      form: { name: 'form-token', 'scopes[]': 'read_api' },
    });
    expect(form.status).toBe(201);
    expect(form.body.scopes).toEqual(['read_api']);
    const query = await api(gw.baseUrl, 'POST', '/api/v4/users/1/personal_access_tokens?name=query-token&scopes[]=api&scopes[]=read_user', {
      token: gw.rootToken,
    });
    expect(query.status).toBe(201);
    expect(query.body.scopes).toEqual(['api', 'read_user']);
  });

  it('answers a malformed JSON body with 400 and never a 500', async () => {
    const res = await fetch(`${gw.baseUrl}/api/v4/groups`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': gw.rootToken, 'content-type': 'application/json' },
      body: '{"name": "x",',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/^400 Bad request/);
  });

  it('pages with complete Link URLs that keep the other parameters', async () => {
    for (const name of ['page-a', 'page-b', 'page-c']) await api(gw.baseUrl, 'POST', '/api/v4/groups', { token: gw.rootToken, body: { name, path: name } });
    const res = await api(gw.baseUrl, 'GET', '/api/v4/groups?search=page-&per_page=2&order_by=name&sort=asc', { token: gw.rootToken });
    expect(res.body.map((g: { path: string }) => g.path)).toEqual(['page-a', 'page-b']);
    expect(res.headers.get('x-total')).toBe('3');
    expect(res.headers.get('x-total-pages')).toBe('2');
    expect(res.headers.get('x-next-page')).toBe('2');
    const next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
    expect(next).toMatch(new RegExp(`^${gw.config.http.externalUrl}/api/v4/groups\\?`));
    const following = await api(gw.baseUrl, 'GET', new URL(next!).pathname + new URL(next!).search, { token: gw.rootToken });
    expect(following.body.map((g: { path: string }) => g.path)).toEqual(['page-c']);
  });
});
