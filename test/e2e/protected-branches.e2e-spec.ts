import { Gitlab } from '@gitbeaker/rest';
import { ProjectsRepository } from '@app/namespaces';
import { ProtectedBranchesService } from '@app/repository';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

type Client = InstanceType<typeof Gitlab>;

/** Protected branches over HTTP (ULTIMATE instance: every PREMIUM attribute is available). */
describe('Protected branches', () => {
  let gw: TestGateway;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const clients: Record<string, Client> = {};
  let projectId: number;
  let otherGroupId: number;

  const as = (who: string) => ({ token: who === 'root' ? gw.rootToken : tokens[who] });
  const path = (suffix = '') => `/api/v4/projects/${projectId}/protected_branches${suffix}`;

  const createUser = async (username: string) => {
    const user = await api(gw.baseUrl, 'POST', '/api/v4/users', {
      token: gw.rootToken,
      body: { username, name: username[0].toUpperCase() + username.slice(1), email: `${username}@example.com`, password: 'secret-password-1' },
    });
    expect(user.status).toBe(201);
    const pat = await api(gw.baseUrl, 'POST', `/api/v4/users/${user.body.id}/personal_access_tokens`, {
      token: gw.rootToken,
      body: { name: 'e2e', scopes: ['api'] },
    });
    expect(pat.status).toBe(201);
    tokens[username] = pat.body.token;
    ids[username] = user.body.id;
    clients[username] = new Gitlab({ host: gw.baseUrl, token: pat.body.token, rateLimits: {} });
  };

  beforeAll(async () => {
    gw = await startTestGateway('protected-branches');
    clients.root = new Gitlab({ host: gw.baseUrl, token: gw.rootToken, rateLimits: {} });
    for (const name of ['owner', 'maint', 'dev', 'reporter', 'outsider', 'groupdev']) await createUser(name);
    const group = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...as('owner'), body: { name: 'Shipping', path: 'shipping', visibility: 'public' } });
    expect(group.status).toBe(201);
    ids.group = group.body.id;
    const other = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...as('outsider'), body: { name: 'Elsewhere', path: 'elsewhere' } });
    otherGroupId = other.body.id;
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...as('owner'), body: { path: 'app', namespace_id: ids.group, visibility: 'public' } });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    for (const [user, level] of [
      ['maint', 40],
      ['dev', 30],
      ['reporter', 20],
    ] as const) {
      const res = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/members`, { ...as('owner'), body: { user_id: ids[user], access_level: level } });
      expect(res.status).toBe(201);
    }
    const groupMember = await api(gw.baseUrl, 'POST', `/api/v4/groups/${ids.group}/members`, {
      ...as('owner'),
      body: { user_id: ids.groupdev, access_level: 30 },
    });
    expect(groupMember.status).toBe(201);
  });
  afterAll(() => gw.close());

  it('protects a branch with the defaults and reads it back with the client', async () => {
    const created = await clients.maint.ProtectedBranches.protect(projectId, 'main');
    expect(created).toMatchObject({
      name: 'main',
      allow_force_push: false,
      code_owner_approval_required: false,
      push_access_levels: [{ access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null, deploy_key_id: null }],
      merge_access_levels: [{ access_level: 40, access_level_description: 'Maintainers' }],
      unprotect_access_levels: [{ access_level: 40, access_level_description: 'Maintainers' }],
    });
    expect(typeof created.id).toBe('number');
    const shown = await clients.dev.ProtectedBranches.show(projectId, 'main');
    expect(shown.id).toBe(created.id);

    const events = await gw.dataSource.query(
      `SELECT payload FROM outbox_events WHERE payload->>'type' = 'protected_branch.created' AND (payload->>'project_id')::int = $1`,
      [projectId],
    );
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({ actor: ids.maint, group_id: ids.group, target: { type: 'protected_branch', id: created.id, title: 'main' } });
  });

  it('refuses to protect the same name twice with 409', async () => {
    const res = await api(gw.baseUrl, 'POST', path(), { ...as('maint'), body: { name: 'main' } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: "Protected branch 'main' already exists" });
  });

  it('accepts the role levels, wildcards and allow_force_push, addressing a wildcard by its URL-encoded name', async () => {
    const created = await api(gw.baseUrl, 'POST', path(), {
      ...as('maint'),
      body: { name: 'release/*', push_access_level: 30, merge_access_level: 0, unprotect_access_level: 60, allow_force_push: true },
    });
    expect(created.status).toBe(201);
    expect(created.body.push_access_levels).toEqual([expect.objectContaining({ access_level: 30, access_level_description: 'Developers + Maintainers' })]);
    expect(created.body.merge_access_levels).toEqual([expect.objectContaining({ access_level: 0, access_level_description: 'No one' })]);
    expect(created.body.unprotect_access_levels).toEqual([expect.objectContaining({ access_level: 60, access_level_description: 'Admins' })]);
    expect(created.body.allow_force_push).toBe(true);

    const shown = await api(gw.baseUrl, 'GET', path('/release%2F*'), as('dev'));
    expect(shown.status).toBe(200);
    expect(shown.body.name).toBe('release/*');
    // the wildcard is listed as the wildcard, never as matching branch names
    expect((await api(gw.baseUrl, 'GET', path('/release%2F1.0'), as('dev'))).status).toBe(404);
    const listed = await clients.dev.ProtectedBranches.all(projectId);
    expect(listed.map((rule) => rule.name)).toEqual(['main', 'release/*']);
    const searched = await clients.dev.ProtectedBranches.all(projectId, { search: 'eas' });
    expect(searched.map((rule) => rule.name)).toEqual(['release/*']);
  });

  it('validates the attributes with 400', async () => {
    const missing = await api(gw.baseUrl, 'POST', path(), { ...as('maint'), body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: '400 (Bad request) "name" not given' });
    const badLevel = await api(gw.baseUrl, 'POST', path(), { ...as('maint'), body: { name: 'x', push_access_level: 20 } });
    expect(badLevel.status).toBe(400);
    expect(badLevel.body).toEqual({ message: { push_access_level: ['does not have a valid value'] } });
    const twoKinds = await api(gw.baseUrl, 'POST', path(), { ...as('maint'), body: { name: 'x', allowed_to_push: [{ user_id: ids.dev, access_level: 30 }] } });
    expect(twoKinds.status).toBe(400);
    expect(twoKinds.body.message).toHaveProperty('allowed_to_push');
    expect((await api(gw.baseUrl, 'GET', path('/x'), as('maint'))).status).toBe(404);
  });

  it('lets developers read and only maintainers manage the rules', async () => {
    expect((await api(gw.baseUrl, 'GET', path(), as('reporter'))).status).toBe(403);
    expect((await api(gw.baseUrl, 'GET', path(), as('outsider'))).status).toBe(403);
    expect((await api(gw.baseUrl, 'GET', path(), {})).status).toBe(401);
    expect((await api(gw.baseUrl, 'POST', path(), { ...as('dev'), body: { name: 'dev-branch' } })).status).toBe(403);
    expect((await api(gw.baseUrl, 'DELETE', path('/main'), as('dev'))).status).toBe(403);
    await expect(clients.dev.ProtectedBranches.unprotect(projectId, 'main')).rejects.toMatchObject({ cause: { response: { status: 403 } } });
    expect((await api(gw.baseUrl, 'GET', '/api/v4/projects/999999/protected_branches', as('root'))).status).toBe(404);
  });

  it('grants users and groups (PREMIUM) after checking they have the project', async () => {
    const created = await api(gw.baseUrl, 'POST', path(), {
      ...as('maint'),
      body: {
        name: 'hotfix-*',
        allowed_to_push: [{ user_id: ids.dev }, { group_id: ids.group }],
        allowed_to_merge: [{ access_level: 40 }],
        allowed_to_unprotect: [{ user_id: ids.maint }],
        code_owner_approval_required: true,
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.push_access_levels).toEqual([
      expect.objectContaining({ access_level: null, user_id: ids.dev, group_id: null, access_level_description: 'Dev' }),
      expect.objectContaining({ access_level: null, user_id: null, group_id: ids.group, access_level_description: 'Shipping' }),
    ]);
    // no push_access_level and allowed_to_push given: no default role entry
    expect(created.body.push_access_levels).toHaveLength(2);
    expect(created.body.merge_access_levels).toEqual([expect.objectContaining({ access_level: 40 })]);
    expect(created.body.code_owner_approval_required).toBe(true);

    const outsiderUser = await api(gw.baseUrl, 'POST', path(), { ...as('maint'), body: { name: 'nope-1', allowed_to_push: [{ user_id: ids.outsider }] } });
    expect(outsiderUser.status).toBe(422);
    expect(outsiderUser.body.message).toBe('Push access levels user is not a member of the project');
    const foreignGroup = await api(gw.baseUrl, 'POST', path(), { ...as('maint'), body: { name: 'nope-2', allowed_to_merge: [{ group_id: otherGroupId }] } });
    expect(foreignGroup.status).toBe(422);
    expect(foreignGroup.body.message).toBe('Merge access levels group does not have access to the project');
    expect((await api(gw.baseUrl, 'GET', path('/nope-1'), as('maint'))).status).toBe(404);
  });

  it('computes branch permissions from the stored rules (exact, wildcard, user and group entries)', async () => {
    const service = gw.app.get(ProtectedBranchesService);
    const caller = (who: string) => ({ id: ids[who], isAdmin: false });
    // main: maintainers only
    expect(await service.permissionsFor(projectId, 'main', caller('dev'), 30)).toMatchObject({ protected: true, canPush: false, canMerge: false });
    expect(await service.permissionsFor(projectId, 'main', caller('maint'), 40)).toMatchObject({
      protected: true,
      canPush: true,
      canForcePush: false,
      canUnprotect: true,
    });
    // release/*: developers push and force-push, nobody merges, admins unprotect
    expect(await service.permissionsFor(projectId, 'release/2.0/rc', caller('dev'), 30)).toMatchObject({
      protected: true,
      canPush: true,
      canForcePush: true,
      canMerge: false,
      developersCanPush: true,
    });
    expect(await service.permissionsFor(projectId, 'release/2.0', caller('maint'), 40)).toMatchObject({ canUnprotect: false });
    expect(await service.permissionsFor(projectId, 'release/2.0', { id: 1, isAdmin: true }, 60)).toMatchObject({ canUnprotect: true, canMerge: false });
    // hotfix-*: the user entry and the group entry
    expect(await service.permissionsFor(projectId, 'hotfix-1', caller('dev'), 30)).toMatchObject({ canPush: true, canMerge: false });
    expect(await service.permissionsFor(projectId, 'hotfix-1', caller('groupdev'), 30)).toMatchObject({ canPush: true });
    expect(await service.permissionsFor(projectId, 'hotfix-1', caller('maint'), 40)).toMatchObject({ canPush: false, canMerge: true });
    // unprotected
    expect(await service.permissionsFor(projectId, 'feature/x', caller('dev'), 30)).toMatchObject({ protected: false, canPush: true, canForcePush: true });
    expect(await service.permissionsFor(projectId, 'feature/x', caller('reporter'), 20)).toMatchObject({ protected: false, canPush: false });
    const many = await service.permissionsForMany(projectId, ['main', 'release/1', 'other'], caller('dev'), 30);
    expect([...many.values()].map((p) => p.protected)).toEqual([true, true, false]);
  });

  it('edits a rule (PREMIUM): flags, added, replaced and removed entries', async () => {
    const before = await clients.maint.ProtectedBranches.show(projectId, 'main');
    const pushEntry = (before.push_access_levels as { id: number }[])[0];
    const edited = await clients.maint.ProtectedBranches.edit(projectId, 'main', {
      allowForcePush: true,
      codeOwnerApprovalRequired: true,
      allowedToPush: [{ id: pushEntry.id, _destroy: true } as never, { userId: ids.dev }],
    });
    expect(edited.allow_force_push).toBe(true);
    expect(edited.code_owner_approval_required).toBe(true);
    expect(edited.push_access_levels).toEqual([expect.objectContaining({ user_id: ids.dev, access_level: null })]);
    const service = gw.app.get(ProtectedBranchesService);
    expect(await service.permissionsFor(projectId, 'main', { id: ids.dev, isAdmin: false }, 30)).toMatchObject({ canPush: true, canForcePush: true });
    expect(await service.permissionsFor(projectId, 'main', { id: ids.maint, isAdmin: false }, 40)).toMatchObject({ canPush: false });

    const unknownEntry = await api(gw.baseUrl, 'PATCH', path('/main'), { ...as('maint'), body: { allowed_to_push: [{ id: 987654, _destroy: true }] } });
    expect(unknownEntry.status).toBe(404);
    const outsider = await api(gw.baseUrl, 'PATCH', path('/main'), { ...as('maint'), body: { allowed_to_merge: [{ user_id: ids.outsider }] } });
    expect(outsider.status).toBe(422);
    expect((await api(gw.baseUrl, 'PATCH', path('/main'), { ...as('dev'), body: { allow_force_push: false } })).status).toBe(403);
    expect((await api(gw.baseUrl, 'PATCH', path('/unknown'), { ...as('maint'), body: { allow_force_push: false } })).status).toBe(404);
  });

  it('honours the unprotect entries on removal, and removes a rule with 204', async () => {
    // release/*: only admins may unprotect
    const refused = await api(gw.baseUrl, 'DELETE', path('/release%2F*'), as('maint'));
    expect(refused.status).toBe(403);
    await clients.root.ProtectedBranches.unprotect(projectId, 'release/*');
    expect((await api(gw.baseUrl, 'GET', path('/release%2F*'), as('maint'))).status).toBe(404);
    // hotfix-*: the user entry for maint
    const removed = await api(gw.baseUrl, 'DELETE', path('/hotfix-*'), as('maint'));
    expect(removed.status).toBe(204);
    expect((await api(gw.baseUrl, 'DELETE', path('/hotfix-*'), as('maint'))).status).toBe(404);
    const destroyed = await gw.dataSource.query(
      `SELECT count(*)::int AS n FROM outbox_events WHERE payload->>'type' = 'protected_branch.destroyed' AND (payload->>'project_id')::int = $1`,
      [projectId],
    );
    expect(destroyed[0].n).toBe(2);
    expect((await clients.dev.ProtectedBranches.all(projectId)).map((rule) => rule.name)).toEqual(['main']);
  });

  it('paginates the list', async () => {
    for (const name of ['p-1', 'p-2', 'p-3']) expect((await api(gw.baseUrl, 'POST', path(), { ...as('maint'), body: { name } })).status).toBe(201);
    const page = await api(gw.baseUrl, 'GET', path('?per_page=2&page=2'), as('dev'));
    expect(page.status).toBe(200);
    expect(page.body.map((rule: { name: string }) => rule.name)).toEqual(['p-2', 'p-3']);
    expect(page.headers.get('x-total')).toBe('4');
  });

  it('protects a new default branch as default_branch_protection says (group setting, else instance setting)', async () => {
    const service = gw.app.get(ProtectedBranchesService);
    const projects = gw.app.get(ProjectsRepository);
    const load = async (id: number) => (await projects.findByRef(id))!;

    const personal = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...as('dev'), body: { path: 'scratch' } });
    expect(personal.status).toBe(201);
    expect(await service.protectDefaultBranch(gw.dataSource.manager, await load(personal.body.id), 'main')).toBe(true);
    const rule = (await api(gw.baseUrl, 'GET', `/api/v4/projects/${personal.body.id}/protected_branches/main`, as('dev'))).body;
    expect(rule.push_access_levels).toEqual([expect.objectContaining({ access_level: 40 })]);
    expect(rule.merge_access_levels).toEqual([expect.objectContaining({ access_level: 40 })]);
    expect(rule.allow_force_push).toBe(false);
    // already covered: nothing more
    expect(await service.protectDefaultBranch(gw.dataSource.manager, await load(personal.body.id), 'main')).toBe(false);

    const updated = await api(gw.baseUrl, 'PUT', `/api/v4/groups/${ids.group}`, { ...as('owner'), body: { default_branch_protection: 1 } });
    expect(updated.status).toBe(200);
    const inGroup = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...as('owner'), body: { path: 'partly', namespace_id: ids.group } });
    expect(await service.protectDefaultBranch(gw.dataSource.manager, await load(inGroup.body.id), 'trunk')).toBe(true);
    expect(await service.permissionsFor(inGroup.body.id, 'trunk', { id: ids.dev, isAdmin: false }, 30)).toMatchObject({
      protected: true,
      canPush: true,
      canMerge: false,
    });

    expect((await api(gw.baseUrl, 'PUT', `/api/v4/groups/${ids.group}`, { ...as('owner'), body: { default_branch_protection: 0 } })).status).toBe(200);
    const open = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...as('owner'), body: { path: 'open', namespace_id: ids.group } });
    expect(await service.protectDefaultBranch(gw.dataSource.manager, await load(open.body.id), 'main')).toBe(false);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${open.body.id}/protected_branches`, as('owner'))).body).toEqual([]);
  });

  it('answers concurrent creations of one name with one 201 and 409s, never a 500', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => api(gw.baseUrl, 'POST', path(), { ...as('maint'), body: { name: 'race' } })));
    expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const stored = await gw.dataSource.query('SELECT count(*)::int AS n FROM protected_branches WHERE project_id = $1 AND name = $2', [projectId, 'race']);
    expect(stored[0].n).toBe(1);
  });

  it('refuses rule changes on an archived project, still reads them', async () => {
    const archived = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...as('owner'), body: { path: 'frozen', namespace_id: ids.group } });
    expect((await api(gw.baseUrl, 'POST', `/api/v4/projects/${archived.body.id}/protected_branches`, { ...as('owner'), body: { name: 'main' } })).status).toBe(
      201,
    );
    expect((await api(gw.baseUrl, 'POST', `/api/v4/projects/${archived.body.id}/archive`, as('owner'))).status).toBe(201);
    expect((await api(gw.baseUrl, 'POST', `/api/v4/projects/${archived.body.id}/protected_branches`, { ...as('owner'), body: { name: 'other' } })).status).toBe(
      403,
    );
    expect((await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${archived.body.id}/protected_branches/main`, as('owner'))).status).toBe(403);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${archived.body.id}/protected_branches/main`, as('owner'))).status).toBe(200);
  });
});
