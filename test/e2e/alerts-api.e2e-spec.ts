import { AlertingFixture } from './support/alerting-fixture';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

/** The on-call API: list filters, sorts, offset and keyset pagination, counts, updates and notes. */
describe('Alerts API', () => {
  let gw: TestGateway;
  let fx: AlertingFixture;
  let project: { id: number; fullPath: string };
  let integration: { id: number; path: string; token: string };
  const iids: Record<string, number> = {};

  const alertsPath = () => `/api/v4/projects/${project.id}/alert_management/alerts`;
  const get = (query: string, token = gw.rootToken) => api(gw.baseUrl, 'GET', `${alertsPath()}${query}`, { token });
  const titles = (body: Array<{ title: string }>) => body.map((a) => a.title);

  beforeAll(async () => {
    gw = await startTestGateway('alerts-api');
    fx = new AlertingFixture(gw);
    project = await fx.project('oncall', 'web');
    integration = await fx.integration(project.id, { name: 'Source' });
    await fx.user('dev');
    await fx.user('rep');
    await fx.user('guest');
    await fx.member(project.id, 'dev', 30);
    await fx.member(project.id, 'rep', 20);
    await fx.member(project.id, 'guest', 10);
    const seed: Array<[string, Record<string, unknown>, number]> = [
      ['alpha', { severity: 'low', service: 'checkout', start_time: '2026-01-01T00:00:00Z' }, 1],
      ['bravo', { severity: 'critical', description: 'payments failing', start_time: '2026-01-03T00:00:00Z' }, 3],
      ['charlie', { severity: 'info', monitoring_tool: 'Grafana', start_time: '2026-01-02T00:00:00Z' }, 2],
      ['delta', { severity: 'high', start_time: '2026-01-05T00:00:00Z' }, 5],
      ['echo', { severity: 'medium', start_time: '2026-01-04T00:00:00Z' }, 4],
    ];
    for (const [title, extra, repeats] of seed) {
      for (let i = 0; i < repeats; i++) {
        const response = await fx.notify(integration.path, { title, fingerprint: title, ...extra }, { token: integration.token });
        iids[title] = response.body[0].iid;
      }
    }
  });
  afterAll(() => gw.close());

  it('lists the alerts of the project (reporter and above), newest first by default', async () => {
    const response = await get('');
    expect(response.status).toBe(200);
    expect(titles(response.body)).toEqual(['echo', 'delta', 'charlie', 'bravo', 'alpha']);
    expect(response.headers.get('x-total')).toBe('5');
    expect(response.body[0]).toMatchObject({
      iid: iids.echo,
      status: 'triggered',
      event_count: 4,
      integration: { id: integration.id, name: 'Source' },
      issue_iid: null,
      assignees: [],
      web_url: `${gw.config.http.externalUrl}/oncall/web/-/alert_management/${iids.echo}/details`,
    });
    expect((await get('', fx.tokens.rep)).status).toBe(200);
    expect((await get('', fx.tokens.guest)).status).toBe(403);
  });

  it('sorts by started_at, event_count and severity (desc: critical first)', async () => {
    expect(titles((await get('?order_by=started_at&sort=asc')).body)).toEqual(['alpha', 'charlie', 'bravo', 'echo', 'delta']);
    expect(titles((await get('?order_by=event_count&sort=desc')).body)).toEqual(['delta', 'echo', 'bravo', 'charlie', 'alpha']);
    expect(titles((await get('?order_by=severity&sort=desc')).body)).toEqual(['bravo', 'delta', 'echo', 'alpha', 'charlie']);
    expect(titles((await get('?order_by=severity&sort=asc')).body)).toEqual(['charlie', 'alpha', 'echo', 'delta', 'bravo']);
    const badSort = await get('?order_by=colour');
    expect(badSort.status).toBe(400);
  });

  it('filters by severity, search (title, description, service, monitoring tool)', async () => {
    expect(titles((await get('?severity=critical')).body)).toEqual(['bravo']);
    expect(titles((await get('?severity[]=low&severity[]=info&order_by=started_at&sort=asc')).body)).toEqual(['alpha', 'charlie']);
    expect(titles((await get('?search=PAYMENTS')).body)).toEqual(['bravo']);
    expect(titles((await get('?search=checkout')).body)).toEqual(['alpha']);
    expect(titles((await get('?search=grafana')).body)).toEqual(['charlie']);
    expect(titles((await get('?search=%25')).body)).toEqual([]);
    expect((await get('?severity=urgent')).status).toBe(400);
  });

  it('updates status and assignees (developer and above), with system notes and events', async () => {
    const path = `${alertsPath()}/${iids.bravo}`;
    expect((await api(gw.baseUrl, 'PUT', path, { token: fx.tokens.rep, body: { status: 'acknowledged' } })).status).toBe(403);
    const acked = await api(gw.baseUrl, 'PUT', path, { token: fx.tokens.dev, body: { status: 'acknowledged', assignee_ids: [fx.userIds.dev] } });
    expect(acked.status).toBe(200);
    expect(acked.body).toMatchObject({ status: 'acknowledged', assignees: [{ id: fx.userIds.dev, username: 'dev' }] });
    const resolved = await api(gw.baseUrl, 'PUT', `${alertsPath()}/${iids.alpha}`, { token: fx.tokens.dev, body: { status: 'resolved' } });
    expect(resolved.body.status).toBe('resolved');
    expect(resolved.body.ended_at).not.toBeNull();
    await api(gw.baseUrl, 'PUT', `${alertsPath()}/${iids.charlie}`, { token: fx.tokens.dev, body: { status: 'ignored' } });

    const invalid = await api(gw.baseUrl, 'PUT', path, { token: fx.tokens.dev, body: { status: 'snoozed' } });
    expect(invalid.status).toBe(400);
    const nobody = await api(gw.baseUrl, 'PUT', path, { token: fx.tokens.dev, body: { assignee_ids: [999999] } });
    expect(nobody.status).toBe(400);
    expect((await api(gw.baseUrl, 'PUT', `${alertsPath()}/9999`, { token: fx.tokens.dev, body: { status: 'resolved' } })).status).toBe(404);

    const notes = await get(`/${iids.bravo}/notes`, fx.tokens.rep);
    expect(notes.status).toBe(200);
    expect(notes.body.map((n: { body: string }) => n.body)).toEqual([
      'logged an alert from **Source**',
      'changed the status to **Acknowledged**',
      'assigned to @dev',
    ]);
    expect(notes.body[0]).toMatchObject({ system: true, author: null, noteable_type: 'AlertManagement::Alert', noteable_iid: iids.bravo });
    expect(notes.body[1].author).toMatchObject({ id: fx.userIds.dev, username: 'dev' });

    const [event] = await gw.dataSource.query(
      `SELECT payload FROM outbox_events WHERE payload->>'type' = 'alert.status_changed' AND payload->'target'->>'iid' = $1`,
      [String(iids.bravo)],
    );
    expect(event.payload).toMatchObject({ actor: fx.userIds.dev, data: { from: 'triggered', to: 'acknowledged' } });
  });

  it('filters by one or several statuses and by assignee; counts per status', async () => {
    expect(titles((await get('?status=acknowledged')).body)).toEqual(['bravo']);
    expect(titles((await get('?status[]=resolved&status[]=ignored&order_by=started_at&sort=asc')).body)).toEqual(['alpha', 'charlie']);
    expect(titles((await get('?assignee_username=dev')).body)).toEqual(['bravo']);
    expect(titles((await get('?order_by=status&sort=desc')).body)).toEqual(['echo', 'delta', 'bravo', 'alpha', 'charlie']);
    expect(titles((await get('?assignee_username=nobody')).body)).toEqual([]);
    const counts = await get('/status_counts', fx.tokens.rep);
    expect(counts.status).toBe(200);
    expect(counts.body).toEqual({ all: 5, open: 3, triggered: 2, acknowledged: 1, resolved: 1, ignored: 1 });
    expect((await get('/status_counts?search=payments')).body).toEqual({ all: 1, open: 1, triggered: 0, acknowledged: 1, resolved: 0, ignored: 0 });
  });

  it('a resolved alert cannot be re-opened while another open alert has its fingerprint', async () => {
    const repeat = await fx.notify(integration.path, { title: 'alpha', fingerprint: 'alpha' }, { token: integration.token });
    expect(repeat.body[0].iid).not.toBe(iids.alpha);
    const reopen = await api(gw.baseUrl, 'PUT', `${alertsPath()}/${iids.alpha}`, { token: fx.tokens.dev, body: { status: 'triggered' } });
    expect(reopen.status).toBe(409);
    await api(gw.baseUrl, 'PUT', `${alertsPath()}/${repeat.body[0].iid}`, { token: fx.tokens.dev, body: { status: 'resolved' } });
    const reopened = await api(gw.baseUrl, 'PUT', `${alertsPath()}/${iids.alpha}`, { token: fx.tokens.dev, body: { status: 'triggered' } });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ status: 'triggered', ended_at: null });
  });

  it('paginates by offset with headers and by keyset with a next link', async () => {
    const page = await get('?per_page=2&page=2&order_by=started_at&sort=asc');
    expect(titles(page.body)).toHaveLength(2);
    expect(page.headers.get('x-page')).toBe('2');
    expect(page.headers.get('x-per-page')).toBe('2');
    expect(page.headers.get('x-total')).toBe('6');

    const seen: string[] = [];
    let next: string | null = `${alertsPath()}?pagination=keyset&per_page=2&order_by=started_at&sort=asc`;
    while (next) {
      const response: { status: number; headers: Headers; body: Array<{ title: string }> } = await api(
        gw.baseUrl,
        'GET',
        next.replace(gw.config.http.externalUrl, ''),
        { token: gw.rootToken },
      );
      expect(response.status).toBe(200);
      seen.push(...titles(response.body));
      const link: string | null = response.headers.get('link');
      next = (link && /<([^>]+)>; rel="next"/.exec(link)?.[1]) || null;
    }
    expect(seen).toEqual(['alpha', 'charlie', 'bravo', 'echo', 'delta', 'alpha']);
    const unsupported = await get('?pagination=keyset&order_by=severity');
    expect(unsupported.status).toBe(405);
  });

  it('shows one alert by iid; unknown iid 404', async () => {
    const one = await get(`/${iids.delta}`, fx.tokens.rep);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ iid: iids.delta, title: 'delta', severity: 'high', event_count: 5, started_at: '2026-01-05T00:00:00.000Z' });
    expect((await get('/424242')).status).toBe(404);
    expect((await get('/abc')).status).toBe(404);
  });

  it('opens the incident of an alert by hand (developers), once: a second request is a 409', async () => {
    const path = `${alertsPath()}/${iids.echo}/incident`;
    expect((await api(gw.baseUrl, 'POST', path, { token: fx.tokens.rep })).status).toBe(403);
    expect((await api(gw.baseUrl, 'POST', `${alertsPath()}/424242/incident`, { token: fx.tokens.dev })).status).toBe(404);

    const [first, second] = await Promise.all([
      api(gw.baseUrl, 'POST', path, { token: fx.tokens.dev }),
      api(gw.baseUrl, 'POST', path, { token: fx.tokens.dev }),
    ]);
    const created = first.status === 201 ? first : second;
    const refused = first.status === 201 ? second : first;
    expect(created.status).toBe(201);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: 'An issue already exists' });
    expect(created.body).toMatchObject({ iid: iids.echo, issue_iid: expect.any(Number) });

    const issue = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/issues/${created.body.issue_iid}`, { token: fx.tokens.rep });
    expect(issue.body).toMatchObject({ title: 'echo', issue_type: 'incident', severity: 'MEDIUM', author: { username: 'dev' } });
    expect((await get(`/${iids.echo}`, fx.tokens.rep)).body.issue_iid).toBe(created.body.issue_iid);
    const notes = await get(`/${iids.echo}/notes`, fx.tokens.rep);
    expect(notes.body.at(-1)).toMatchObject({ body: `created incident #${created.body.issue_iid} for this alert`, author: { username: 'dev' } });
    expect((await api(gw.baseUrl, 'POST', path, { token: fx.tokens.dev })).status).toBe(409);
  });
});
