import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

/** Groups, projects and members over HTTP: GitLab shapes, permission answers and outbox rows. */
describe('Groups, projects and members', () => {
  let gw: TestGateway;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  const as = (who: string) => ({ token: who === 'root' ? gw.rootToken : tokens[who] });

  const createUser = async (username: string, extra: Record<string, unknown> = {}) => {
    const user = await createUserWithToken(gw, username, { attributes: { name: username[0].toUpperCase() + username.slice(1), ...extra } });
    tokens[username] = user.token;
    ids[username] = user.id;
  };

  const eventTypes = async (predicate: string, params: unknown[]) =>
    ((await gw.dataSource.query(`SELECT payload->>'type' AS type FROM outbox_events WHERE ${predicate} ORDER BY seq`, params)) as { type: string }[]).map(
      (r) => r.type,
    );

  beforeAll(async () => {
    gw = await startTestGateway('namespaces');
    await createUser('olivia');
    await createUser('mike');
    await createUser('dana');
    await createUser('rita');
    await createUser('xavier', { external: true });
  });
  afterAll(() => gw.close());

  describe('groups', () => {
    it('creates a group (201, GroupDetail) and refuses a taken path in the validation shape', async () => {
      const created = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...as('olivia'), body: { name: 'Ops Team', path: 'ops', description: 'on call' } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'Ops Team',
        path: 'ops',
        full_path: 'ops',
        full_name: 'Ops Team',
        description: 'on call',
        visibility: 'private',
        parent_id: null,
        web_url: `${gw.config.http.externalUrl}/groups/ops`,
        subgroup_creation_level: 'maintainer',
        project_creation_level: 'developer',
        projects: [],
        shared_projects: [],
      });
      ids.ops = created.body.id;

      const taken = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...as('mike'), body: { name: 'Other', path: 'OPS' } });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ message: { path: ['has already been taken'] } });
      const missing = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...as('mike'), body: { path: 'no-name' } });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ message: '400 (Bad request) "name" not given' });
    });

    it('adds members (owners only), then a subgroup by a maintainer; refuses a subgroup more visible than its parent', async () => {
      const byMaintainer = await api(gw.baseUrl, 'POST', `/api/v4/groups/${ids.ops}/members`, {
        ...as('olivia'),
        body: { user_id: ids.mike, access_level: 40 },
      });
      expect(byMaintainer.status).toBe(201);
      expect(byMaintainer.body).toMatchObject({
        id: ids.mike,
        username: 'mike',
        access_level: 40,
        expires_at: null,
        membership_state: 'active',
        created_by: { id: ids.olivia, username: 'olivia' },
      });
      const notOwner = await api(gw.baseUrl, 'POST', `/api/v4/groups/${ids.ops}/members`, { ...as('mike'), body: { user_id: ids.dana, access_level: 30 } });
      expect(notOwner.status).toBe(403);
      expect(
        (await api(gw.baseUrl, 'POST', `/api/v4/groups/${ids.ops}/members`, { ...as('olivia'), body: { user_id: ids.dana, access_level: 30 } })).status,
      ).toBe(201);

      const sub = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...as('mike'), body: { name: 'Pager', path: 'pager', parent_id: ids.ops } });
      expect(sub.status).toBe(201);
      expect(sub.body).toMatchObject({ full_path: 'ops/pager', full_name: 'Ops Team / Pager', parent_id: ids.ops });
      ids.pager = sub.body.id;
      const loud = await api(gw.baseUrl, 'POST', '/api/v4/groups', {
        ...as('olivia'),
        body: { name: 'Loud', path: 'loud', parent_id: ids.ops, visibility: 'public' },
      });
      expect(loud.status).toBe(400);
      expect(loud.body).toEqual({ message: { visibility_level: ['public is not allowed since the parent group has a private visibility.'] } });
    });

    it('reads a group by id or encoded path; hides a private group from outsiders with 404', async () => {
      const byPath = await api(gw.baseUrl, 'GET', '/api/v4/groups/ops%2Fpager', as('dana'));
      expect(byPath.status).toBe(200);
      expect(byPath.body).toMatchObject({ id: ids.pager, full_path: 'ops/pager', projects: [] });
      const hidden = await api(gw.baseUrl, 'GET', `/api/v4/groups/${ids.ops}`, as('rita'));
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual({ message: '404 Group Not Found' });
      expect((await api(gw.baseUrl, 'GET', `/api/v4/groups/${ids.ops}`)).status).toBe(404);
    });

    it('lists groups: members see theirs, all_available adds the public ones, anonymous callers see public ones', async () => {
      const open = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...as('rita'), body: { name: 'Open', path: 'open', visibility: 'public' } });
      expect(open.status).toBe(201);
      const mine = await api(gw.baseUrl, 'GET', '/api/v4/groups', as('dana'));
      expect(mine.status).toBe(200);
      expect(mine.body.map((g: { full_path: string }) => g.full_path)).toEqual(['ops', 'ops/pager']);
      expect(mine.headers.get('x-total')).toBe('2');
      const all = await api(gw.baseUrl, 'GET', '/api/v4/groups?all_available=true&order_by=path&sort=desc', as('dana'));
      expect(all.body.map((g: { full_path: string }) => g.full_path)).toEqual(['open', 'ops', 'ops/pager'].sort().reverse());
      const anonymous = await api(gw.baseUrl, 'GET', '/api/v4/groups');
      expect(anonymous.body.map((g: { full_path: string }) => g.full_path)).toEqual(['open']);
      const subgroups = await api(gw.baseUrl, 'GET', `/api/v4/groups/${ids.ops}/subgroups`, as('dana'));
      expect(subgroups.body.map((g: { id: number }) => g.id)).toEqual([ids.pager]);
    });

    it('lets only owners edit a group; a path change renames the subgroups', async () => {
      expect((await api(gw.baseUrl, 'PUT', `/api/v4/groups/${ids.ops}`, { ...as('mike'), body: { description: 'x' } })).status).toBe(403);
      const renamed = await api(gw.baseUrl, 'PUT', `/api/v4/groups/${ids.ops}`, {
        ...as('olivia'),
        body: { path: 'operations', request_access_enabled: false },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ path: 'operations', full_path: 'operations', request_access_enabled: false });
      const sub = await api(gw.baseUrl, 'GET', `/api/v4/groups/${ids.pager}`, as('olivia'));
      expect(sub.body.full_path).toBe('operations/pager');
      await expect(eventTypes("payload->>'group_id' = $1", [String(ids.ops)])).resolves.toEqual(
        expect.arrayContaining(['group_create', 'user_add_to_group', 'group_update', 'group_rename']),
      );
    });
  });

  describe('projects', () => {
    it('creates a project in a group as a developer: 201, full view, runners token once; duplicates answer 400', async () => {
      const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', {
        ...as('dana'),
        body: { name: 'Alert Router', namespace_id: 'operations', description: 'routes alerts', topics: ['ops'], issues_enabled: false },
      });
      expect(created.status).toBe(201);
      const base = gw.config.http.externalUrl;
      const host = new URL(base).hostname;
      expect(created.body).toMatchObject({
        name: 'Alert Router',
        path: 'alert-router',
        path_with_namespace: 'operations/alert-router',
        name_with_namespace: 'Ops Team / Alert Router',
        visibility: 'private',
        web_url: `${base}/operations/alert-router`,
        http_url_to_repo: `${base}/operations/alert-router.git`,
        ssh_url_to_repo: `git@${host}:operations/alert-router.git`,
        readme_url: null,
        topics: ['ops'],
        tag_list: ['ops'],
        issues_enabled: false,
        issues_access_level: 'disabled',
        merge_requests_enabled: true,
        creator_id: ids.dana,
        namespace: { id: ids.ops, kind: 'group', full_path: 'operations' },
        _links: { self: `${base}/api/v4/projects/${created.body.id}`, members: `${base}/api/v4/projects/${created.body.id}/members` },
      });
      expect(created.body.runners_token).toMatch(/^GR1348941/);
      expect(created.body).not.toHaveProperty('owner');
      ids.router = created.body.id;

      const read = await api(gw.baseUrl, 'GET', '/api/v4/projects/operations%2Falert-router', as('dana'));
      expect(read.status).toBe(200);
      expect(read.body.id).toBe(ids.router);
      // GitLab shows the runners token to maintainers and administrators, not to other members.
      expect(read.body.runners_token).toBe(created.body.runners_token);
      expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.router}`, { token: gw.rootToken })).body.runners_token).toBe(created.body.runners_token);
      await createUser('devon');
      expect(
        (await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.router}/members`, { ...as('dana'), body: { user_id: ids.devon, access_level: 30 } })).status,
      ).toBe(201);
      const asDeveloper = await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.router}`, as('devon'));
      expect(asDeveloper.status).toBe(200);
      expect(asDeveloper.body).not.toHaveProperty('runners_token');
      expect((await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${ids.router}/members/${ids.devon}`, as('dana'))).status).toBe(204);
      expect(read.body.permissions).toEqual({
        project_access: { access_level: 40, notification_level: 3 },
        group_access: { access_level: 30, notification_level: 3 },
      });

      const dup = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...as('dana'), body: { name: 'alert router', namespace_id: ids.ops } });
      expect(dup.status).toBe(400);
      expect(dup.body).toEqual({ message: { name: ['has already been taken'], path: ['has already been taken'] } });
      const neither = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...as('dana'), body: { description: 'x' } });
      expect(neither.status).toBe(400);
      expect(neither.body).toEqual({ error: 'name, path are missing, at least one parameter must be provided' });
      const notAllowed = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...as('rita'), body: { name: 'Sneaky', namespace_id: ids.ops } });
      expect(notAllowed.status).toBe(400);
      expect(notAllowed.body).toEqual({ message: { namespace: ['is not valid'] } });
    });

    it('creates personal projects with an owner, shows the simple view to anonymous callers and statistics to reporters', async () => {
      const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...as('rita'), body: { path: 'status-page', visibility: 'public' } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'status-page',
        path_with_namespace: 'rita/status-page',
        owner: { id: ids.rita, name: 'Rita' },
        namespace: { kind: 'user', full_path: 'rita' },
      });
      ids.status = created.body.id;

      const anonymous = await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.status}`);
      expect(anonymous.status).toBe(200);
      expect(anonymous.body).toMatchObject({ id: ids.status, path_with_namespace: 'rita/status-page' });
      expect(anonymous.body).not.toHaveProperty('visibility');
      expect(anonymous.body).not.toHaveProperty('permissions');

      const withStats = await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.status}?statistics=true`, as('rita'));
      expect(withStats.body.statistics).toMatchObject({ commit_count: 0, repository_size: 0 });
      const outsider = await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.status}?statistics=true`, as('mike'));
      expect(outsider.body).not.toHaveProperty('statistics');
      expect(outsider.body.permissions).toEqual({ project_access: null, group_access: null });
    });

    it('hides private projects (404) and lists what each caller may see', async () => {
      const hidden = await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.router}`, as('rita'));
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual({ message: '404 Project Not Found' });
      const anonymous = await api(gw.baseUrl, 'GET', '/api/v4/projects');
      expect(anonymous.body.map((p: { id: number }) => p.id)).toEqual([ids.status]);
      expect(anonymous.body[0]).not.toHaveProperty('visibility');
      const dana = await api(gw.baseUrl, 'GET', '/api/v4/projects?membership=true', as('dana'));
      expect(dana.body.map((p: { id: number }) => p.id)).toEqual([ids.router]);
      expect(dana.body[0].permissions.project_access.access_level).toBe(40);
      const simple = await api(gw.baseUrl, 'GET', '/api/v4/projects?simple=true&search=status', as('dana'));
      expect(simple.body.map((p: { id: number }) => p.id)).toEqual([ids.status]);
      expect(simple.body[0]).not.toHaveProperty('permissions');
      expect((await api(gw.baseUrl, 'GET', '/api/v4/projects?simple=true', as('xavier'))).body.map((p: { id: number }) => p.id)).toEqual([ids.status]);

      const first = await api(gw.baseUrl, 'GET', '/api/v4/projects?pagination=keyset&order_by=id&sort=asc&per_page=1', as('root'));
      expect(first.status).toBe(200);
      expect(first.body.map((p: { id: number }) => p.id)).toEqual([ids.router]);
      const next = first.headers.get('link')?.match(/<([^>]+)>; rel="next"/)?.[1];
      expect(next).toContain(`id_after=${ids.router}`);
      const second = await api(gw.baseUrl, 'GET', next!.slice(gw.baseUrl.length), as('root'));
      expect(second.body.map((p: { id: number }) => p.id)).toEqual([ids.status]);
      expect((await api(gw.baseUrl, 'GET', '/api/v4/projects?pagination=keyset&order_by=name', as('root'))).status).toBe(405);
    });

    it('edits a project: maintainers change settings and path, renaming needs Owner', async () => {
      const edited = await api(gw.baseUrl, 'PUT', `/api/v4/projects/${ids.router}`, {
        ...as('dana'),
        body: { path: 'router', merge_method: 'ff', remove_source_branch_after_merge: false },
      });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({
        path: 'router',
        path_with_namespace: 'operations/router',
        merge_method: 'ff',
        remove_source_branch_after_merge: false,
      });
      const rename = await api(gw.baseUrl, 'PUT', `/api/v4/projects/${ids.router}`, { ...as('dana'), body: { name: 'Router' } });
      expect(rename.status).toBe(403);
      expect((await api(gw.baseUrl, 'PUT', `/api/v4/projects/${ids.router}`, { ...as('olivia'), body: { name: 'Router' } })).body.name).toBe('Router');
      await expect(eventTypes("payload->>'project_id' = $1 AND payload->>'type' LIKE 'project_%'", [String(ids.router)])).resolves.toEqual([
        'project_create',
        'project_rename',
        'project_update',
        'project_update',
      ]);
    });
  });

  describe('project members', () => {
    it('adds, lists (paginated), reads, updates and removes members with GitLab answers', async () => {
      const path = `/api/v4/projects/${ids.router}/members`;
      const added = await api(gw.baseUrl, 'POST', path, { ...as('dana'), body: { user_id: ids.rita, access_level: 20, expires_at: '2099-12-31' } });
      expect(added.status).toBe(201);
      expect(added.body).toMatchObject({ id: ids.rita, username: 'rita', access_level: 20, expires_at: '2099-12-31', created_by: { id: ids.dana } });
      const again = await api(gw.baseUrl, 'POST', path, { ...as('dana'), body: { user_id: ids.rita, access_level: 30 } });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ message: 'Member already exists' });
      const owner = await api(gw.baseUrl, 'POST', path, { ...as('dana'), body: { user_id: ids.xavier, access_level: 50 } });
      expect(owner.status).toBe(403);
      const byReporter = await api(gw.baseUrl, 'POST', path, { ...as('rita'), body: { user_id: ids.xavier, access_level: 10 } });
      expect(byReporter.status).toBe(403);
      const missing = await api(gw.baseUrl, 'POST', path, { ...as('dana'), body: { user_id: ids.xavier } });
      expect(missing.body).toEqual({ message: '400 (Bad request) "access_level" not given' });

      const page = await api(gw.baseUrl, 'GET', `${path}?per_page=1`, as('rita'));
      expect(page.status).toBe(200);
      expect(page.body.map((m: { username: string }) => m.username)).toEqual(['dana']);
      expect(page.headers.get('x-total')).toBe('2');
      expect(page.headers.get('link')).toContain('rel="next"');
      const all = await api(gw.baseUrl, 'GET', `${path}/all`, as('rita'));
      expect(new Map(all.body.map((m: { username: string; access_level: number }) => [m.username, m.access_level]))).toEqual(
        new Map([
          ['olivia', 50],
          ['mike', 40],
          ['dana', 40],
          ['rita', 20],
        ]),
      );
      expect((await api(gw.baseUrl, 'GET', `${path}/all/${ids.olivia}`, as('rita'))).body.access_level).toBe(50);
      const notDirect = await api(gw.baseUrl, 'GET', `${path}/${ids.olivia}`, as('rita'));
      expect(notDirect.status).toBe(404);
      expect(notDirect.body).toEqual({ message: '404 Member Not Found' });

      const updated = await api(gw.baseUrl, 'PUT', `${path}/${ids.rita}`, { ...as('dana'), body: { access_level: 30, expires_at: '' } });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ access_level: 30, expires_at: null });
      const removed = await api(gw.baseUrl, 'DELETE', `${path}/${ids.rita}`, as('dana'));
      expect(removed.status).toBe(204);
      expect(removed.text).toBe('');
      await expect(eventTypes("payload->>'project_id' = $1 AND payload->'data'->>'user_id' = $2", [String(ids.router), String(ids.rita)])).resolves.toEqual([
        'user_add_to_team',
        'user_update_for_team',
        'user_remove_from_team',
      ]);
    });
  });

  describe('deletion', () => {
    it('deletes a project (owners) with 202 and then answers 404', async () => {
      expect((await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${ids.router}`, as('dana'))).status).toBe(403);
      const deleted = await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${ids.status}`, as('rita'));
      expect(deleted.status).toBe(202);
      expect(deleted.body).toEqual({ message: '202 Accepted' });
      expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.status}`, as('rita'))).status).toBe(404);
      await expect(eventTypes("payload->>'project_id' = $1 AND payload->>'type' = 'project_destroy'", [String(ids.status)])).resolves.toEqual([
        'project_destroy',
      ]);
    });

    it('deletes a group with its subgroups and projects (owners) with 202', async () => {
      const deleted = await api(gw.baseUrl, 'DELETE', `/api/v4/groups/${ids.ops}`, as('olivia'));
      expect(deleted.status).toBe(202);
      expect(deleted.body).toEqual({ message: '202 Accepted' });
      expect((await api(gw.baseUrl, 'GET', `/api/v4/groups/${ids.pager}`, as('root'))).status).toBe(404);
      expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.router}`, as('root'))).status).toBe(404);
      await expect(
        eventTypes("payload->>'type' IN ('group_destroy', 'project_destroy') AND (payload->>'group_id' = $1 OR payload->>'group_id' = $2)", [
          String(ids.ops),
          String(ids.pager),
        ]),
      ).resolves.toEqual(['project_destroy', 'group_destroy', 'group_destroy']);
    });
  });
});

describe('Project view on the free tier', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway('namespaces_free', { SERVICE_TIER: 'free' });
  });
  afterAll(() => gw.close());

  it('leaves out the PREMIUM keys', async () => {
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: gw.rootToken, body: { name: 'Free', approvals_before_merge: 3 } });
    expect(created.status).toBe(201);
    const read = await api(gw.baseUrl, 'GET', `/api/v4/projects/${created.body.id}`, { token: gw.rootToken });
    expect(read.body).not.toHaveProperty('approvals_before_merge');
    expect(read.body).not.toHaveProperty('marked_for_deletion_on');
    expect(read.body).not.toHaveProperty('mirror');
    expect(read.body.merge_method).toBe('merge');
  });
});
