import { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

/** Application settings that change what the service does: each one changed, then the behaviour observed. */
describe('Application settings drive behaviour', () => {
  let gw: TestGateway;
  let sequence = 0;

  const root = () => ({ token: gw.rootToken });
  const settings = async (body: Record<string, unknown>) => {
    const res = await api(gw.baseUrl, 'PUT', '/api/v4/application/settings', { ...root(), body });
    expect(res.status).toBe(200);
    return res.body;
  };
  const createUser = (email: string, extra: Record<string, unknown> = {}) => {
    sequence += 1;
    return api(gw.baseUrl, 'POST', '/api/v4/users', {
      ...root(),
      body: { username: `user${sequence}`, name: `User ${sequence}`, email, password: 'secret-password-1', ...extra },
    });
  };

  beforeAll(async () => {
    gw = await startTestGateway('settings_behaviour');
  });
  afterAll(() => gw?.close());

  it('default_project_visibility: a project created without visibility gets it, lowered to its group', async () => {
    expect((await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name: 'before' } })).body.visibility).toBe('private');
    await settings({ default_project_visibility: 'internal' });
    expect((await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name: 'after' } })).body.visibility).toBe('internal');
    expect((await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name: 'explicit', visibility: 'public' } })).body.visibility).toBe('public');
    const group = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...root(), body: { name: 'closed', path: 'closed', visibility: 'private' } });
    const inGroup = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name: 'inside', namespace_id: group.body.id } });
    expect(inGroup.status).toBe(201);
    expect(inGroup.body.visibility).toBe('private');
    await settings({ default_project_visibility: 'private' });
  });

  it('default_group_visibility: a group created without visibility gets it, lowered to its parent', async () => {
    await settings({ default_group_visibility: 'public' });
    const group = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...root(), body: { name: 'open', path: 'open' } });
    expect(group.body.visibility).toBe('public');
    const parent = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...root(), body: { name: 'shut', path: 'shut', visibility: 'internal' } });
    const child = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...root(), body: { name: 'child', path: 'child', parent_id: parent.body.id } });
    expect(child.status).toBe(201);
    expect(child.body.visibility).toBe('internal');
    await settings({ default_group_visibility: 'private' });
    expect((await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...root(), body: { name: 'quiet', path: 'quiet' } })).body.visibility).toBe('private');
  });

  it('default_projects_limit: new users get it unless projects_limit is given', async () => {
    await settings({ default_projects_limit: 3 });
    expect((await createUser('limited@example.com')).body.projects_limit).toBe(3);
    expect((await createUser('chosen@example.com', { projects_limit: 9 })).body.projects_limit).toBe(9);
    await settings({ default_projects_limit: 100000 });
    expect((await createUser('plenty@example.com')).body.projects_limit).toBe(100000);
  });

  it('default_branch_name: the default branch of a new project initialized with a README', async () => {
    expect(
      (await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name: 'readme-main', initialize_with_readme: true } })).body.default_branch,
    ).toBe('main');
    await settings({ default_branch_name: 'trunk' });
    expect(
      (await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name: 'readme-trunk', initialize_with_readme: true } })).body.default_branch,
    ).toBe('trunk');
    expect(
      (await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name: 'chosen-branch', initialize_with_readme: true, default_branch: 'dev' } }))
        .body.default_branch,
    ).toBe('dev');
    await settings({ default_branch_name: null });
  });

  it('personal_access_token_prefix: new tokens start with it and authenticate', async () => {
    const user = await createUser('tokens@example.com');
    await settings({ personal_access_token_prefix: 'corp-' });
    const pat = await api(gw.baseUrl, 'POST', `/api/v4/users/${user.body.id}/personal_access_tokens`, {
      ...root(),
      body: { name: 'prefixed', scopes: ['api'] },
    });
    expect(pat.status).toBe(201);
    expect(pat.body.token).toMatch(/^corp-/);
    expect((await api(gw.baseUrl, 'GET', '/api/v4/user', { token: pat.body.token })).body.username).toBe(user.body.username);
    await settings({ personal_access_token_prefix: 'svcpat-' });
    const back = await api(gw.baseUrl, 'POST', `/api/v4/users/${user.body.id}/personal_access_tokens`, {
      ...root(),
      body: { name: 'default', scopes: ['api'] },
    });
    expect(back.body.token).toMatch(/^svcpat-/);
  });

  it('domain_allowlist: only those e-mail domains (wildcards allowed) get accounts', async () => {
    await settings({ domain_allowlist: ['example.com', '*.corp.example'] });
    const refused = await createUser('someone@elsewhere.org');
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { email: ['domain is not authorized for sign-up.'] } });
    expect((await createUser('ok@example.com')).status).toBe(201);
    expect((await createUser('ok@eu.corp.example')).status).toBe(201);
    await settings({ domain_allowlist: [] });
    expect((await createUser('someone@elsewhere.org')).status).toBe(201);
  });

  it('domain_denylist: refused while domain_denylist_enabled is on', async () => {
    await settings({ domain_denylist_enabled: true, domain_denylist: ['spam.test', '*.throwaway.test'] });
    const refused = await createUser('bot@mail.throwaway.test');
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { email: ['is not allowed for sign-up. Please use your regular email address.'] } });
    expect((await createUser('bot@SPAM.test')).status).toBe(400);
    expect((await createUser('person@legit.test')).status).toBe(201);
    await settings({ domain_denylist_enabled: false });
    expect((await createUser('bot@spam.test')).status).toBe(201);
  });

  it('session_expire_delay: the lifetime of new web sessions', async () => {
    const user = await createUser('web@example.com');
    const signIn = async () => {
      const res = await api(gw.baseUrl, 'POST', '/users/sign_in', { body: { user: { login: user.body.username, password: 'secret-password-1' } } });
      expect(res.status).toBe(201);
      return { cookie: res.headers.get('set-cookie') ?? '', ttl: Number(/Max-Age=(\d+)/i.exec(res.headers.get('set-cookie') ?? '')?.[1]) };
    };
    expect((await signIn()).ttl).toBe(10080 * 60);
    await settings({ session_expire_delay: 5 });
    const { cookie, ttl } = await signIn();
    expect(ttl).toBe(300);
    const [, value] = /^_service_session=([^;]+)/.exec(cookie)!;
    const key = `${gw.config.redis.prefix}:session:${createHash('sha256').update(value).digest('hex')}`;
    const redis = new Redis(gw.config.redis.url);
    try {
      const remaining = await redis.ttl(key);
      expect(remaining).toBeGreaterThan(290);
      expect(remaining).toBeLessThanOrEqual(300);
    } finally {
      redis.disconnect();
    }
  });

  it('signup_enabled: concerns self sign-up only; administrators still create users', async () => {
    await settings({ signup_enabled: false });
    expect((await createUser('admin-made@example.com')).status).toBe(201);
    await settings({ signup_enabled: true });
  });
});
