import { Gitlab } from '@gitbeaker/rest';
import { seedBranches } from './support/git-fixture';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

/** Issues, milestones, iterations and merge requests over HTTP: GitLab shapes, iids, permissions and outbox events. */
describe('Issues, milestones, iterations and merge requests', () => {
  let gw: TestGateway;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const as = (who: string) => ({ token: who === 'root' ? gw.rootToken : tokens[who] });

  const createUser = async (username: string) => {
    const user = await api(gw.baseUrl, 'POST', '/api/v4/users', {
      token: gw.rootToken,
      body: { username, name: username, email: `${username}@example.com`, password: 'secret-password-1' },
    });
    expect(user.status).toBe(201);
    const pat = await api(gw.baseUrl, 'POST', `/api/v4/users/${user.body.id}/personal_access_tokens`, {
      token: gw.rootToken,
      body: { name: 'e2e', scopes: ['api'] },
    });
    tokens[username] = pat.body.token;
    ids[username] = user.body.id;
  };

  const outbox = async (type: string) =>
    ((await gw.dataSource.query(`SELECT payload FROM outbox_events WHERE payload->>'type' = $1 ORDER BY seq`, [type])) as { payload: any }[]).map(
      (r) => r.payload,
    );

  beforeAll(async () => {
    gw = await startTestGateway('issues');
    await createUser('owen'); // group owner
    await createUser('rhea'); // reporter
    await createUser('gus'); // guest
    await createUser('stranger');
    const group = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...as('owen'), body: { name: 'Ops', path: 'ops' } });
    ids.group = group.body.id;
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...as('owen'), body: { name: 'pager', namespace_id: ids.group } });
    ids.project = project.body.id;
    await seedBranches(gw, ids.project, 'main', ['fix-disk']);
    for (const [who, level] of [
      ['rhea', 20],
      ['gus', 10],
    ] as const) {
      expect(
        (await api(gw.baseUrl, 'POST', `/api/v4/projects/${ids.project}/members`, { ...as('owen'), body: { user_id: ids[who], access_level: level } })).status,
      ).toBe(201);
    }
  });
  afterAll(() => gw?.close());

  const projectPath = (suffix = '') => `/api/v4/projects/${ids.project}${suffix}`;

  it('creates milestones and changes their state, recording milestone events', async () => {
    const created = await api(gw.baseUrl, 'POST', projectPath('/milestones'), {
      ...as('rhea'),
      body: { title: 'v1', due_date: '2030-01-31', start_date: '2030-01-01' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      iid: 1,
      project_id: ids.project,
      title: 'v1',
      state: 'active',
      due_date: '2030-01-31',
      start_date: '2030-01-01',
      expired: false,
    });
    expect(created.body.web_url).toBe(`${gw.config.http.externalUrl}/ops/pager/-/milestones/1`);
    ids.v1 = created.body.id;
    const second = await api(gw.baseUrl, 'POST', projectPath('/milestones'), { ...as('rhea'), body: { title: 'v2' } });
    expect(second.body.iid).toBe(2);
    ids.v2 = second.body.id;

    expect((await api(gw.baseUrl, 'POST', projectPath('/milestones'), { ...as('rhea'), body: { title: 'v1' } })).status).toBe(400);
    expect((await api(gw.baseUrl, 'POST', projectPath('/milestones'), { ...as('gus'), body: { title: 'guest' } })).status).toBe(403);
    const missing = await api(gw.baseUrl, 'POST', projectPath('/milestones'), { ...as('rhea'), body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/title/);

    const closed = await api(gw.baseUrl, 'PUT', projectPath(`/milestones/${ids.v2}`), { ...as('rhea'), body: { state_event: 'close' } });
    expect(closed.body.state).toBe('closed');
    const reopened = await api(gw.baseUrl, 'PUT', projectPath(`/milestones/${ids.v2}`), { ...as('rhea'), body: { state_event: 'activate' } });
    expect(reopened.body.state).toBe('active');
    expect((await api(gw.baseUrl, 'GET', projectPath(`/milestones/${ids.v1}`), as('gus'))).body.title).toBe('v1');
    expect((await api(gw.baseUrl, 'GET', projectPath('/milestones/999999'), as('gus'))).status).toBe(404);
    const list = await api(gw.baseUrl, 'GET', projectPath('/milestones?state=active'), as('gus'));
    expect(list.body.map((m: any) => m.title)).toEqual(['v1', 'v2']);
    expect((await outbox('milestone.created')).map((e) => e.target.title)).toEqual(['v1', 'v2']);
    expect((await outbox('milestone.closed'))[0]).toMatchObject({ project_id: ids.project, target: { type: 'milestone', id: ids.v2, iid: 2 } });
    expect(await outbox('milestone.reopened')).toHaveLength(1);
  });

  it('opens issues with per-project iids, GitLab shapes and the incident type', async () => {
    const created = await api(gw.baseUrl, 'POST', projectPath('/issues'), {
      ...as('rhea'),
      body: { title: 'Disk full', description: 'on db-1', labels: 'ops,disk', assignee_ids: [ids.rhea], milestone_id: ids.v1, weight: 3 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      iid: 1,
      project_id: ids.project,
      title: 'Disk full',
      description: 'on db-1',
      state: 'opened',
      labels: ['ops', 'disk'],
      milestone: { id: ids.v1, title: 'v1' },
      assignees: [{ id: ids.rhea, username: 'rhea' }],
      author: { id: ids.rhea, username: 'rhea' },
      issue_type: 'issue',
      type: 'ISSUE',
      confidential: false,
      weight: 3,
      web_url: `${gw.config.http.externalUrl}/ops/pager/-/issues/1`,
    });
    ids.issue = created.body.id;
    const incident = await api(gw.baseUrl, 'POST', projectPath('/issues'), { ...as('rhea'), body: { title: 'API down', issue_type: 'incident' } });
    expect(incident.body).toMatchObject({ iid: 2, issue_type: 'incident', type: 'INCIDENT' });

    // A guest opens issues but cannot set metadata (ignored, as in GitLab).
    const byGuest = await api(gw.baseUrl, 'POST', projectPath('/issues'), { ...as('gus'), body: { title: 'Question', milestone_id: ids.v1, labels: 'x' } });
    expect(byGuest.status).toBe(201);
    expect(byGuest.body).toMatchObject({ iid: 3, milestone: null, labels: [] });

    const opened = (await outbox('issue.opened')).find((e) => e.target.id === ids.issue)!;
    expect(opened).toMatchObject({
      actor: ids.rhea,
      project_id: ids.project,
      group_id: ids.group,
      target: { type: 'issue', id: ids.issue, iid: 1, title: 'Disk full' },
    });
    expect(opened.data.milestone).toMatchObject({ id: ids.v1, title: 'v1' });
    expect(opened.data.issue).toMatchObject({ weight: 3, confidential: false });

    expect((await api(gw.baseUrl, 'POST', projectPath('/issues'), { ...as('rhea'), body: {} })).status).toBe(400);
    expect((await api(gw.baseUrl, 'POST', projectPath('/issues'), { ...as('rhea'), body: { title: 'x', issue_type: 'epic' } })).status).toBe(400);
    const huge = await api(gw.baseUrl, 'POST', projectPath('/issues'), { ...as('rhea'), body: { title: 'x', milestone_id: 99_999_999_999 } });
    expect(huge.status).toBe(400);
    expect(huge.body.message).toHaveProperty('milestone_id');
    expect((await api(gw.baseUrl, 'POST', projectPath('/issues'), { ...as('rhea'), body: { title: 'x', weight: -1 } })).status).toBe(400);
    expect((await api(gw.baseUrl, 'POST', projectPath('/issues'), { ...as('rhea'), body: { title: 'x', milestone_id: 424242 } })).status).toBe(404);
    // An iid beyond the integer range names no issue: 404 (a non-integer iid is the 400).
    expect((await api(gw.baseUrl, 'GET', projectPath('/issues/99999999999'), as('rhea'))).body).toEqual({ message: '404 Issue Not Found' });
    expect((await api(gw.baseUrl, 'GET', projectPath('/issues/abc'), as('rhea'))).body).toEqual({ error: 'issue_iid is invalid' });
    expect((await api(gw.baseUrl, 'POST', projectPath('/issues'), { ...as('stranger'), body: { title: 'x' } })).status).toBe(404);
  });

  it('hands out gap-free iids under concurrent creation', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) => api(gw.baseUrl, 'POST', projectPath('/issues'), { ...as('rhea'), body: { title: `burst ${n}` } })),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const iids = results.map((r) => r.body.iid).sort((a, b) => a - b);
    expect(iids).toEqual(Array.from({ length: 20 }, (_, n) => n + 4));
  });

  it('addresses issues by iid, updates them with changes and state events, and deletes them as owner', async () => {
    const byIid = await api(gw.baseUrl, 'GET', projectPath('/issues/1'), as('gus'));
    expect(byIid.body.id).toBe(ids.issue);
    if (ids.issue !== 1) expect((await api(gw.baseUrl, 'GET', projectPath(`/issues/${ids.issue + 1000}`), as('gus'))).status).toBe(404);
    expect((await api(gw.baseUrl, 'GET', projectPath('/issues/abc'), as('gus'))).status).toBe(400);

    const updated = await api(gw.baseUrl, 'PUT', projectPath('/issues/1'), { ...as('rhea'), body: { milestone_id: ids.v2, weight: 5, state_event: 'close' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ state: 'closed', milestone: { id: ids.v2 }, weight: 5, closed_by: { id: ids.rhea } });
    expect(updated.body.closed_at).toEqual(expect.any(String));
    const [change] = (await outbox('issue.updated')).filter((e) => e.target.id === ids.issue);
    expect(change.data.changes).toMatchObject({ milestone: { previous: { id: ids.v1 }, current: { id: ids.v2 } }, weight: { previous: 3, current: 5 } });
    expect((await outbox('issue.closed')).map((e) => e.target.id)).toEqual([ids.issue]);

    const reopened = await api(gw.baseUrl, 'PUT', projectPath('/issues/1'), { ...as('rhea'), body: { state_event: 'reopen', milestone_id: 0 } });
    expect(reopened.body).toMatchObject({ state: 'opened', milestone: null, closed_at: null });
    expect(await outbox('issue.reopened')).toHaveLength(1);

    // A guest edits only their own issues.
    expect((await api(gw.baseUrl, 'PUT', projectPath('/issues/1'), { ...as('gus'), body: { title: 'hijack' } })).status).toBe(403);
    expect((await api(gw.baseUrl, 'PUT', projectPath('/issues/3'), { ...as('gus'), body: { title: 'Question, edited' } })).body.title).toBe('Question, edited');

    expect((await api(gw.baseUrl, 'DELETE', projectPath('/issues/3'), as('rhea'))).status).toBe(403);
    expect((await api(gw.baseUrl, 'DELETE', projectPath('/issues/3'), as('owen'))).status).toBe(204);
    expect((await api(gw.baseUrl, 'GET', projectPath('/issues/3'), as('owen'))).status).toBe(404);
    expect(await outbox('issue.destroyed')).toHaveLength(1);
  });

  it('hides confidential issues from guests and outsiders but shows them to their author', async () => {
    const secret = await api(gw.baseUrl, 'POST', projectPath('/issues'), { ...as('rhea'), body: { title: 'CVE', confidential: true } });
    expect(secret.body.confidential).toBe(true);
    expect((await api(gw.baseUrl, 'GET', projectPath(`/issues/${secret.body.iid}`), as('gus'))).status).toBe(404);
    expect((await api(gw.baseUrl, 'GET', projectPath(`/issues/${secret.body.iid}`), as('owen'))).status).toBe(200);
    const guestList = await api(gw.baseUrl, 'GET', projectPath('/issues?per_page=100'), as('gus'));
    expect(guestList.body.some((i: any) => i.title === 'CVE')).toBe(false);
    const ownerList = await api(gw.baseUrl, 'GET', projectPath('/issues?per_page=100&confidential=true'), as('owen'));
    expect(ownerList.body.map((i: any) => i.title)).toEqual(['CVE']);
    const own = await api(gw.baseUrl, 'POST', projectPath('/issues'), { ...as('gus'), body: { title: 'my secret', confidential: true } });
    expect((await api(gw.baseUrl, 'GET', projectPath(`/issues/${own.body.iid}`), as('gus'))).status).toBe(200);
  });

  it("lists issues with filters and the current user's issues", async () => {
    const closedOnes = await api(gw.baseUrl, 'GET', projectPath('/issues?state=opened&labels=ops'), as('gus'));
    expect(closedOnes.body.map((i: any) => i.iid)).toEqual([1]);
    const incidents = await api(gw.baseUrl, 'GET', projectPath('/issues?issue_type=incident'), as('gus'));
    expect(incidents.body.map((i: any) => i.title)).toEqual(['API down']);
    const page = await api(gw.baseUrl, 'GET', projectPath('/issues?per_page=5'), as('owen'));
    expect(page.body).toHaveLength(5);
    expect(Number(page.headers.get('x-total'))).toBeGreaterThan(20);
    const mine = await api(gw.baseUrl, 'GET', '/api/v4/issues?scope=created_by_me&per_page=100', as('gus'));
    expect(mine.body.map((i: any) => i.title)).toEqual(['my secret']);
    const assigned = await api(gw.baseUrl, 'GET', '/api/v4/issues?scope=assigned_to_me', as('rhea'));
    expect(assigned.body.map((i: any) => i.iid)).toEqual([1]);
    expect((await api(gw.baseUrl, 'GET', '/api/v4/issues?scope=all&per_page=100', as('stranger'))).body).toEqual([]);
  });

  it('creates group iterations and sets them on issues (PREMIUM)', async () => {
    const iteration = await api(gw.baseUrl, 'POST', `/api/v4/groups/${ids.group}/iterations`, {
      ...as('owen'),
      body: { title: 'Sprint 1', start_date: '2020-01-01', due_date: '2020-01-14' },
    });
    expect(iteration.status).toBe(201);
    expect(iteration.body).toMatchObject({ iid: 1, group_id: ids.group, title: 'Sprint 1', state: 3, start_date: '2020-01-01', due_date: '2020-01-14' });
    const overlap = await api(gw.baseUrl, 'POST', `/api/v4/groups/${ids.group}/iterations`, {
      ...as('owen'),
      body: { start_date: '2020-01-10', due_date: '2020-01-20' },
    });
    expect(overlap.status).toBe(400);
    const list = await api(gw.baseUrl, 'GET', `/api/v4/groups/${ids.group}/iterations?state=closed`, as('owen'));
    expect(list.body.map((i: any) => i.id)).toEqual([iteration.body.id]);
    const group = await api(gw.baseUrl, 'GET', `/api/v4/groups/${ids.group}`, as('owen'));
    const webUrl = `${gw.baseUrl}/groups/${group.body.full_path}/-/iterations/${iteration.body.id}`;
    expect(iteration.body.web_url).toBe(webUrl);
    expect(list.body[0].web_url).toBe(webUrl);
    const set = await api(gw.baseUrl, 'PUT', projectPath('/issues/1'), { ...as('rhea'), body: { iteration_id: iteration.body.id } });
    expect(set.body.iteration).toMatchObject({ id: iteration.body.id, title: 'Sprint 1', web_url: webUrl });
    const [change] = (await outbox('issue.updated')).filter((e) => e.data.changes.iteration);
    expect(change.data.changes.iteration).toEqual({ previous: null, current: expect.objectContaining({ id: iteration.body.id }) });
  });

  it('opens, edits, closes and reopens merge requests by iid (also through a real client)', async () => {
    const mr = await api(gw.baseUrl, 'POST', projectPath('/merge_requests'), {
      ...as('owen'),
      body: { title: 'Fix disk alert', source_branch: 'fix-disk', target_branch: 'main', milestone_id: ids.v1 },
    });
    expect(mr.status).toBe(201);
    expect(mr.body).toMatchObject({
      iid: 1,
      state: 'opened',
      source_branch: 'fix-disk',
      target_branch: 'main',
      milestone: { id: ids.v1 },
      author: { username: 'owen' },
    });
    expect(mr.body.web_url).toBe(`${gw.config.http.externalUrl}/ops/pager/-/merge_requests/1`);
    expect(
      (
        await api(gw.baseUrl, 'POST', projectPath('/merge_requests'), {
          ...as('owen'),
          body: { title: 'dup', source_branch: 'fix-disk', target_branch: 'main' },
        })
      ).status,
    ).toBe(409);
    expect(
      (await api(gw.baseUrl, 'POST', projectPath('/merge_requests'), { ...as('rhea'), body: { title: 'r', source_branch: 'a', target_branch: 'main' } }))
        .status,
    ).toBe(403);

    const client = new Gitlab({ host: gw.baseUrl, token: tokens.owen, rateLimits: {} });
    const edited = await client.MergeRequests.edit(ids.project, 1, { title: 'Fix disk alert (v2)', milestoneId: ids.v2 });
    expect(edited).toMatchObject({ title: 'Fix disk alert (v2)', milestone: expect.objectContaining({ id: ids.v2 }) });
    await client.MergeRequests.edit(ids.project, 1, { stateEvent: 'close' });
    const shown = await client.MergeRequests.show(ids.project, 1);
    expect(shown.state).toBe('closed');
    await client.MergeRequests.edit(ids.project, 1, { stateEvent: 'reopen' });
    const all = await client.MergeRequests.all({ projectId: ids.project, state: 'opened' });
    expect(all.map((m) => m.iid)).toEqual([1]);
    expect((await api(gw.baseUrl, 'GET', projectPath('/merge_requests/2'), as('owen'))).status).toBe(404);

    expect((await outbox('merge_request.opened'))[0]).toMatchObject({ target: { type: 'merge_request', iid: 1 }, data: { milestone: { id: ids.v1 } } });
    expect(await outbox('merge_request.closed')).toHaveLength(1);
    expect(await outbox('merge_request.reopened')).toHaveLength(1);
  });

  it('deletes a milestone, unsetting it, and records milestone.destroyed', async () => {
    expect((await api(gw.baseUrl, 'DELETE', projectPath(`/milestones/${ids.v2}`), as('rhea'))).status).toBe(204);
    expect((await api(gw.baseUrl, 'GET', projectPath('/merge_requests/1'), as('owen'))).body.milestone).toBeNull();
    expect((await outbox('milestone.destroyed')).map((e) => e.target.id)).toEqual([ids.v2]);
  });

  it("creates group milestones that the group's projects may use", async () => {
    const created = await api(gw.baseUrl, 'POST', `/api/v4/groups/${ids.group}/milestones`, { ...as('owen'), body: { title: 'Q3' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      iid: 1,
      group_id: ids.group,
      title: 'Q3',
      state: 'active',
      web_url: `${gw.config.http.externalUrl}/groups/ops/-/milestones/1`,
    });
    expect(created.body).not.toHaveProperty('project_id');
    expect((await api(gw.baseUrl, 'GET', `/api/v4/groups/${ids.group}/milestones`, as('owen'))).body.map((m: any) => m.title)).toEqual(['Q3']);
    expect((await api(gw.baseUrl, 'POST', `/api/v4/groups/${ids.group}/milestones`, { ...as('rhea'), body: { title: 'no' } })).status).toBe(403);
    const issue = await api(gw.baseUrl, 'POST', projectPath('/issues'), { ...as('owen'), body: { title: 'planned', milestone_id: created.body.id } });
    expect(issue.body.milestone).toMatchObject({ id: created.body.id, group_id: ids.group });
    const other = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...as('owen'), body: { name: 'personal' } });
    const refused = await api(gw.baseUrl, 'POST', `/api/v4/projects/${other.body.id}/issues`, {
      ...as('owen'),
      body: { title: 'x', milestone_id: created.body.id },
    });
    expect(refused.status).toBe(404);
  });

  it('filters issues and merge requests by labels=Any (at least one) and labels=None (no label), in any case', async () => {
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...as('owen'), body: { name: 'labelled', namespace_id: ids.group } });
    expect(project.status).toBe(201);
    const path = (suffix: string) => `/api/v4/projects/${project.body.id}${suffix}`;
    for (const [title, labels] of [
      ['bare', ''],
      ['one', 'a'],
      ['two', 'a,b'],
    ]) {
      expect((await api(gw.baseUrl, 'POST', path('/issues'), { ...as('owen'), body: { title, labels } })).status).toBe(201);
    }
    const titles = async (query: string) => ((await api(gw.baseUrl, 'GET', path(`/issues?${query}&sort=asc`), as('owen'))).body as any[]).map((i) => i.title);
    expect(await titles('labels=Any')).toEqual(['one', 'two']);
    expect(await titles('labels=any')).toEqual(['one', 'two']);
    expect(await titles('labels=None')).toEqual(['bare']);
    expect(await titles('labels=NONE')).toEqual(['bare']);
    expect(await titles('labels=a,b')).toEqual(['two']);
    expect(await titles('labels=a')).toEqual(['one', 'two']);
    const global = (await api(gw.baseUrl, 'GET', '/api/v4/issues?scope=all&labels=None&per_page=100', as('owen'))).body as any[];
    expect(global.filter((i) => i.project_id === project.body.id).map((i) => i.title)).toEqual(['bare']);
    expect(global.every((i) => i.labels.length === 0)).toBe(true);

    await seedBranches(gw, project.body.id, 'main', ['with-label', 'without-label']);
    for (const [branch, labels] of [
      ['with-label', 'x'],
      ['without-label', ''],
    ]) {
      expect(
        (
          await api(gw.baseUrl, 'POST', path('/merge_requests'), {
            ...as('owen'),
            body: { title: branch, source_branch: branch, target_branch: 'main', labels },
          })
        ).status,
      ).toBe(201);
    }
    const mrs = async (query: string) => ((await api(gw.baseUrl, 'GET', path(`/merge_requests?${query}`), as('owen'))).body as any[]).map((m) => m.title);
    expect(await mrs('labels=Any')).toEqual(['with-label']);
    expect(await mrs('labels=None')).toEqual(['without-label']);
    expect(await mrs('labels=x')).toEqual(['with-label']);
    expect(await mrs('labels=y')).toEqual([]);
  });
});

describe('Issues on the free tier', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway('issues-free', { SERVICE_TIER: 'free' });
  });
  afterAll(() => gw?.close());

  it('ignores weight and iteration and refuses the iteration endpoints', async () => {
    const group = await api(gw.baseUrl, 'POST', '/api/v4/groups', { token: gw.rootToken, body: { name: 'Free', path: 'free' } });
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: gw.rootToken, body: { name: 'p', namespace_id: group.body.id } });
    const issue = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.body.id}/issues`, { token: gw.rootToken, body: { title: 'heavy', weight: 8 } });
    expect(issue.status).toBe(201);
    expect(issue.body).not.toHaveProperty('weight');
    expect(issue.body).not.toHaveProperty('iteration');
    const iterations = await api(gw.baseUrl, 'POST', `/api/v4/groups/${group.body.id}/iterations`, {
      token: gw.rootToken,
      body: { start_date: '2030-01-01', due_date: '2030-01-02' },
    });
    expect(iterations.status).toBe(403);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/groups/${group.body.id}/iterations`, { token: gw.rootToken })).status).toBe(403);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.body.id}/issues/1/resource_iteration_events`, { token: gw.rootToken })).status).toBe(403);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.body.id}/issues/1/resource_weight_events`, { token: gw.rootToken })).body).toEqual([]);
  });
});
