import { api, startTestGateway, TestGateway } from './support/test-gateway';
import { RootUserBootstrap } from '@app/namespaces';

describe('Users and access tokens', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway('identity');
  });
  afterAll(() => gw.close());

  describe('bootstrap', () => {
    it('creates root with the INITIAL_ROOT_TOKEN, and a second start changes nothing', async () => {
      const me = await api(gw.baseUrl, 'GET', '/api/v4/user', { token: gw.rootToken });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ username: 'root', is_admin: true, state: 'active' });
      const tokens = await api(gw.baseUrl, 'GET', '/api/v4/personal_access_tokens/self', { token: gw.rootToken });
      expect(tokens.body).toMatchObject({ name: 'initial-root-token', scopes: ['api', 'read_user', 'sudo'], active: true });

      const again = await gw.app.get(RootUserBootstrap).ensureRoot(gw.rootToken);
      expect(again).toEqual({ userCreated: false, tokenCreated: false, passwordSet: false });
      const [{ n }] = await gw.dataSource.query("SELECT count(*)::int AS n FROM users WHERE username = 'root'");
      expect(n).toBe(1);
    });

    it('gives root the INITIAL_ROOT_PASSWORD while it has none, and never overwrites it', async () => {
      const signIn = (password: string) => api(gw.baseUrl, 'POST', '/users/sign_in', { body: { user: { login: 'root', password } } });
      // Created by the token alone, root has no password: nothing signs in.
      expect((await signIn('first-password-1')).status).toBe(401);

      const set = await gw.app.get(RootUserBootstrap).ensureRoot(gw.rootToken, 'first-password-1');
      expect(set).toEqual({ userCreated: false, tokenCreated: false, passwordSet: true });
      expect((await signIn('first-password-1')).status).toBe(201);

      const again = await gw.app.get(RootUserBootstrap).ensureRoot(undefined, 'other-password-2');
      expect(again).toEqual({ userCreated: false, tokenCreated: false, passwordSet: false });
      expect((await signIn('other-password-2')).status).toBe(401);
      expect((await signIn('first-password-1')).status).toBe(201);
    });
  });

  describe('users', () => {
    it('answers block and unblock as GitLab: true for a change, null for a user already blocked, false for one not blocked', async () => {
      const user = await api(gw.baseUrl, 'POST', '/api/v4/users', {
        token: gw.rootToken,
        body: { username: 'blocky', name: 'B', email: 'blocky@example.com', password: 'long-enough-1' },
      });
      expect(user.status).toBe(201);
      const post = (path: string) => api(gw.baseUrl, 'POST', `/api/v4/users/${user.body.id}/${path}`, { token: gw.rootToken });
      const answers = [];
      for (const path of ['unblock', 'block', 'block', 'unblock', 'unblock']) answers.push(await post(path));
      expect(answers.map((a) => [a.status, a.text])).toEqual([
        [201, 'false'],
        [201, 'true'],
        [201, 'null'],
        [201, 'true'],
        [201, 'false'],
      ]);
      for (const a of answers) expect(a.headers.get('content-type')).toMatch(/^application\/json/);
      const events = await gw.dataSource.query(
        "SELECT payload->>'type' AS type FROM outbox_events WHERE payload->>'type' IN ('user_block', 'user_unblock') AND (payload->'target'->>'id')::int = $1 ORDER BY seq",
        [user.body.id],
      );
      expect(events.map((e: { type: string }) => e.type)).toEqual(['user_block', 'user_unblock']);
    });

    it("takes any e-mail GitLab's rule takes (one @, no spaces) and refuses the others", async () => {
      const create = (username: string, email: unknown) =>
        api(gw.baseUrl, 'POST', '/api/v4/users', { token: gw.rootToken, body: { username, name: username, email, password: 'long-enough-1' } });
      const ok = await create('dotted-tld', 'user@email.com.2');
      expect(ok.status).toBe(201);
      expect(ok.body.email).toBe('user@email.com.2');
      expect((await create('local-host', 'user@localhost')).status).toBe(201);
      for (const [i, bad] of ['no-at-sign', 'two@@example.com', 'sp ace@example.com', '@example.com', 'user@', 'a@b@c'].entries()) {
        const res = await create(`bad-mail-${i}`, bad);
        expect([bad, res.status, res.body]).toEqual([bad, 400, { message: { email: ['is invalid'] } }]);
      }
      // python-gitlab sends booleans as str(bool).
      const admin = await create('py-admin', 'py-admin@example.com');
      expect(admin.status).toBe(201);
      const viaForm = await api(gw.baseUrl, 'POST', '/api/v4/users', {
        token: gw.rootToken,
        form: { username: 'py-form', name: 'P', email: 'py-form@example.com', password: 'long-enough-1', admin: 'True', external: 'False' },
      });
      expect(viaForm.status).toBe(201);
      expect(viaForm.body).toMatchObject({ is_admin: true, external: false });
      const odd = await api(gw.baseUrl, 'POST', '/api/v4/users', {
        token: gw.rootToken,
        form: { username: 'py-odd', name: 'P', email: 'py-odd@example.com', password: 'long-enough-1', admin: 'tRuE' },
      });
      expect(odd.status).toBe(400);
    });

    it('creates a user (admin), writes user_create to the outbox, and refuses duplicates with 409', async () => {
      const created = await api(gw.baseUrl, 'POST', '/api/v4/users', {
        token: gw.rootToken,
        body: { username: 'carol', name: 'Carol', email: 'carol@example.com', password: 'long-enough-1' },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ username: 'carol', name: 'Carol', email: 'carol@example.com', state: 'active', is_admin: false });
      expect(created.body.web_url).toBe(`${gw.config.http.externalUrl}/carol`);
      const events = await gw.dataSource.query(
        "SELECT payload FROM outbox_events WHERE payload->>'type' = 'user_create' AND payload->'data'->>'username' = 'carol'",
      );
      expect(events).toHaveLength(1);
      expect(events[0].payload).toMatchObject({ version: 1, actor: 1, target: { type: 'user', id: created.body.id } });

      const dupEmail = await api(gw.baseUrl, 'POST', '/api/v4/users', {
        token: gw.rootToken,
        body: { username: 'carol2', name: 'C', email: 'CAROL@example.com', password: 'long-enough-1' },
      });
      expect(dupEmail.status).toBe(409);
      expect(dupEmail.body).toEqual({ message: 'Email has already been taken' });
      const dupName = await api(gw.baseUrl, 'POST', '/api/v4/users', {
        token: gw.rootToken,
        body: { username: 'Carol', name: 'C', email: 'c2@example.com', password: 'long-enough-1' },
      });
      expect(dupName.status).toBe(409);
      expect(dupName.body).toEqual({ message: 'Username has already been taken' });
    });

    it('reports a missing attribute and invalid values in the spec shapes', async () => {
      const missing = await api(gw.baseUrl, 'POST', '/api/v4/users', {
        token: gw.rootToken,
        body: { name: 'x', email: 'x@example.com', password: 'long-enough-1' },
      });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ message: '400 (Bad request) "username" not given' });
      const invalid = await api(gw.baseUrl, 'POST', '/api/v4/users', {
        token: gw.rootToken,
        body: { username: 'ok-name', name: 'x', email: 'not-an-email', password: 'long-enough-1' },
      });
      expect(invalid.status).toBe(400);
      expect(invalid.body.message.email).toEqual(expect.arrayContaining([expect.any(String)]));
    });

    it('refuses user creation by non-administrators', async () => {
      const dave = await api(gw.baseUrl, 'POST', '/api/v4/users', {
        token: gw.rootToken,
        body: { username: 'dave', name: 'Dave', email: 'dave@example.com', password: 'long-enough-1' },
      });
      const token = await api(gw.baseUrl, 'POST', `/api/v4/users/${dave.body.id}/personal_access_tokens`, {
        token: gw.rootToken,
        body: { name: 't', scopes: ['api'] },
      });
      const res = await api(gw.baseUrl, 'POST', '/api/v4/users', {
        token: token.body.token,
        body: { username: 'eve', name: 'Eve', email: 'eve@example.com', password: 'long-enough-1' },
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    });

    it('shows the basic view to anonymous callers and hides e-mail from other users', async () => {
      const anon = await api(gw.baseUrl, 'GET', '/api/v4/users/carol');
      expect(anon.status).toBe(200);
      expect(Object.keys(anon.body).sort()).toEqual(['avatar_url', 'id', 'locked', 'name', 'state', 'username', 'web_url']);
      const list = await api(gw.baseUrl, 'GET', '/api/v4/users?username=CAROL');
      expect(list.body).toHaveLength(1);
      expect(list.body[0].username).toBe('carol');
      expect((await api(gw.baseUrl, 'GET', '/api/v4/users/99999')).status).toBe(404);
      const asAdmin = await api(gw.baseUrl, 'GET', '/api/v4/users/carol', { token: gw.rootToken });
      expect(asAdmin.body.email).toBe('carol@example.com');
    });

    it('deletes a user with its personal projects (project_destroy, user_destroy) but not the sole owner of a group', async () => {
      const henry = await api(gw.baseUrl, 'POST', '/api/v4/users', {
        token: gw.rootToken,
        body: { username: 'henry', name: 'Henry', email: 'henry@example.com', password: 'long-enough-1' },
      });
      const project = await api(gw.baseUrl, 'POST', `/api/v4/projects?sudo=henry`, { token: gw.rootToken, body: { name: 'henrys-project' } });
      expect(project.status).toBe(201);
      expect(project.body.path_with_namespace).toBe('henry/henrys-project');
      const group = await api(gw.baseUrl, 'POST', '/api/v4/groups?sudo=henry', { token: gw.rootToken, body: { name: 'Henry Group', path: 'henry-group' } });
      expect(group.status).toBe(201);

      const refused = await api(gw.baseUrl, 'DELETE', `/api/v4/users/${henry.body.id}`, { token: gw.rootToken });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toContain('henry-group');

      expect(
        (await api(gw.baseUrl, 'POST', `/api/v4/groups/${group.body.id}/members`, { token: gw.rootToken, body: { user_id: 1, access_level: 50 } })).status,
      ).toBe(201);
      const deleted = await api(gw.baseUrl, 'DELETE', `/api/v4/users/${henry.body.id}`, { token: gw.rootToken });
      expect(deleted.status).toBe(204);
      expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.body.id}`, { token: gw.rootToken })).status).toBe(404);
      const types: Array<{ type: string }> = await gw.dataSource.query(
        "SELECT payload->>'type' AS type FROM outbox_events WHERE payload->>'type' IN ('project_destroy', 'user_destroy') AND (payload->'target'->>'id')::int IN ($1, $2) ORDER BY seq",
        [project.body.id, henry.body.id],
      );
      expect(types.map((t) => t.type)).toEqual(['project_destroy', 'user_destroy']);
    });

    it('paginates the user list with Link and x-* headers', async () => {
      const page = await api(gw.baseUrl, 'GET', '/api/v4/users?per_page=1&page=2&order_by=id&sort=asc', { token: gw.rootToken });
      expect(page.status).toBe(200);
      expect(page.body).toHaveLength(1);
      expect(page.headers.get('x-page')).toBe('2');
      expect(page.headers.get('x-per-page')).toBe('1');
      expect(Number(page.headers.get('x-total'))).toBeGreaterThanOrEqual(3);
      expect(page.headers.get('link')).toContain('rel="next"');
      expect(page.headers.get('link')).toContain('order_by=id');
    });
  });

  describe('project and group access tokens', () => {
    it('creates a bot member whose token reaches the project, and revocation stops it', async () => {
      const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: gw.rootToken, body: { name: 'tokens-project' } });
      expect(project.status).toBe(201);
      const created = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.body.id}/access_tokens`, {
        token: gw.rootToken,
        body: { name: 'ci-bot', scopes: ['api'], access_level: 30 },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'ci-bot', access_level: 30, active: true, scopes: ['api'] });
      const viaBot = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.body.id}`, { token: created.body.token });
      expect(viaBot.status).toBe(200);
      expect(viaBot.body.permissions.project_access.access_level).toBe(30);
      const listed = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.body.id}/access_tokens`, { token: gw.rootToken });
      expect(listed.body.map((t: { id: number }) => t.id)).toContain(created.body.id);
      expect(listed.body[0]).not.toHaveProperty('token');
      const revoked = await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${project.body.id}/access_tokens/${created.body.id}`, { token: gw.rootToken });
      expect(revoked.status).toBe(204);
      expect(revoked.text).toBe('');
      expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.body.id}`, { token: created.body.token })).status).toBe(401);
    });

    it('creates group access tokens for owners', async () => {
      const group = await api(gw.baseUrl, 'POST', '/api/v4/groups', { token: gw.rootToken, body: { name: 'Token Group', path: 'token-group' } });
      expect(group.status).toBe(201);
      const created = await api(gw.baseUrl, 'POST', `/api/v4/groups/${group.body.id}/access_tokens`, {
        token: gw.rootToken,
        body: { name: 'g-bot', scopes: ['read_api'] },
      });
      expect(created.status).toBe(201);
      const viaBot = await api(gw.baseUrl, 'GET', `/api/v4/groups/${group.body.id}`, { token: created.body.token });
      expect(viaBot.status).toBe(200);
      expect(viaBot.body.full_path).toBe('token-group');
    });
  });
});
