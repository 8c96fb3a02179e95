import { seedBranches } from './support/git-fixture';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

/**
 * JSON `null` in an update body: an attribute that cannot be null gets GitLab's blank answer, 400
 * `{"message":{"<attr>":["can't be blank"]}}`, and nothing changes; an attribute that can be
 * empty is cleared.
 */
describe('JSON null attributes', () => {
  let gw: TestGateway;
  let projectId: number;
  let groupId: number;
  const blank = (attr: string) => ({ message: { [attr]: ["can't be blank"] } });
  const put = (path: string, body: unknown) => api(gw.baseUrl, 'PUT', `/api/v4${path}`, { token: gw.rootToken, body });
  const post = async (path: string, body: unknown): Promise<any> => {
    const res = await api(gw.baseUrl, 'POST', `/api/v4${path}`, { token: gw.rootToken, body });
    expect(res.status).toBe(201);
    return res.body;
  };
  const get = async (path: string): Promise<any> => (await api(gw.baseUrl, 'GET', `/api/v4${path}`, { token: gw.rootToken })).body;

  beforeAll(async () => {
    gw = await startTestGateway('null_attributes');
    groupId = (await post('/groups', { name: 'Nulls', path: 'nulls', description: 'A group' })).id;
    projectId = (await post('/projects', { name: 'nullable', namespace_id: groupId, description: 'A project' })).id;
  });
  afterAll(() => gw?.close());

  describe('issues', () => {
    let iid: number;
    beforeAll(async () => {
      iid = (await post(`/projects/${projectId}/issues`, { title: 'Kept', description: 'Some text', labels: 'bug' })).iid;
    });

    it.each(['title', 'labels', 'confidential', 'issue_type'])('refuses %s: null and keeps the issue', async (attr) => {
      const res = await put(`/projects/${projectId}/issues/${iid}`, { [attr]: null });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(blank(attr));
      const issue = await get(`/projects/${projectId}/issues/${iid}`);
      expect(issue).toMatchObject({ title: 'Kept', labels: ['bug'], confidential: false, issue_type: 'issue' });
    });

    it('reports every null attribute, and only as blank', async () => {
      const res = await put(`/projects/${projectId}/issues/${iid}`, { title: null, labels: null, description: null });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { title: ["can't be blank"], labels: ["can't be blank"] } });
    });

    it('clears the description with null', async () => {
      const res = await put(`/projects/${projectId}/issues/${iid}`, { description: null });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ title: 'Kept', description: null });
    });

    it('refuses title: null when creating too', async () => {
      const res = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/issues`, { token: gw.rootToken, body: { title: 'New', confidential: null } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(blank('confidential'));
    });
  });

  describe('projects and groups', () => {
    it('refuses a null name or setting, and clears the description', async () => {
      for (const attr of ['name', 'path', 'visibility', 'topics', 'tag_list', 'shared_runners_enabled', 'build_timeout', 'issues_access_level']) {
        const res = await put(`/projects/${projectId}`, { [attr]: null });
        expect({ attr, status: res.status, body: res.body }).toEqual({ attr, status: 400, body: blank(attr) });
      }
      const cleared = await put(`/projects/${projectId}`, { description: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({
        name: 'nullable',
        description: null,
        shared_runners_enabled: true,
        build_timeout: 3600,
        issues_access_level: 'enabled',
      });
    });

    it("refuses a group's null path, and clears its description", async () => {
      const refused = await put(`/groups/${groupId}`, { path: null });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(blank('path'));
      const cleared = await put(`/groups/${groupId}`, { description: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ path: 'nulls', description: '' });
    });
  });

  it('milestones: null title refused, null description cleared', async () => {
    const milestone = await post(`/projects/${projectId}/milestones`, { title: 'M1', description: 'Goals' });
    const refused = await put(`/projects/${projectId}/milestones/${milestone.id}`, { title: null });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(blank('title'));
    const cleared = await put(`/projects/${projectId}/milestones/${milestone.id}`, { description: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ title: 'M1', description: null });
  });

  it('epics: null title and labels refused, null description cleared', async () => {
    const epic = await post(`/groups/${groupId}/epics`, { title: 'Epic', description: 'Plan' });
    for (const attr of ['title', 'labels']) {
      const res = await put(`/groups/${groupId}/epics/${epic.iid}`, { [attr]: null });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(blank(attr));
    }
    const cleared = await put(`/groups/${groupId}/epics/${epic.iid}`, { description: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ title: 'Epic', description: null });
  });

  it('badges, notes and snippets refuse null for what they cannot be without', async () => {
    const badge = await post(`/projects/${projectId}/badges`, { link_url: 'http://127.0.0.1/l', image_url: 'http://127.0.0.1/i' });
    const issue = await post(`/projects/${projectId}/issues`, { title: 'Noted' });
    const note = await post(`/projects/${projectId}/issues/${issue.iid}/notes`, { body: 'A note' });
    const snippet = await post(`/projects/${projectId}/snippets`, { title: 'S', file_name: 'a.txt', content: 'x', visibility: 'private' });
    const cases: Array<[string, string]> = [
      [`/projects/${projectId}/badges/${badge.id}`, 'link_url'],
      [
        `/groups/${groupId}/badges/${(await post(`/groups/${groupId}/badges`, { link_url: 'http://127.0.0.1/l', image_url: 'http://127.0.0.1/i' })).id}`,
        'image_url',
      ],
      [`/projects/${projectId}/issues/${issue.iid}/notes/${note.id}`, 'body'],
      [`/projects/${projectId}/snippets/${snippet.id}`, 'title'],
      [`/projects/${projectId}/snippets/${snippet.id}`, 'content'],
    ];
    for (const [path, attr] of cases) {
      const res = await put(path, { [attr]: null });
      expect({ path, attr, status: res.status, body: res.body }).toEqual({ path, attr, status: 400, body: blank(attr) });
    }
    expect(await get(`/projects/${projectId}/issues/${issue.iid}/notes/${note.id}`)).toMatchObject({ body: 'A note' });
  });

  it('merge requests and their approval rules: null title, labels and rule name refused', async () => {
    await seedBranches(gw, projectId, 'main', ['feature']);
    const mr = await post(`/projects/${projectId}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Change', description: 'Why' });
    for (const attr of ['title', 'labels', 'target_branch']) {
      const res = await put(`/projects/${projectId}/merge_requests/${mr.iid}`, { [attr]: null });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(blank(attr));
    }
    const cleared = await put(`/projects/${projectId}/merge_requests/${mr.iid}`, { description: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ title: 'Change', description: null });

    const rule = await post(`/projects/${projectId}/merge_requests/${mr.iid}/approval_rules`, { name: 'rule', approvals_required: 1 });
    const refused = await put(`/projects/${projectId}/merge_requests/${mr.iid}/approval_rules/${rule.id}`, { name: null });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(blank('name'));
  });

  it('system hooks: null url refused, null token removes the token', async () => {
    // The hook routes answer with a one-element array, as GitLab's.
    const [hook] = await post('/hooks', { url: 'http://127.0.0.1:9/hook', token: 'secret' });
    const refused = await put(`/hooks/${hook.id}`, { url: null });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(blank('url'));
    const tokenOf = async (): Promise<string | null> =>
      ((await gw.dataSource.query('SELECT encrypted_token FROM system_hooks WHERE id = $1', [hook.id])) as Array<{ encrypted_token: string | null }>)[0]
        .encrypted_token;
    expect(await tokenOf()).not.toBeNull();
    const removed = await put(`/hooks/${hook.id}`, { token: null });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject([{ id: hook.id, url: 'http://127.0.0.1:9/hook' }]);
    expect(await tokenOf()).toBeNull();
  });
});
