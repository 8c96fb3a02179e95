import { Gitlab } from '@gitbeaker/rest';
import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

type Client = InstanceType<typeof Gitlab>;
type Row = { id: number; [key: string]: unknown };

/** Project lists (every filter and order), user project lists, stars, topics, statistics and archiving over HTTP. */
describe('Project lists, stars and archive', () => {
  let gw: TestGateway;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const clients: Record<string, Client> = {};

  const as = (who: string) => ({ token: who === 'root' ? gw.rootToken : tokens[who] });
  const idsOf = (rows: Row[]) => rows.map((row) => row.id);
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const get = async (who: string | null, path: string) => {
    const res = await api(gw.baseUrl, 'GET', path, who ? as(who) : {});
    expect(res.status).toBe(200);
    return res.body as Row[];
  };

  const createUser = async (username: string, extra: Record<string, unknown> = {}) => {
    const user = await createUserWithToken(gw, username, { attributes: { name: username[0].toUpperCase() + username.slice(1), ...extra } });
    tokens[username] = user.token;
    ids[username] = user.id;
    clients[username] = new Gitlab({ host: gw.baseUrl, token: user.token, rateLimits: {} });
  };

  const createProject = async (who: string, key: string, body: Record<string, unknown>) => {
    const res = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...as(who), body });
    expect(res.status).toBe(201);
    ids[key] = res.body.id;
    return res.body;
  };

  beforeAll(async () => {
    gw = await startTestGateway('project-lists');
    clients.root = new Gitlab({ host: gw.baseUrl, token: gw.rootToken, rateLimits: {} });
    for (const name of ['alice', 'bob', 'carol', 'dave', 'erin']) await createUser(name, name === 'dave' ? { private_profile: true } : {});

    const group = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...as('alice'), body: { name: 'Listing', path: 'listing', visibility: 'public' } });
    expect(group.status).toBe(201);
    ids.group = group.body.id;

    await createProject('alice', 'alpha', { path: 'alpha-router', description: 'routes alerts', visibility: 'public', topics: ['ops', 'Alerting'] });
    await createProject('alice', 'beta', { path: 'beta-pager', visibility: 'internal', topics: ['ops'] });
    await createProject('alice', 'gamma', { path: 'gamma-secret', namespace_id: ids.group, visibility: 'private' });
    await createProject('alice', 'delta', {
      path: 'delta',
      namespace_id: ids.group,
      visibility: 'public',
      issues_enabled: false,
      merge_requests_enabled: false,
    });
    await createProject('alice', 'alphaish', { path: 'alpha', namespace_id: ids.group, visibility: 'public', description: 'an alpha-router clone' });
    await createProject('dave', 'daveProject', { path: 'dave-tools', visibility: 'public' });
    // bob: developer on gamma, reporter on beta (through the project)
    for (const [project, user, level] of [
      ['gamma', 'bob', 30],
      ['beta', 'bob', 20],
    ] as const) {
      const res = await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids[project]}/members`, {
        ...as('alice'),
        body: { user_id: ids[user], access_level: level },
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => gw.close());

  describe('visibility', () => {
    it('anonymous callers get public projects in the simple view', async () => {
      const rows = await get(null, '/api/v4/projects?order_by=id&sort=asc');
      expect(idsOf(rows)).toEqual([ids.alpha, ids.delta, ids.alphaish, ids.daveProject]);
      expect(rows[0]).toMatchObject({
        id: ids.alpha,
        path_with_namespace: 'alice/alpha-router',
        topics: ['ops', 'Alerting'],
        tag_list: ['ops', 'Alerting'],
        star_count: 0,
      });
      for (const key of ['visibility', 'permissions', 'archived', '_links', 'owner']) expect(rows[0]).not.toHaveProperty(key);
    });

    it('an outsider also sees internal projects; a member sees the private one; an administrator sees all', async () => {
      expect(sorted(idsOf((await clients.carol.Projects.all({ orderBy: 'id', sort: 'asc' })) as Row[]))).toEqual(
        sorted([ids.alpha, ids.beta, ids.delta, ids.alphaish, ids.daveProject]),
      );
      expect(idsOf(await get('bob', '/api/v4/projects?order_by=id&sort=asc'))).toEqual([
        ids.alpha,
        ids.beta,
        ids.gamma,
        ids.delta,
        ids.alphaish,
        ids.daveProject,
      ]);
      expect((await get('root', '/api/v4/projects')).length).toBe(6);
      const hidden = await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.gamma}`, as('carol'));
      expect(hidden.status).toBe(404);
    });

    it('the full view carries permissions, namespace, _links, and PREMIUM keys only on PREMIUM tiers', async () => {
      const [gamma] = (await get('bob', '/api/v4/projects?membership=true&visibility=private')) as Row[];
      expect(gamma).toMatchObject({
        id: ids.gamma,
        visibility: 'private',
        archived: false,
        namespace: { id: ids.group, path: 'listing', kind: 'group', full_path: 'listing' },
        permissions: { project_access: { access_level: 30, notification_level: 3 }, group_access: null },
        _links: {
          self: `${gw.config.http.externalUrl}/api/v4/projects/${ids.gamma}`,
          repo_branches: `${gw.config.http.externalUrl}/api/v4/projects/${ids.gamma}/repository/branches`,
        },
      });
      expect(gamma).not.toHaveProperty('statistics');
      // PREMIUM keys follow the instance tier
      const premium = gw.config.tier !== 'free';
      for (const key of ['approvals_before_merge', 'marked_for_deletion_on', 'mirror', 'service_desk_enabled']) expect(key in gamma).toBe(premium);
      const simple = await get('bob', '/api/v4/projects?simple=true&membership=true');
      expect(simple.every((row) => !('permissions' in row) && !('visibility' in row))).toBe(true);
    });
  });

  describe('filters', () => {
    it('narrows by visibility, search, search_namespaces, owned, membership and min_access_level (gitbeaker)', async () => {
      const bob = clients.bob;
      expect(idsOf((await bob.Projects.all({ visibility: 'internal' })) as Row[])).toEqual([ids.beta]);
      expect(sorted(idsOf((await bob.Projects.all({ search: 'alpha' })) as Row[]))).toEqual(sorted([ids.alpha, ids.alphaish]));
      // matches the description too
      expect(idsOf((await bob.Projects.all({ search: 'clone' })) as Row[])).toEqual([ids.alphaish]);
      expect(idsOf((await bob.Projects.all({ search: 'listing' })) as Row[])).toEqual([]);
      expect(sorted(idsOf((await bob.Projects.all({ search: 'listing', searchNamespaces: true })) as Row[]))).toEqual(
        sorted([ids.gamma, ids.delta, ids.alphaish]),
      );
      expect(sorted(idsOf((await bob.Projects.all({ membership: true })) as Row[]))).toEqual(sorted([ids.beta, ids.gamma]));
      expect(idsOf((await bob.Projects.all({ minAccessLevel: 30 })) as Row[])).toEqual([ids.gamma]);
      expect(idsOf((await bob.Projects.all({ owned: true })) as Row[])).toEqual([]);
      expect(sorted(idsOf((await clients.alice.Projects.all({ owned: true })) as Row[]))).toEqual(
        sorted([ids.alpha, ids.beta, ids.gamma, ids.delta, ids.alphaish]),
      );
      const bad = await api(gw.baseUrl, 'GET', '/api/v4/projects?min_access_level=33', as('bob'));
      expect(bad.status).toBe(400);
      expect(bad.body.error ?? bad.body.message).toBeDefined();
    });

    it('narrows by features, ids, activity dates and imported', async () => {
      const withIssues = idsOf(await get('bob', '/api/v4/projects?with_issues_enabled=true'));
      expect(withIssues).not.toContain(ids.delta);
      expect(withIssues).toContain(ids.alpha);
      expect(idsOf(await get('bob', '/api/v4/projects?with_merge_requests_enabled=true'))).not.toContain(ids.delta);
      expect(idsOf(await get('bob', `/api/v4/projects?id_after=${ids.delta}&order_by=id&sort=asc`))).toEqual([ids.alphaish, ids.daveProject]);
      expect(idsOf(await get('bob', `/api/v4/projects?id_before=${ids.beta}`))).toEqual([ids.alpha]);
      expect(idsOf(await get('bob', `/api/v4/projects?id_after=${ids.alpha}&id_before=${ids.gamma}`))).toEqual([ids.beta]);

      await gw.dataSource.query(`UPDATE projects SET last_activity_at = '2020-01-01T00:00:00Z' WHERE id = $1`, [ids.delta]);
      expect(idsOf(await get('bob', '/api/v4/projects?last_activity_before=2021-01-01T00:00:00Z'))).toEqual([ids.delta]);
      expect(idsOf(await get('bob', '/api/v4/projects?last_activity_after=2021-01-01T00:00:00Z'))).not.toContain(ids.delta);
      expect((await api(gw.baseUrl, 'GET', '/api/v4/projects?last_activity_after=yesterday', as('bob'))).status).toBe(400);

      expect(await get('alice', '/api/v4/projects?imported=true')).toEqual([]);
      expect((await get('alice', '/api/v4/projects?imported=false')).length).toBe(6);
    });

    it('narrows by topic (all of a comma-separated list, case-insensitive) and topic_id; GET /topics lists them', async () => {
      expect(sorted(idsOf(await get('carol', '/api/v4/projects?topic=ops')))).toEqual(sorted([ids.alpha, ids.beta]));
      expect(idsOf(await get('carol', '/api/v4/projects?topic=OPS,alerting'))).toEqual([ids.alpha]);
      expect(idsOf(await get('carol', '/api/v4/projects?topic=ops,nothing'))).toEqual([]);

      const topics = await clients.carol.Topics.all({ search: 'ops' });
      expect(topics.map((t) => t.name)).toEqual(['ops']);
      expect(topics[0]).toMatchObject({ title: 'ops', total_projects_count: 2 });
      expect(sorted(idsOf(await get('carol', `/api/v4/projects?topic_id=${topics[0].id}`)))).toEqual(sorted([ids.alpha, ids.beta]));
      const alerting = (await get(null, '/api/v4/topics?search=alert'))[0];
      expect(alerting).toMatchObject({ name: 'Alerting', total_projects_count: 1 });
      expect((await api(gw.baseUrl, 'GET', `/api/v4/topics/${alerting.id}`)).body.name).toBe('Alerting');
      expect((await api(gw.baseUrl, 'GET', '/api/v4/topics/999999')).status).toBe(404);
      expect(await get('carol', '/api/v4/projects?topic_id=999999')).toEqual([]);

      // a topic added by an update becomes a topic too
      const edited = await clients.alice.Projects.edit(ids.delta, { topics: ['ops', 'Databases'] });
      expect(edited.topics).toEqual(['ops', 'Databases']);
      const databases = (await get(null, '/api/v4/topics?search=datab'))[0];
      expect(idsOf(await get('carol', `/api/v4/projects?topic_id=${databases.id}`))).toEqual([ids.delta]);
      expect(idsOf(await get(null, '/api/v4/topics')).length).toBe(3);
    });

    it('narrows by programming language (case-insensitive) from project_languages', async () => {
      await gw.dataSource.query(`INSERT INTO project_languages (project_id, commit_sha, languages) VALUES ($1, $2, $3), ($4, $2, $5)`, [
        ids.alpha,
        'a'.repeat(40),
        JSON.stringify({ TypeScript: 80.5, Shell: 19.5 }),
        ids.gamma,
        JSON.stringify({ Go: 100 }),
      ]);
      expect(idsOf(await get('carol', '/api/v4/projects?with_programming_language=typescript'))).toEqual([ids.alpha]);
      expect(idsOf(await get('carol', '/api/v4/projects?with_programming_language=Shell'))).toEqual([ids.alpha]);
      expect(idsOf((await clients.bob.Projects.all({ withProgrammingLanguage: 'GO' })) as Row[])).toEqual([ids.gamma]);
      // a private project's language does not leak to outsiders
      expect(await get('carol', '/api/v4/projects?with_programming_language=go')).toEqual([]);
      expect(await get('carol', '/api/v4/projects?with_programming_language=Type')).toEqual([]);
    });

    it('repository_storage and custom_attributes filter for administrators only', async () => {
      expect((await get('root', '/api/v4/projects?repository_storage=default')).length).toBe(6);
      expect(await get('root', '/api/v4/projects?repository_storage=elsewhere')).toEqual([]);
      // ignored for others
      expect((await get('carol', '/api/v4/projects?repository_storage=elsewhere')).length).toBe(5);

      const set = await api(gw.baseUrl, 'PUT', `/api/v4/projects/${ids.beta}/custom_attributes/tier`, { ...as('root'), body: { value: 'gold' } });
      expect(set.status).toBe(200);
      expect(idsOf(await get('root', '/api/v4/projects?custom_attributes[tier]=gold'))).toEqual([ids.beta]);
      expect(await get('root', '/api/v4/projects?custom_attributes[tier]=silver')).toEqual([]);
      expect((await get('carol', '/api/v4/projects?custom_attributes[tier]=silver')).length).toBe(5);
      const withAttributes = await get('root', `/api/v4/projects?with_custom_attributes=true&id_after=${ids.alpha}&id_before=${ids.gamma}`);
      expect(withAttributes[0].custom_attributes).toEqual([{ key: 'tier', value: 'gold' }]);
      expect((await get('carol', '/api/v4/projects?with_custom_attributes=true'))[0]).not.toHaveProperty('custom_attributes');
    });
  });

  describe('orders and statistics', () => {
    beforeAll(async () => {
      const stats = [
        [ids.alpha, 300, 10],
        [ids.beta, 100, 50],
        [ids.gamma, 200, 0],
      ];
      for (const [projectId, repositorySize, wikiSize] of stats) {
        await gw.dataSource.query(`INSERT INTO project_statistics (project_id, repository_size, wiki_size, commit_count) VALUES ($1, $2, $3, 7)`, [
          projectId,
          repositorySize,
          wikiSize,
        ]);
      }
    });

    it('orders by name, path, id, created_at, updated_at and last_activity_at in both directions', async () => {
      const names = (await get('root', '/api/v4/projects?order_by=name&sort=asc')).map((p) => p.name as string);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
      const paths = (await get('root', '/api/v4/projects?order_by=path&sort=desc')).map((p) => p.path);
      expect(paths).toEqual(['gamma-secret', 'delta', 'dave-tools', 'beta-pager', 'alpha-router', 'alpha']);
      const projectIds = [ids.alpha, ids.beta, ids.gamma, ids.delta, ids.alphaish, ids.daveProject];
      expect(idsOf(await get('root', '/api/v4/projects?order_by=id&sort=desc'))).toEqual(sorted(projectIds).reverse());
      // default: created_at desc
      expect(idsOf(await get('root', '/api/v4/projects'))[0]).toBe(ids.daveProject);
      expect(idsOf(await get('root', '/api/v4/projects?order_by=created_at&sort=asc'))[0]).toBe(ids.alpha);
      // delta was updated last (topics), which also counted as activity
      expect(idsOf(await get('root', '/api/v4/projects?order_by=updated_at'))[0]).toBe(ids.delta);
      expect(idsOf(await get('root', '/api/v4/projects?order_by=last_activity_at'))[0]).toBe(ids.delta);
      await gw.dataSource.query(`UPDATE projects SET last_activity_at = '2019-01-01T00:00:00Z' WHERE id = $1`, [ids.beta]);
      expect(idsOf(await get('root', '/api/v4/projects?order_by=last_activity_at&sort=asc'))[0]).toBe(ids.beta);
      expect((await api(gw.baseUrl, 'GET', '/api/v4/projects?order_by=stars', as('root'))).status).toBe(400);
    });

    it('size orders are for administrators; others get the default order', async () => {
      expect(idsOf(await get('root', '/api/v4/projects?order_by=repository_size')).slice(0, 3)).toEqual([ids.alpha, ids.gamma, ids.beta]);
      expect(idsOf(await get('root', '/api/v4/projects?order_by=wiki_size')).slice(0, 2)).toEqual([ids.beta, ids.alpha]);
      // storage_size is the sum of the sizes: beta 150, alpha 310, gamma 200
      expect(idsOf(await get('root', '/api/v4/projects?order_by=storage_size')).slice(0, 3)).toEqual([ids.alpha, ids.gamma, ids.beta]);
      expect(idsOf(await get('root', '/api/v4/projects?order_by=storage_size&sort=asc')).slice(-3)).toEqual([ids.beta, ids.gamma, ids.alpha]);
      expect(idsOf(await get('root', '/api/v4/projects?order_by=packages_size')).length).toBe(6);
      expect(idsOf(await get('bob', '/api/v4/projects?order_by=repository_size'))).toEqual(idsOf(await get('bob', '/api/v4/projects')));
    });

    it('similarity ranks the caller’s own projects by closeness to the search term', async () => {
      const rows = await clients.alice.Projects.all({ search: 'alpha-router', orderBy: 'similarity', sort: 'desc' });
      expect(idsOf(rows as Row[])).toEqual([ids.alpha, ids.alphaish]);
      const rows2 = await get('alice', '/api/v4/projects?search=alpha&order_by=similarity&sort=asc');
      expect(idsOf(rows2)).toEqual([ids.alphaish, ids.alpha]);
      // not a member of alice's projects: nothing to rank
      expect(await get('carol', '/api/v4/projects?search=alpha&order_by=similarity')).toEqual([]);
      // without search: the default order
      expect(idsOf(await get('alice', '/api/v4/projects?order_by=similarity'))).toEqual(idsOf(await get('alice', '/api/v4/projects')));
    });

    it('shows statistics on request to reporters and above', async () => {
      const rows = await get('bob', '/api/v4/projects?statistics=true&order_by=id&sort=asc');
      const byId = new Map(rows.map((row) => [row.id, row]));
      expect(byId.get(ids.gamma)!.statistics).toEqual({
        commit_count: 7,
        storage_size: 200,
        repository_size: 200,
        wiki_size: 0,
        lfs_objects_size: 0,
        job_artifacts_size: 0,
        pipeline_artifacts_size: 0,
        packages_size: 0,
        snippets_size: 0,
        uploads_size: 0,
        container_registry_size: 0,
      });
      expect((byId.get(ids.beta)!.statistics as Record<string, number>).storage_size).toBe(150);
      expect(byId.get(ids.alpha)).not.toHaveProperty('statistics');
      const single = await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.alpha}?statistics=true`, as('alice'));
      expect(single.body.statistics).toMatchObject({ repository_size: 300, wiki_size: 10, storage_size: 310 });
    });
  });

  describe('GET /users/:user_id/projects', () => {
    it('lists only the personal namespace, by id or username, with the same filters', async () => {
      const byId = await get('carol', `/api/v4/users/${ids.alice}/projects?order_by=id&sort=asc`);
      expect(idsOf(byId)).toEqual([ids.alpha, ids.beta]);
      const byName = (await clients.carol.Projects.all({ userId: 'ALICE', visibility: 'public' })) as Row[];
      expect(idsOf(byName)).toEqual([ids.alpha]);
      expect(idsOf(await get(null, `/api/v4/users/alice/projects`))).toEqual([ids.alpha]);
      expect(idsOf(await get('bob', `/api/v4/users/alice/projects?min_access_level=20`))).toEqual([ids.beta]);
      expect((await api(gw.baseUrl, 'GET', '/api/v4/users/nobody-here/projects', as('carol'))).status).toBe(404);
      expect((await api(gw.baseUrl, 'GET', '/api/v4/users/alice/projects?order_by=similarity', as('carol'))).status).toBe(400);
    });

    it('a private profile gives an empty list to others, not to the user or administrators', async () => {
      expect(await get('carol', `/api/v4/users/${ids.dave}/projects`)).toEqual([]);
      expect(await get(null, `/api/v4/users/dave/projects`)).toEqual([]);
      expect(idsOf(await get('dave', `/api/v4/users/dave/projects`))).toEqual([ids.daveProject]);
      expect(idsOf(await get('root', `/api/v4/users/dave/projects`))).toEqual([ids.daveProject]);
    });
  });

  describe('stars', () => {
    it('star answers 201 with star_count, then 304 without a body; unstar mirrors it', async () => {
      const starred = await clients.bob.Projects.star(ids.alpha);
      expect(starred).toMatchObject({ id: ids.alpha, star_count: 1 });
      const again = await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.alpha}/star`, as('bob'));
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect((await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.alpha}/star`, as('carol'))).body.star_count).toBe(2);

      const unstarred = await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.alpha}/unstar`, as('carol'));
      expect(unstarred.status).toBe(201);
      expect(unstarred.body.star_count).toBe(1);
      const notStarred = await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.alpha}/unstar`, as('carol'));
      expect(notStarred.status).toBe(304);
      expect(notStarred.text).toBe('');

      expect((await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.alpha}/star`)).status).toBe(401);
      expect((await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.gamma}/star`, as('carol'))).status).toBe(404);
    });

    it('keeps star_count exact under concurrent stars', async () => {
      const results = await Promise.all(
        ['alice', 'carol', 'dave', 'erin', 'alice', 'carol', 'dave', 'erin'].map((who) =>
          api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.delta}/star`, as(who)),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(4);
      expect(results.filter((r) => r.status === 304)).toHaveLength(4);
      const [row] = await gw.dataSource.query(
        'SELECT star_count, (SELECT count(*)::int FROM project_stars WHERE project_id = $1) AS stars FROM projects WHERE id = $1',
        [ids.delta],
      );
      expect(row).toEqual({ star_count: 4, stars: 4 });
      expect((await clients.carol.Projects.show(ids.delta)).star_count).toBe(4);
    });

    it('lists starrers with search, hiding private profiles from others', async () => {
      const starrers = await clients.carol.Projects.allStarrers(ids.delta);
      expect(starrers.map((s) => (s.user as { username: string }).username).sort()).toEqual(['alice', 'carol', 'erin']);
      expect(starrers[0]).toEqual({
        starred_since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        user: expect.objectContaining({ id: expect.any(Number), username: expect.any(String), web_url: expect.any(String) }),
      });
      expect((await get('root', `/api/v4/projects/${ids.delta}/starrers`)).length).toBe(4);
      expect((await get('dave', `/api/v4/projects/${ids.delta}/starrers?search=dav`)).map((s) => (s.user as { username: string }).username)).toEqual(['dave']);
      expect((await get(null, `/api/v4/projects/${ids.delta}/starrers?search=ERI`)).map((s) => (s.user as { username: string }).username)).toEqual(['erin']);
      const paged = await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.delta}/starrers?per_page=2`, as('root'));
      expect(paged.body).toHaveLength(2);
      expect(paged.headers.get('x-total')).toBe('4');
    });

    it('filters starred projects, orders by star_count, and lists a user’s starred projects', async () => {
      expect(sorted(idsOf(await get('carol', '/api/v4/projects?starred=true')))).toEqual([ids.delta]);
      expect(sorted(idsOf((await clients.bob.Projects.all({ starred: true })) as Row[]))).toEqual([ids.alpha]);
      expect(await get(null, '/api/v4/projects?starred=true')).toEqual([]);
      expect(idsOf(await get('root', '/api/v4/projects?order_by=star_count')).slice(0, 2)).toEqual([ids.delta, ids.alpha]);
      expect(idsOf((await clients.carol.Users.allStarredProjects(ids.bob)) as Row[])).toEqual([ids.alpha]);
      expect(idsOf(await get('carol', `/api/v4/users/erin/starred_projects`))).toEqual([ids.delta]);
      expect(await get('carol', `/api/v4/users/dave/starred_projects`)).toEqual([]);
      expect(idsOf(await get('dave', `/api/v4/users/dave/starred_projects`))).toEqual([ids.delta]);
    });
  });

  describe('archive', () => {
    it('is for owners and administrators, idempotent, and makes the project read-only', async () => {
      expect((await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.gamma}/archive`, as('bob'))).status).toBe(403);
      const archived = await clients.alice.Projects.archive(ids.gamma);
      expect(archived).toMatchObject({ id: ids.gamma, archived: true });
      const again = await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.gamma}/archive`, as('root'));
      expect(again.status).toBe(201);
      expect(again.body.archived).toBe(true);
      const events = await gw.dataSource.query(
        `SELECT count(*)::int AS n FROM outbox_events WHERE payload->>'type' = 'project_update' AND payload->>'project_id' = $1`,
        [String(ids.gamma)],
      );
      expect(events[0].n).toBe(1);

      // writes to the project's resources are refused, reads work
      const issue = await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.gamma}/issues`, { ...as('bob'), body: { title: 'late' } });
      expect(issue.status).toBe(403);
      expect(issue.body.message).toBe('403 Forbidden - Project is archived');
      const milestone = await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.gamma}/milestones`, { ...as('alice'), body: { title: 'v1' } });
      expect(milestone.status).toBe(403);
      expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.gamma}`, as('bob'))).body.archived).toBe(true);
      expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.gamma}/issues`, as('bob'))).status).toBe(200);
      expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.gamma}/members`, as('bob'))).status).toBe(200);
      // what stays possible: stars, members, settings
      expect((await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.gamma}/star`, as('bob'))).status).toBe(201);
      expect(
        (await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.gamma}/members`, { ...as('alice'), body: { user_id: ids.erin, access_level: 10 } })).status,
      ).toBe(201);
      expect((await api(gw.baseUrl, 'PUT', `/api/v4/projects/${ids.gamma}`, { ...as('alice'), body: { description: 'frozen' } })).status).toBe(200);

      expect(idsOf(await get('bob', '/api/v4/projects?archived=true'))).toEqual([ids.gamma]);
      expect(idsOf(await get('bob', '/api/v4/projects?archived=false'))).not.toContain(ids.gamma);

      const unarchived = await clients.alice.Projects.unarchive(ids.gamma);
      expect(unarchived.archived).toBe(false);
      expect((await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.gamma}/unarchive`, as('alice'))).body.archived).toBe(false);
      const issueAfter = await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.gamma}/issues`, { ...as('bob'), body: { title: 'now fine' } });
      expect(issueAfter.status).toBe(201);
    });

    it('an archived project can still be deleted by its owner', async () => {
      const doomed = await createProject('alice', 'doomed', { path: 'doomed', visibility: 'private' });
      expect((await api(gw.baseUrl, 'POST', `/api/v4/projects/${doomed.id}/archive`, as('alice'))).status).toBe(201);
      expect((await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${doomed.id}`, as('alice'))).status).toBe(202);
    });
  });

  describe('pagination', () => {
    it('caps offset pagination at 50,000 records and points to keyset pagination', async () => {
      expect((await api(gw.baseUrl, 'GET', '/api/v4/projects?page=2500&per_page=20', as('root'))).status).toBe(200);
      const capped = await api(gw.baseUrl, 'GET', '/api/v4/projects?page=501&per_page=100', as('root'));
      expect(capped.status).toBe(405);
      expect(capped.body.message).toBe(
        '405 Method Not Allowed - Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Project. Remaining records can be retrieved using keyset pagination.',
      );
      expect((await api(gw.baseUrl, 'GET', '/api/v4/projects?pagination=keyset&order_by=name', as('root'))).status).toBe(405);
    });

    describe('over thousands of projects', () => {
      const BULK = 2500;
      let bulkIds: number[];

      beforeAll(async () => {
        // half with identical timestamps, to exercise the id tie-breaker of keyset cursors
        await gw.dataSource.query(
          `INSERT INTO projects (name, path, namespace_id, visibility, created_at, updated_at, last_activity_at)
           SELECT 'bulk ' || g, 'bulk-' || g, $1, CASE WHEN g % 3 = 0 THEN 'private' ELSE 'public' END,
                  CASE WHEN g % 2 = 0 THEN timestamptz '2024-01-01T00:00:00.123Z' ELSE now() - g * interval '1 millisecond' END, now(), now()
           FROM generate_series(1, $2) AS g`,
          [ids.group, BULK],
        );
        const aliceNamespace = (await gw.dataSource.query(`SELECT id FROM namespaces WHERE kind = 'user' AND owner_id = $1`, [ids.alice]))[0].id;
        await gw.dataSource.query(
          `INSERT INTO projects (name, path, namespace_id, visibility, created_at)
           SELECT 'own ' || g, 'own-' || g, $1, 'public', timestamptz '2024-06-01T00:00:00Z' + (g / 10) * interval '1 second' FROM generate_series(1, 450) AS g`,
          [aliceNamespace],
        );
        bulkIds = (
          (await gw.dataSource.query(`SELECT id FROM projects WHERE visibility <> 'private' OR namespace_id <> $1 ORDER BY id`, [ids.group])) as {
            id: number;
          }[]
        ).map((r) => r.id);
      });

      const walk = async (who: string | null, firstPath: string): Promise<{ ids: number[]; pages: number }> => {
        const seen: number[] = [];
        let url: string | null = firstPath;
        let pages = 0;
        while (url) {
          const res: { status: number; body: Row[]; headers: Headers } = await api(gw.baseUrl, 'GET', url, who ? as(who) : {});
          expect(res.status).toBe(200);
          pages += 1;
          seen.push(...res.body.map((row) => row.id));
          const next: string | undefined = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
          url = next ? next.slice(gw.config.http.externalUrl.length) : null;
          expect(pages).toBeLessThan(200);
        }
        return { ids: seen, pages };
      };

      it('walks every visible project with keyset pagination (order_by=id), both directions, without gaps or repeats', async () => {
        const asc = await walk('carol', '/api/v4/projects?pagination=keyset&order_by=id&sort=asc&per_page=100');
        const expected = (
          (await gw.dataSource.query(`SELECT id FROM projects WHERE visibility IN ('public', 'internal') ORDER BY id`)) as { id: number }[]
        ).map((r) => r.id);
        expect(expected.length).toBeGreaterThan(2000);
        expect(asc.ids).toEqual(expected);
        expect(new Set(asc.ids).size).toBe(asc.ids.length);
        // the GitLab client follows the same links
        const viaClient = (await clients.carol.Projects.all({ pagination: 'keyset', orderBy: 'id', sort: 'asc', perPage: 100, simple: true })) as Row[];
        expect(idsOf(viaClient)).toEqual(expected);

        const desc = await walk(null, '/api/v4/projects?pagination=keyset&order_by=id&sort=desc&per_page=100&simple=true');
        const publicIds = ((await gw.dataSource.query(`SELECT id FROM projects WHERE visibility = 'public' ORDER BY id DESC`)) as { id: number }[]).map(
          (r) => r.id,
        );
        expect(desc.ids).toEqual(publicIds);
        expect(bulkIds.length).toBeGreaterThan(0);
      });

      it('walks a user’s projects with keyset pagination by created_at and by name, ties broken by id', async () => {
        const expected = (
          (await gw.dataSource.query(
            `SELECT p.id FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE n.kind = 'user' AND n.owner_id = $1 ORDER BY p.created_at DESC, p.id DESC`,
            [ids.alice],
          )) as { id: number }[]
        ).map((r) => r.id);
        const byCreated = await walk('carol', `/api/v4/users/${ids.alice}/projects?pagination=keyset&order_by=created_at&per_page=40`);
        expect(expected.length).toBeGreaterThan(450);
        expect(byCreated.ids).toEqual(expected);
        expect(new Set(byCreated.ids).size).toBe(byCreated.ids.length);

        const byName = await walk('carol', `/api/v4/users/alice/projects?pagination=keyset&order_by=name&sort=asc&per_page=50`);
        const expectedByName = (
          (await gw.dataSource.query(
            `SELECT p.id FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE n.kind = 'user' AND n.owner_id = $1 ORDER BY p.name ASC, p.id ASC`,
            [ids.alice],
          )) as { id: number }[]
        ).map((r) => r.id);
        expect(byName.ids).toEqual(expectedByName);
      });

      it('offset pages of the bulk list neither skip nor repeat', async () => {
        const pages = await Promise.all([1, 2, 3].map((page) => get('root', `/api/v4/projects?order_by=created_at&per_page=100&page=${page}`)));
        const all = pages.flat().map((row) => row.id);
        expect(new Set(all).size).toBe(300);
      });
    });
  });
});
