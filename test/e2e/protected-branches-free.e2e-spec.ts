import { api, startTestGateway, TestGateway } from './support/test-gateway';

/** On the free tier the PREMIUM attributes of protected branches are ignored or refused. */
describe('Protected branches (free tier)', () => {
  let gw: TestGateway;
  let projectId: number;
  let userId: number;
  const root = () => ({ token: gw.rootToken });

  beforeAll(async () => {
    gw = await startTestGateway('protected-branches-free', { SERVICE_TIER: 'free' });
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { path: 'free-app' } });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    const user = await api(gw.baseUrl, 'POST', '/api/v4/users', {
      ...root(),
      body: { username: 'fred', name: 'Fred', email: 'fred@example.com', password: 'secret-password-1' },
    });
    userId = user.body.id;
    expect((await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/members`, { ...root(), body: { user_id: userId, access_level: 30 } })).status).toBe(
      201,
    );
  });
  afterAll(() => gw.close());

  it('ignores allowed_to_* and code_owner_approval_required, and shows no user_id/group_id', async () => {
    const created = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/protected_branches`, {
      ...root(),
      body: {
        name: 'main',
        push_access_level: 30,
        allowed_to_push: [{ user_id: userId }],
        allowed_to_merge: [{ user_id: userId }],
        code_owner_approval_required: true,
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.push_access_levels).toEqual([
      { id: expect.any(Number), access_level: 30, access_level_description: 'Developers + Maintainers', deploy_key_id: null },
    ]);
    // allowed_to_merge ignored: the default role entry applies
    expect(created.body.merge_access_levels).toEqual([expect.objectContaining({ access_level: 40 })]);
    expect(created.body.merge_access_levels[0]).not.toHaveProperty('user_id');
    expect(created.body.code_owner_approval_required).toBe(false);
    const stored = await gw.dataSource.query('SELECT count(*)::int AS n FROM protected_branch_access_levels WHERE user_id IS NOT NULL');
    expect(stored[0].n).toBe(0);
  });

  it('refuses PATCH (PREMIUM) with 403', async () => {
    const res = await api(gw.baseUrl, 'PATCH', `/api/v4/projects/${projectId}/protected_branches/main`, { ...root(), body: { allow_force_push: true } });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/PREMIUM/);
    const shown = await api(gw.baseUrl, 'GET', `/api/v4/projects/${projectId}/protected_branches/main`, root());
    expect(shown.body.allow_force_push).toBe(false);
  });

  it('still lets maintainers remove the rule', async () => {
    expect((await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${projectId}/protected_branches/main`, root())).status).toBe(204);
  });
});
