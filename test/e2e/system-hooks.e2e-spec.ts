import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { HookTokenCipher } from '@app/hooks';
import { loopbackCertificate } from './support/hook-receiver';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on loopback that records every request and answers `reply(path)`. */
async function startReceiver(reply: (path: string) => { status: number; headers?: Record<string, string> } = () => ({ status: 200 })) {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = reply(req.url ?? '');
      res.writeHead(answer.status, answer.headers).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const RECORD_KEYS = [
  'alert_status',
  'created_at',
  'disabled_until',
  'enable_ssl_verification',
  'id',
  'merge_requests_events',
  'push_events',
  'recent_failures',
  'repository_update_events',
  'tag_push_events',
  'url',
];

/** `/hooks`: the system hooks administration API and the test delivery, against a real receiver. */
describe('System hooks', () => {
  let gw: TestGateway;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let userToken: string;
  const root = () => ({ token: gw.rootToken });
  const eventsOfType = async (prefix: string): Promise<Array<Record<string, any>>> =>
    (await gw.dataSource.query(`SELECT payload FROM outbox_events WHERE payload->>'type' LIKE $1 ORDER BY seq`, [`${prefix}%`])).map(
      (r: { payload: Record<string, any> }) => r.payload,
    );
  const createHook = async (body: Record<string, unknown>) => {
    const response = await api(gw.baseUrl, 'POST', '/api/v4/hooks', { ...root(), body });
    expect(response.status).toBe(201);
    return response.body[0] as Record<string, any>;
  };

  beforeAll(async () => {
    // The admin API and the test delivery alone: event deliveries are covered by system-hook-delivery.e2e-spec.ts.
    gw = await startTestGateway('system_hooks', { HOOK_DELIVERY_ENABLED: 'false' });
    receiver = await startReceiver((path) => {
      if (path === '/fail') return { status: 500 };
      if (path === '/redirect') return { status: 302, headers: { Location: '/redirected' } };
      return { status: 200 };
    });
    const user = await api(gw.baseUrl, 'POST', '/api/v4/users', {
      ...root(),
      body: { username: 'plain', name: 'Plain', email: 'plain@example.com', password: 'secret-password-1' },
    });
    expect(user.status).toBe(201);
    const pat = await api(gw.baseUrl, 'POST', `/api/v4/users/${user.body.id}/personal_access_tokens`, { ...root(), body: { name: 'e2e', scopes: ['api'] } });
    userToken = pat.body.token;
  });
  afterAll(async () => {
    await receiver?.close();
    await gw?.close();
  });
  beforeEach(() => {
    receiver.received.length = 0;
  });

  describe('access', () => {
    it.each([
      ['GET', '/api/v4/hooks'],
      ['GET', '/api/v4/hooks/1'],
      ['POST', '/api/v4/hooks'],
      ['PUT', '/api/v4/hooks/1'],
      ['POST', '/api/v4/hooks/1'],
      ['DELETE', '/api/v4/hooks/1'],
    ])('%s %s is 401 without a token and 403 for a non-administrator', async (method, path) => {
      const body = method === 'GET' ? undefined : { url: `${receiver.url}/hook` };
      expect(await api(gw.baseUrl, method, path, { body })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
      expect(await api(gw.baseUrl, method, path, { token: userToken, body })).toMatchObject({ status: 403 });
      expect(receiver.received).toHaveLength(0);
    });
  });

  describe('records', () => {
    it('creates with the defaults and answers the record as a one-element array', async () => {
      const response = await api(gw.baseUrl, 'POST', '/api/v4/hooks', { ...root(), body: { url: `${receiver.url}/defaults` } });
      expect(response.status).toBe(201);
      expect(Array.isArray(response.body)).toBe(true);
      expect(response.body).toHaveLength(1);
      const [hook] = response.body;
      expect(Object.keys(hook).sort()).toEqual(RECORD_KEYS);
      expect(hook).toMatchObject({
        url: `${receiver.url}/defaults`,
        push_events: false,
        tag_push_events: false,
        merge_requests_events: false,
        repository_update_events: true,
        enable_ssl_verification: true,
      });
      expect(Number.isInteger(hook.id)).toBe(true);
      expect(Math.abs(Date.parse(hook.created_at) - Date.now())).toBeLessThan(60_000);
    });

    it('takes every flag (JSON or form strings), never returns the token and keeps it encrypted', async () => {
      const token = 'very-secret-hook-token-1';
      const response = await api(gw.baseUrl, 'POST', '/api/v4/hooks', {
        ...root(),
        form: {
          url: `${receiver.url}/flags`,
          token,
          push_events: 'true',
          tag_push_events: 'true',
          merge_requests_events: 'true',
          repository_update_events: 'false',
          enable_ssl_verification: 'false',
        },
      });
      expect(response.status).toBe(201);
      expect(response.text).not.toContain(token);
      const [hook] = response.body;
      expect(hook).toMatchObject({
        push_events: true,
        tag_push_events: true,
        merge_requests_events: true,
        repository_update_events: false,
        enable_ssl_verification: false,
      });

      const one = await api(gw.baseUrl, 'GET', `/api/v4/hooks/${hook.id}`, root());
      expect(one.status).toBe(200);
      expect(one.body).toEqual([hook]);
      const list = await api(gw.baseUrl, 'GET', '/api/v4/hooks', root());
      expect(list.status).toBe(200);
      expect(list.body).toContainEqual(hook);
      for (const text of [one.text, list.text]) expect(text).not.toContain(token);

      const [row] = await gw.dataSource.query('SELECT encrypted_token FROM system_hooks WHERE id = $1', [hook.id]);
      expect(row.encrypted_token).not.toContain(token);
      expect(row.encrypted_token).toMatch(/^v1:[0-9a-f]{8}:/);
      expect(new HookTokenCipher(gw.config).decrypt(row.encrypted_token)).toBe(token);

      const events = await eventsOfType('system_hook_');
      expect(JSON.stringify(events)).not.toContain(token);
    });

    it('lists the hooks in id order', async () => {
      const a = await createHook({ url: `${receiver.url}/a` });
      const b = await createHook({ url: `${receiver.url}/b` });
      const ids = (await api(gw.baseUrl, 'GET', '/api/v4/hooks', root())).body.map((h: { id: number }) => h.id);
      expect(ids.indexOf(a.id)).toBeGreaterThanOrEqual(0);
      expect(ids.indexOf(b.id)).toBeGreaterThan(ids.indexOf(a.id));
      expect([...ids].sort((x: number, y: number) => x - y)).toEqual(ids);
    });

    it('updates the given attributes with PUT (beyond the spec) and answers a one-element array', async () => {
      const hook = await createHook({ url: `${receiver.url}/before`, token: 'first-token' });
      const response = await api(gw.baseUrl, 'PUT', `/api/v4/hooks/${hook.id}`, {
        ...root(),
        body: { url: `${receiver.url}/after`, push_events: true, token: 'second-token' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([{ ...hook, url: `${receiver.url}/after`, push_events: true }]);
      expect(response.text).not.toContain('second-token');
      const [row] = await gw.dataSource.query('SELECT encrypted_token FROM system_hooks WHERE id = $1', [hook.id]);
      expect(new HookTokenCipher(gw.config).decrypt(row.encrypted_token)).toBe('second-token');

      const events = (await eventsOfType('system_hook_update')).filter((e) => e.target.id === hook.id);
      expect(events).toHaveLength(1);
      expect(events[0].data.changed_attributes).toEqual(['url', 'push_events', 'token']);
      expect(JSON.stringify(events[0])).not.toContain('second-token');

      await api(gw.baseUrl, 'PUT', `/api/v4/hooks/${hook.id}`, { ...root(), body: { token: '' } });
      const [cleared] = await gw.dataSource.query('SELECT encrypted_token FROM system_hooks WHERE id = $1', [hook.id]);
      expect(cleared.encrypted_token).toBeNull();

      const unchanged = await api(gw.baseUrl, 'PUT', `/api/v4/hooks/${hook.id}`, { ...root(), body: { push_events: true } });
      expect(unchanged.status).toBe(200);
      expect((await eventsOfType('system_hook_update')).filter((e) => e.target.id === hook.id)).toHaveLength(2);
    });

    it('deletes with 204, then the hook is gone', async () => {
      const hook = await createHook({ url: `${receiver.url}/doomed` });
      const deleted = await api(gw.baseUrl, 'DELETE', `/api/v4/hooks/${hook.id}`, root());
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expect(await api(gw.baseUrl, 'GET', `/api/v4/hooks/${hook.id}`, root())).toMatchObject({ status: 404, body: { message: '404 System hook Not Found' } });
      expect((await api(gw.baseUrl, 'GET', '/api/v4/hooks', root())).body.map((h: { id: number }) => h.id)).not.toContain(hook.id);
      expect(await api(gw.baseUrl, 'DELETE', `/api/v4/hooks/${hook.id}`, root())).toMatchObject({ status: 404 });
    });

    it('records create, update and destroy events through the outbox, with credentials removed from the URL', async () => {
      const hook = await createHook({ url: 'https://alice:pa55word@hooks.example.com/in', token: 'event-token' });
      await api(gw.baseUrl, 'PUT', `/api/v4/hooks/${hook.id}`, { ...root(), body: { tag_push_events: true } });
      await api(gw.baseUrl, 'DELETE', `/api/v4/hooks/${hook.id}`, root());
      const events = (await eventsOfType('system_hook_')).filter((e) => e.target?.id === hook.id);
      expect(events.map((e) => e.type)).toEqual(['system_hook_create', 'system_hook_update', 'system_hook_destroy']);
      for (const event of events) {
        expect(event).toMatchObject({
          actor: expect.any(Number),
          project_id: null,
          group_id: null,
          target: { type: 'system_hook', id: hook.id, title: 'https://hooks.example.com/in' },
        });
        expect(event.data).toMatchObject({ hook_id: hook.id, url: 'https://hooks.example.com/in', token_set: true });
        const text = JSON.stringify(event);
        expect(text).not.toContain('pa55word');
        expect(text).not.toContain('event-token');
      }
      expect(hook.url).toBe('https://alice:pa55word@hooks.example.com/in');
    });
  });

  describe('validation', () => {
    it('answers 400 missing attribute without url', async () => {
      expect(await api(gw.baseUrl, 'POST', '/api/v4/hooks', { ...root(), body: { token: 'x' } })).toMatchObject({
        status: 400,
        body: { message: '400 (Bad request) "url" not given' },
      });
    });

    it.each([
      ['ftp://example.com/hook', 'is blocked: Only allowed schemes are http, https'],
      ['javascript:alert(1)', 'is blocked: Only allowed schemes are http, https'],
      ['not a url', 'is invalid'],
      ['example.com/hook', 'is invalid'],
      ['http://', 'is invalid'],
      ['', "can't be blank"],
    ])('refuses the url %j in the validation shape, on create and update', async (url, problem) => {
      const created = await api(gw.baseUrl, 'POST', '/api/v4/hooks', { ...root(), body: { url } });
      expect(created).toMatchObject({ status: 400, body: { message: { url: [problem] } } });
      const hook = await createHook({ url: `${receiver.url}/valid` });
      const updated = await api(gw.baseUrl, 'PUT', `/api/v4/hooks/${hook.id}`, { ...root(), body: { url } });
      expect(updated).toMatchObject({ status: 400, body: { message: { url: [problem] } } });
      expect((await api(gw.baseUrl, 'GET', `/api/v4/hooks/${hook.id}`, root())).body[0].url).toBe(`${receiver.url}/valid`);
    });

    it.each<[Record<string, unknown>, Record<string, string[]>]>([
      [{ push_events: 'maybe' }, { push_events: ['is invalid'] }],
      [{ enable_ssl_verification: 7 }, { enable_ssl_verification: ['is invalid'] }],
      [{ url: 42 }, { url: ['is invalid'] }],
      [{ token: 't'.repeat(256) }, { token: ['is too long (maximum is 255 characters)'] }],
      [{ token: 'line\nbreak' }, { token: ['is invalid'] }],
      [{ token: 'caf\u00e9' }, { token: ['is invalid'] }],
    ])('refuses %j in the validation shape', async (attributes, message) => {
      const before = (await api(gw.baseUrl, 'GET', '/api/v4/hooks', root())).body.length;
      const response = await api(gw.baseUrl, 'POST', '/api/v4/hooks', { ...root(), body: { url: `${receiver.url}/x`, ...attributes } });
      expect(response).toMatchObject({ status: 400, body: { message } });
      expect((await api(gw.baseUrl, 'GET', '/api/v4/hooks', root())).body).toHaveLength(before);
    });

    describe('with local requests refused (allow_local_requests_from_system_hooks false)', () => {
      const settings = (body: Record<string, unknown>) => api(gw.baseUrl, 'PUT', '/api/v4/application/settings', { ...root(), body });
      beforeAll(async () => {
        expect((await settings({ allow_local_requests_from_system_hooks: false, outbound_local_requests_whitelist: [] })).status).toBe(200);
      });
      afterAll(async () => {
        await settings({ allow_local_requests_from_system_hooks: true, outbound_local_requests_whitelist: [] });
      });

      // Judged without any request: literal addresses, and `localhost`, which the resolver answers with loopback.
      it.each([
        'http://127.0.0.1:9/hook',
        'http://localhost:9/hook',
        'http://[::127.0.0.1]/hook',
        'http://[64:ff9b::7f00:1]/hook',
        'http://[2002:7f00:1::1]/hook',
        'http://10.1.2.3/hook',
        'http://198.18.0.1/hook',
        'http://240.0.0.1/hook',
      ])('refuses %s at creation and update with 422, as GitLab', async (url) => {
        const before = (await api(gw.baseUrl, 'GET', '/api/v4/hooks', root())).body.length;
        const created = await api(gw.baseUrl, 'POST', '/api/v4/hooks', { ...root(), body: { url } });
        expect({ status: created.status, body: created.body }).toEqual({ status: 422, body: { error: 'Invalid url given' } });
        expect((await api(gw.baseUrl, 'GET', '/api/v4/hooks', root())).body).toHaveLength(before);
        const [hook] = (await api(gw.baseUrl, 'GET', '/api/v4/hooks', root())).body;
        const updated = await api(gw.baseUrl, 'PUT', `/api/v4/hooks/${hook.id}`, { ...root(), body: { url } });
        expect({ status: updated.status, body: updated.body }).toEqual({ status: 422, body: { error: 'Invalid url given' } });
      });

      it('accepts a whitelisted local address', async () => {
        await settings({ outbound_local_requests_whitelist: ['127.0.0.1:9'] });
        try {
          const created = await api(gw.baseUrl, 'POST', '/api/v4/hooks', { ...root(), body: { url: 'http://127.0.0.1:9/listed' } });
          expect(created.status).toBe(201);
          await api(gw.baseUrl, 'DELETE', `/api/v4/hooks/${created.body[0].id}`, root());
        } finally {
          await settings({ outbound_local_requests_whitelist: [] });
        }
      });
    });

    it('refuses multicast and broadcast hook URLs even when local requests are allowed', async () => {
      for (const url of ['http://224.0.0.1/hook', 'http://[ff02::1]/hook', 'http://255.255.255.255/hook']) {
        const created = await api(gw.baseUrl, 'POST', '/api/v4/hooks', { ...root(), body: { url } });
        expect({ url, status: created.status }).toEqual({ url, status: 422 });
      }
    });

    it('answers 400 missing attribute for a null url', async () => {
      expect(await api(gw.baseUrl, 'POST', '/api/v4/hooks', { ...root(), body: { url: null } })).toMatchObject({
        status: 400,
        body: { message: '400 (Bad request) "url" not given' },
      });
    });

    it.each([
      ['GET', '999999'],
      ['PUT', '999999'],
      ['POST', '999999'],
      ['DELETE', '999999'],
      ['GET', 'abc'],
      ['GET', '99999999999999999999'],
      ['DELETE', '-1'],
    ])('%s /hooks/%s is a 404', async (method, id) => {
      const response = await api(gw.baseUrl, method, `/api/v4/hooks/${id}`, { ...root(), body: method === 'PUT' ? { push_events: true } : undefined });
      expect(response).toMatchObject({ status: 404, body: { message: '404 System hook Not Found' } });
      expect(receiver.received).toHaveLength(0);
    });
  });

  describe('test delivery (POST /hooks/:id)', () => {
    it('POSTs a made-up project_create sample when there is no project, and answers it', async () => {
      const hook = await createHook({ url: `${receiver.url}/sample`, token: 'delivery-token' });
      const response = await api(gw.baseUrl, 'POST', `/api/v4/hooks/${hook.id}`, root());
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        project_id: 1,
        owner_email: 'example@example.com',
        owner_name: 'Someone',
        name: 'Ruby',
        path: 'ruby',
        event_name: 'project_create',
      });
      expect(receiver.received).toHaveLength(1);
      const [request] = receiver.received;
      expect(request).toMatchObject({ method: 'POST', path: '/sample' });
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/\S/);
      expect(request.headers['x-service-event']).toBe('System Hook');
      expect(request.headers['x-service-token']).toBe('delivery-token');
      expect(JSON.parse(request.body)).toEqual(response.body);
    });

    it('uses the most recent project as the sample, and sends no token header when the hook has none', async () => {
      const me = (await api(gw.baseUrl, 'GET', '/api/v4/user', root())).body;
      await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name: 'Older', path: 'older' } });
      const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name: 'Newest Project', path: 'newest-project' } });
      expect(project.status).toBe(201);
      const hook = await createHook({ url: `${receiver.url}/project` });

      const response = await api(gw.baseUrl, 'POST', `/api/v4/hooks/${hook.id}`, root());
      expect(response.status).toBe(201);
      const expected = {
        project_id: project.body.id,
        owner_email: me.email,
        owner_name: me.name,
        name: 'Newest Project',
        path: 'newest-project',
        event_name: 'project_create',
      };
      expect(response.body).toEqual(expected);
      expect(receiver.received).toHaveLength(1);
      expect(JSON.parse(receiver.received[0].body)).toEqual(expected);
      expect(receiver.received[0].headers).not.toHaveProperty('x-service-token');
    });

    it('does not deliver when the stored token cannot be decrypted, and a new token repairs the hook', async () => {
      const hook = await createHook({ url: `${receiver.url}/rekeyed`, token: 'old-token' });
      await gw.dataSource.query(`UPDATE system_hooks SET encrypted_token = 'v1:00000000:AAAA' WHERE id = $1`, [hook.id]);
      const skipped = await api(gw.baseUrl, 'POST', `/api/v4/hooks/${hook.id}`, root());
      expect(skipped.status).toBe(201);
      expect(receiver.received).toHaveLength(0);

      expect((await api(gw.baseUrl, 'PUT', `/api/v4/hooks/${hook.id}`, { ...root(), body: { token: 'new-token' } })).status).toBe(200);
      expect((await api(gw.baseUrl, 'POST', `/api/v4/hooks/${hook.id}`, root())).status).toBe(201);
      expect(receiver.received.map((r) => r.headers['x-service-token'])).toEqual(['new-token']);
    });

    it('survives URL credentials that are not valid percent-encoding', async () => {
      const hook = await createHook({ url: receiver.url.replace('http://', 'http://user:%zz@') + '/odd' });
      expect((await api(gw.baseUrl, 'POST', `/api/v4/hooks/${hook.id}`, root())).status).toBe(201);
      expect(receiver.received.map((r) => r.path)).toEqual(['/odd']);
    });

    it('sends the credentials of the URL as basic authentication, not in the request line', async () => {
      const hook = await createHook({ url: receiver.url.replace('http://', 'http://hook-user:s3cret@') + '/basic' });
      expect((await api(gw.baseUrl, 'POST', `/api/v4/hooks/${hook.id}`, root())).status).toBe(201);
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0].path).toBe('/basic');
      expect(receiver.received[0].headers.authorization).toBe(`Basic ${Buffer.from('hook-user:s3cret').toString('base64')}`);
    });

    it('still answers the sample when the receiver fails, does not follow redirects, and survives an unreachable receiver', async () => {
      const failing = await createHook({ url: `${receiver.url}/fail` });
      const failed = await api(gw.baseUrl, 'POST', `/api/v4/hooks/${failing.id}`, root());
      expect(failed.status).toBe(201);
      expect(failed.body.event_name).toBe('project_create');

      const redirecting = await createHook({ url: `${receiver.url}/redirect` });
      expect((await api(gw.baseUrl, 'POST', `/api/v4/hooks/${redirecting.id}`, root())).status).toBe(201);
      expect(receiver.received.map((r) => r.path)).toEqual(['/fail', '/redirect']);

      const closed = await startReceiver();
      await closed.close();
      const unreachable = await createHook({ url: `${closed.url}/gone` });
      const response = await api(gw.baseUrl, 'POST', `/api/v4/hooks/${unreachable.id}`, root());
      expect(response.status).toBe(201);
      expect(response.body.event_name).toBe('project_create');
    });

    it('verifies the TLS certificate unless enable_ssl_verification is false', async () => {
      const paths: string[] = [];
      const server = createHttpsServer(loopbackCertificate(), (req, res) => {
        paths.push(req.url ?? '');
        req.resume();
        req.on('end', () => res.writeHead(200).end());
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const verified = await createHook({ url: `${base}/verified` });
        const unverified = await createHook({ url: `${base}/unverified`, enable_ssl_verification: false });
        expect((await api(gw.baseUrl, 'POST', `/api/v4/hooks/${verified.id}`, root())).status).toBe(201);
        expect((await api(gw.baseUrl, 'POST', `/api/v4/hooks/${unverified.id}`, root())).status).toBe(201);
        expect(paths).toEqual(['/unverified']);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });
  });
});
