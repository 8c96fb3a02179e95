import { AlertLiveHub } from '@app/alerting';
import { eventually } from '@app/testing';
import { AlertingFixture } from './support/alerting-fixture';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/** Reads an SSE response into a growing list of events until aborted. */
async function openStream(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const events: SseEvent[] = [];
  const done = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event: SseEvent = { event: 'message', data: '' };
          let hasField = false;
          for (const line of frame.split('\n')) {
            const colon = line.indexOf(':');
            if (colon === 0) continue;
            const field = line.slice(0, colon);
            const value = line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') event.id = value;
            if (field === 'event') event.event = value;
            if (field === 'data') event.data += value;
            hasField ||= field === 'event' || field === 'data';
          }
          if (hasField) events.push(event);
        }
      }
    } catch {
      // aborted
    }
  })();
  return { response, events, close: async () => (controller.abort(), await done) };
}

describe('alert live stream (SSE)', () => {
  let gw: TestGateway;
  let fx: AlertingFixture;
  let project: { id: number; fullPath: string };
  let notifyPath: string;
  let key: string;

  beforeAll(async () => {
    gw = await startTestGateway('alert_live_stream');
    fx = new AlertingFixture(gw);
    project = await fx.project('live', 'svc');
    const integration = await fx.integration(project.id, { active: true });
    notifyPath = integration.path;
    key = integration.token;
    await fx.user('outsider');
    // A gateway's first start on a loaded machine (migrated template clone, Kafka, Redis).
  }, 90_000);
  afterAll(() => gw.close());

  const streamUrl = () => `${gw.baseUrl}/api/v4/projects/${project.id}/alert_management/alerts/stream`;

  it('streams a new, a grouped and a resolved alert, and catches up after a reconnection with Last-Event-ID', async () => {
    const first = await openStream(streamUrl(), { 'PRIVATE-TOKEN': gw.rootToken });
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get('content-type')).toContain('text/event-stream');
    await eventually(() => first.events.find((e) => e.event === 'ready'), 'ready event');

    expect((await fx.notify(notifyPath, { title: 'CPU high', fingerprint: 'cpu' }, { token: key })).status).toBe(200);
    expect((await fx.notify(notifyPath, { title: 'CPU high', fingerprint: 'cpu' }, { token: key })).status).toBe(200);
    const created = await eventually(() => first.events.filter((e) => e.event === 'alert').length >= 2 || undefined, 'two alert events', 20_000);
    expect(created).toBe(true);
    const [c, g] = first.events.filter((e) => e.event === 'alert').map((e) => JSON.parse(e.data));
    expect(c).toMatchObject({ type: 'alert.created', project_id: project.id, iid: 1, alert: { title: 'CPU high', status: 'triggered', event_count: 1 } });
    expect(g).toMatchObject({ type: 'alert.grouped', iid: 1, alert: { event_count: 2 } });
    const lastSeen = first.events.filter((e) => e.event === 'alert').pop()!.id!;
    await first.close();

    // While no stream is open: a recovery.
    expect((await fx.notify(notifyPath, { title: 'CPU high', fingerprint: 'cpu', end_time: new Date().toISOString() }, { token: key })).status).toBe(200);
    const backlog = await eventually(
      async () => {
        const probe = await openStream(streamUrl(), { 'PRIVATE-TOKEN': gw.rootToken, 'Last-Event-ID': lastSeen });
        await eventually(() => probe.events.find((e) => e.event === 'ready'), 'ready event');
        await probe.close();
        const alerts = probe.events.filter((e) => e.event === 'alert');
        return alerts.length > 0 ? alerts : undefined;
      },
      'the recovery in the backlog',
      20_000,
    );
    expect(backlog.map((e) => JSON.parse(e.data))).toEqual([
      expect.objectContaining({ type: 'alert.resolved', iid: 1, alert: expect.objectContaining({ status: 'resolved' }) }),
    ]);
  });

  it('tells a reader whose Last-Event-ID is no longer known to reload', async () => {
    const stream = await openStream(streamUrl(), { 'PRIVATE-TOKEN': gw.rootToken, 'Last-Event-ID': '1-0' });
    await eventually(() => stream.events.find((e) => e.event === 'ready'), 'ready event');
    await stream.close();
    expect(stream.events.map((e) => e.event)).toEqual(['reset', 'ready']);
  });

  it('answers 401 without credentials and 404 to a user who cannot see the project, and releases closed streams', async () => {
    expect((await fetch(streamUrl())).status).toBe(401);
    expect((await fetch(streamUrl(), { headers: { 'PRIVATE-TOKEN': fx.tokens.outsider } })).status).toBe(404);
    const hub = gw.app.get(AlertLiveHub);
    const stream = await openStream(streamUrl(), { 'PRIVATE-TOKEN': gw.rootToken });
    await eventually(() => stream.events.find((e) => e.event === 'ready'), 'ready event');
    expect(hub.size).toBe(1);
    await stream.close();
    await eventually(() => hub.size === 0 || undefined, 'stream released');
  });

  it('GET …/alerts/started_per_hour counts the alerts started in each of the last hours by severity, with the list filters', async () => {
    const hours = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/alert_management/alerts/started_per_hour`, { token: fx.tokens.outsider });
    expect(hours.status).toBe(404);
    expect((await fx.notify(notifyPath, { title: 'Disk', severity: 'low', fingerprint: 'disk' }, { token: key })).status).toBe(200);
    const all = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/alert_management/alerts/started_per_hour`, { token: gw.rootToken });
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(24);
    const current = all.body[23];
    expect(Date.parse(current.hour)).toBe(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    // The CPU alert (critical by default, resolved) and the disk alert, both started now.
    expect(current).toMatchObject({ critical: 1, low: 1, total: 2 });
    const open = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/alert_management/alerts/started_per_hour?status[]=triggered&hours=2`, {
      token: gw.rootToken,
    });
    expect(open.body).toHaveLength(2);
    expect(open.body[1]).toMatchObject({ critical: 0, low: 1, total: 1 });
    expect(
      (await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/alert_management/alerts/started_per_hour?hours=169`, { token: gw.rootToken })).status,
    ).toBe(400);
  });

  it('GET /users/session returns the signed-in user and the CSRF token of the session cookie', async () => {
    const password = 'console-password-1';
    await api(gw.baseUrl, 'POST', '/api/v4/users', {
      token: gw.rootToken,
      body: { username: 'oncall', name: 'On call', email: 'oncall@example.com', password },
    });
    const signIn = await api(gw.baseUrl, 'POST', '/users/sign_in', { body: { user: { login: 'oncall', password } } });
    expect(signIn.status).toBe(201);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
    const session = await api(gw.baseUrl, 'GET', '/users/session', { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ username: 'oncall', csrf_token: signIn.body.csrf_token });
    expect(session.headers.get('access-control-allow-origin')).toBeNull();
    expect((await api(gw.baseUrl, 'GET', '/users/session')).status).toBe(401);
    expect((await api(gw.baseUrl, 'GET', '/users/session', { headers: { cookie: '_service_session=unknown' } })).status).toBe(401);
  });
});
