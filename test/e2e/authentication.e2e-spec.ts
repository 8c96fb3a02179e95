import { api, startTestGateway, TestGateway } from './support/test-gateway';

/** Every row of the Authentication and Sudo tables of spec document 1. */
describe('Authentication', () => {
  let gw: TestGateway;
  let alice: { id: number; username: string };
  let aliceToken: string;

  const createUser = async (username: string, extra: Record<string, unknown> = {}) => {
    const res = await api(gw.baseUrl, 'POST', '/api/v4/users', {
      token: gw.rootToken,
      body: { username, name: username, email: `${username}@example.com`, password: 'secret-password-1', ...extra },
    });
    expect(res.status).toBe(201);
    return res.body as { id: number; username: string };
  };

  const createPat = async (userId: number, scopes: string[], extra: Record<string, unknown> = {}) => {
    const res = await api(gw.baseUrl, 'POST', `/api/v4/users/${userId}/personal_access_tokens`, {
      token: gw.rootToken,
      body: { name: `t-${scopes.join('-')}`, scopes, ...extra },
    });
    expect(res.status).toBe(201);
    return res.body as { id: number; token: string };
  };

  beforeAll(async () => {
    gw = await startTestGateway('authn');
    alice = await createUser('alice');
    aliceToken = (await createPat(alice.id, ['api'])).token;
  });
  afterAll(() => gw.close());

  describe('credential forms', () => {
    it('accepts the PRIVATE-TOKEN header', async () => {
      const res = await api(gw.baseUrl, 'GET', '/api/v4/user', { headers: { 'PRIVATE-TOKEN': aliceToken } });
      expect(res.status).toBe(200);
      expect(res.body.username).toBe('alice');
    });

    it('accepts the private_token query parameter', async () => {
      const res = await api(gw.baseUrl, 'GET', `/api/v4/user?private_token=${encodeURIComponent(aliceToken)}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(alice.id);
    });

    it('accepts a personal access token as Authorization: Bearer', async () => {
      const res = await api(gw.baseUrl, 'GET', '/api/v4/user', { headers: { Authorization: `Bearer ${aliceToken}` } });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(alice.id);
    });

    it('issues OAuth tokens (password grant) usable as Bearer and as access_token, renewable with the refresh token', async () => {
      const grant = await api(gw.baseUrl, 'POST', '/oauth/token', {
        body: { grant_type: 'password', username: 'alice', password: 'secret-password-1' },
      });
      expect(grant.status).toBe(200);
      expect(grant.body).toMatchObject({ token_type: 'Bearer', expires_in: 7200, scope: 'api' });
      expect(typeof grant.body.refresh_token).toBe('string');

      const viaHeader = await api(gw.baseUrl, 'GET', '/api/v4/user', { headers: { Authorization: `Bearer ${grant.body.access_token}` } });
      expect(viaHeader.body.username).toBe('alice');
      const viaQuery = await api(gw.baseUrl, 'GET', `/api/v4/user?access_token=${grant.body.access_token}`);
      expect(viaQuery.body.username).toBe('alice');

      const refreshed = await api(gw.baseUrl, 'POST', '/oauth/token', {
        form: { grant_type: 'refresh_token', refresh_token: grant.body.refresh_token },
      });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.access_token).not.toBe(grant.body.access_token);
      // Rotation: the old pair no longer works.
      const old = await api(gw.baseUrl, 'GET', '/api/v4/user', { headers: { Authorization: `Bearer ${grant.body.access_token}` } });
      expect(old.status).toBe(401);
      const reused = await api(gw.baseUrl, 'POST', '/oauth/token', { body: { grant_type: 'refresh_token', refresh_token: grant.body.refresh_token } });
      expect(reused.status).toBe(400);
      expect(reused.body.error).toBe('invalid_grant');
      const fresh = await api(gw.baseUrl, 'GET', '/api/v4/user', { headers: { Authorization: `Bearer ${refreshed.body.access_token}` } });
      expect(fresh.body.username).toBe('alice');
    });

    it('refuses an expired OAuth token with 401', async () => {
      const grant = await api(gw.baseUrl, 'POST', '/oauth/token', { body: { grant_type: 'password', username: 'alice', password: 'secret-password-1' } });
      await gw.dataSource.query("UPDATE oauth_access_tokens SET created_at = now() - interval '3 hours'");
      const res = await api(gw.baseUrl, 'GET', '/api/v4/user', { headers: { Authorization: `Bearer ${grant.body.access_token}` } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    });

    it('answers OAuth errors in the OAuth shape', async () => {
      const wrong = await api(gw.baseUrl, 'POST', '/oauth/token', { body: { grant_type: 'password', username: 'alice', password: 'nope' } });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe('invalid_grant');
      const unsupported = await api(gw.baseUrl, 'POST', '/oauth/token', { body: { grant_type: 'client_credentials' } });
      expect(unsupported.body.error).toBe('unsupported_grant_type');
      const badScope = await api(gw.baseUrl, 'POST', '/oauth/token', {
        body: { grant_type: 'password', username: 'alice', password: 'secret-password-1', scope: 'everything' },
      });
      expect(badScope.body.error).toBe('invalid_scope');
    });

    it('accepts the _service_session cookie of a web sign-in; writes also need its CSRF token', async () => {
      const signIn = await api(gw.baseUrl, 'POST', '/users/sign_in', { form: { 'user[login]': 'alice', 'user[password]': 'secret-password-1' } });
      expect(signIn.status).toBe(201);
      const setCookie = signIn.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(/^_service_session=[^;]+;/);
      expect(setCookie).toMatch(/HttpOnly/i);
      const cookie = setCookie.split(';')[0];
      const csrf = signIn.headers.get('x-csrf-token')!;
      expect(csrf).toBe(signIn.body.csrf_token);

      const me = await api(gw.baseUrl, 'GET', '/api/v4/user', { headers: { Cookie: cookie } });
      expect(me.status).toBe(200);
      expect(me.body.username).toBe('alice');

      const withoutCsrf = await api(gw.baseUrl, 'POST', '/api/v4/groups', {
        headers: { Cookie: cookie },
        body: { name: 'Cookie Group', path: 'cookie-group' },
      });
      expect(withoutCsrf.status).toBe(401);
      const withCsrf = await api(gw.baseUrl, 'POST', '/api/v4/groups', {
        headers: { Cookie: cookie, 'X-CSRF-Token': csrf },
        body: { name: 'Cookie Group', path: 'cookie-group' },
      });
      expect(withCsrf.status).toBe(201);

      const wrong = await api(gw.baseUrl, 'POST', '/users/sign_in', { body: { user: { login: 'alice', password: 'wrong' } } });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ message: '401 Unauthorized' });

      // Signing out is a write of the session too: without its CSRF token (or with another) it is
      // refused like the API's writes, and the session stays.
      const attempts: Array<Record<string, string>> = [
        { Cookie: cookie },
        { Cookie: cookie, 'X-CSRF-Token': `${csrf.slice(1)}x` },
        { Cookie: cookie, 'X-CSRF-Token': '' },
      ];
      for (const headers of attempts) {
        const refused = await api(gw.baseUrl, 'DELETE', '/users/sign_out', { headers });
        expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: { message: '401 Unauthorized' } });
        expect(refused.headers.get('set-cookie')).toBeNull();
        expect((await api(gw.baseUrl, 'GET', '/api/v4/user', { headers: { Cookie: cookie } })).status).toBe(200);
      }
      expect((await api(gw.baseUrl, 'DELETE', '/users/sign_out', { headers: { Cookie: cookie, 'X-CSRF-Token': csrf } })).status).toBe(204);
      expect((await api(gw.baseUrl, 'GET', '/api/v4/user', { headers: { Cookie: cookie } })).status).toBe(401);
      // Without a session there is nothing to end (and nothing to forge).
      expect((await api(gw.baseUrl, 'DELETE', '/users/sign_out', { headers: { Cookie: cookie } })).status).toBe(204);
      const bogus = await api(gw.baseUrl, 'GET', '/api/v4/users/alice', { headers: { Cookie: '_service_session=forged' } });
      expect(bogus.status).toBe(401);
    });

    it('ignores JOB-TOKEN on endpoints that are not job-scoped', async () => {
      const res = await api(gw.baseUrl, 'GET', '/api/v4/user', { headers: { 'JOB-TOKEN': 'anything' } });
      expect(res.status).toBe(401);
    });

    it('answers 401 with the spec body for missing, unknown, revoked and expired credentials', async () => {
      const missing = await api(gw.baseUrl, 'GET', '/api/v4/user');
      expect(missing.status).toBe(401);
      expect(missing.body).toEqual({ message: '401 Unauthorized' });
      expect(missing.headers.get('content-type')).toMatch(/application\/json/);

      const unknown = await api(gw.baseUrl, 'GET', '/api/v4/user', { token: 'svcpat-not-a-real-token' });
      expect(unknown.status).toBe(401);
      expect(unknown.body).toEqual({ message: '401 Unauthorized' });

      const revoked = await createPat(alice.id, ['api']);
      expect((await api(gw.baseUrl, 'DELETE', `/api/v4/personal_access_tokens/${revoked.id}`, { token: gw.rootToken })).status).toBe(204);
      expect((await api(gw.baseUrl, 'GET', '/api/v4/user', { token: revoked.token })).status).toBe(401);

      const expiring = await createPat(alice.id, ['api']);
      await gw.dataSource.query('UPDATE access_tokens SET expires_at = current_date WHERE id = $1', [expiring.id]);
      expect((await api(gw.baseUrl, 'GET', '/api/v4/user', { token: expiring.token })).status).toBe(401);
    });

    it('refuses tokens of blocked users', async () => {
      const bob = await createUser('bob-blocked');
      const token = (await createPat(bob.id, ['api'])).token;
      expect((await api(gw.baseUrl, 'GET', '/api/v4/user', { token })).status).toBe(200);
      expect((await api(gw.baseUrl, 'POST', `/api/v4/users/${bob.id}/block`, { token: gw.rootToken })).status).toBe(201);
      expect((await api(gw.baseUrl, 'GET', '/api/v4/user', { token })).status).toBe(401);
    });

    it('never stores a token in clear text', async () => {
      const rows: Array<{ token_digest: string }> = await gw.dataSource.query('SELECT token_digest FROM access_tokens');
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.token_digest).toMatch(/^[0-9a-f]{64}$/);
        expect(row.token_digest).not.toBe(aliceToken);
      }
      const listed = await api(gw.baseUrl, 'GET', '/api/v4/personal_access_tokens', { token: aliceToken });
      expect(listed.status).toBe(200);
      expect(listed.body.length).toBeGreaterThan(0);
      for (const token of listed.body) expect(token).not.toHaveProperty('token');
    });
  });

  describe('scopes', () => {
    it('lets read_user tokens read users but not write', async () => {
      const readUser = (await createPat(alice.id, ['read_user'])).token;
      expect((await api(gw.baseUrl, 'GET', '/api/v4/user', { token: readUser })).status).toBe(200);
      const write = await api(gw.baseUrl, 'POST', '/api/v4/groups', { token: readUser, body: { name: 'g', path: 'g' } });
      expect(write.status).toBe(403);
      expect(write.body).toMatchObject({ error: 'insufficient_scope', scope: 'api' });
      expect(typeof write.body.error_description).toBe('string');
    });

    it('lets read_api tokens read but not write', async () => {
      const readApi = (await createPat(alice.id, ['read_api'])).token;
      expect((await api(gw.baseUrl, 'GET', '/api/v4/personal_access_tokens', { token: readApi })).status).toBe(200);
      const victim = await createPat(alice.id, ['api']);
      const del = await api(gw.baseUrl, 'DELETE', `/api/v4/personal_access_tokens/${victim.id}`, { token: readApi });
      expect(del.status).toBe(403);
      expect(del.body).toMatchObject({ error: 'insufficient_scope', scope: 'api' });
      expect((await api(gw.baseUrl, 'GET', '/api/v4/user', { token: victim.token })).status).toBe(200);
    });
  });

  describe('sudo', () => {
    it('runs the request as the named user (id, or case-insensitive username, as query or header)', async () => {
      const byQuery = await api(gw.baseUrl, 'GET', `/api/v4/user?sudo=${alice.id}`, { token: gw.rootToken });
      expect(byQuery.status).toBe(200);
      expect(byQuery.body.username).toBe('alice');
      const byHeader = await api(gw.baseUrl, 'GET', '/api/v4/user', { token: gw.rootToken, headers: { Sudo: 'ALICE' } });
      expect(byHeader.body.username).toBe('alice');
    });

    it('403 Must be admin to use sudo, for a non-administrator', async () => {
      const res = await api(gw.baseUrl, 'GET', '/api/v4/user?sudo=root', { token: aliceToken });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
    });

    it('403 insufficient_scope when the administrator token lacks the sudo scope', async () => {
      const rootApiOnly = (await createPat(1, ['api'])).token;
      const res = await api(gw.baseUrl, 'GET', '/api/v4/user?sudo=alice', { token: rootApiOnly });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'insufficient_scope', scope: 'sudo' });
      expect(typeof res.body.error_description).toBe('string');
    });

    it('404 when the sudo user does not exist', async () => {
      const res = await api(gw.baseUrl, 'GET', '/api/v4/user?sudo=nobody-here', { token: gw.rootToken });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 User with ID or username nobody-here Not Found' });
    });
  });

  describe('impersonation tokens', () => {
    it('are created by administrators and act as the user', async () => {
      const created = await api(gw.baseUrl, 'POST', `/api/v4/users/${alice.id}/impersonation_tokens`, {
        token: gw.rootToken,
        body: { name: 'support', scopes: ['api'] },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ impersonation: true, active: true, scopes: ['api'] });
      const me = await api(gw.baseUrl, 'GET', '/api/v4/user', { token: created.body.token });
      expect(me.body.username).toBe('alice');
      const byAlice = await api(gw.baseUrl, 'POST', `/api/v4/users/${alice.id}/impersonation_tokens`, {
        token: aliceToken,
        body: { name: 'x', scopes: ['api'] },
      });
      expect(byAlice.status).toBe(403);
      const shown = await api(gw.baseUrl, 'GET', `/api/v4/users/${alice.id}/impersonation_tokens/${created.body.id}`, { token: gw.rootToken });
      expect(shown.status).toBe(200);
      expect(shown.body).not.toHaveProperty('token');
    });

    it('are refused when impersonation is disabled', async () => {
      const other = await startTestGateway('authn-noimp', { IMPERSONATION_ENABLED: 'false' });
      try {
        const res = await api(other.baseUrl, 'POST', '/api/v4/users/1/impersonation_tokens', { token: other.rootToken, body: { name: 'x', scopes: ['api'] } });
        expect(res.status).toBe(403);
        expect(res.body.message).toMatch(/Impersonation has been disabled/);
      } finally {
        await other.close();
      }
    });
  });
});
