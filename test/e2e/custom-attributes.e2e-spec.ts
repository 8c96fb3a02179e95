import { api, startTestGateway, TestGateway } from './support/test-gateway';

/** Custom attributes of users, groups and projects, and the list filters that read them. */
describe('Custom attributes', () => {
  let gw: TestGateway;
  let userToken: string;
  const ids: Record<string, number> = {};

  const root = () => ({ token: gw.rootToken });
  const eventsOfType = async (prefix: string): Promise<Array<Record<string, any>>> =>
    (await gw.dataSource.query(`SELECT payload FROM outbox_events WHERE payload->>'type' LIKE $1 ORDER BY seq`, [`${prefix}%`])).map(
      (r: { payload: Record<string, any> }) => r.payload,
    );

  beforeAll(async () => {
    gw = await startTestGateway('custom_attributes');
    for (const username of ['alice', 'bob', 'carol']) {
      const user = await api(gw.baseUrl, 'POST', '/api/v4/users', {
        ...root(),
        body: { username, name: username, email: `${username}@example.com`, password: 'secret-password-1' },
      });
      expect(user.status).toBe(201);
      ids[username] = user.body.id;
    }
    const pat = await api(gw.baseUrl, 'POST', `/api/v4/users/${ids.alice}/personal_access_tokens`, { ...root(), body: { name: 'e2e', scopes: ['api'] } });
    userToken = pat.body.token;
    for (const path of ['red', 'blue', 'green']) {
      const group = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...root(), body: { name: path, path, visibility: 'public' } });
      expect(group.status).toBe(201);
      ids[`group_${path}`] = group.body.id;
    }
    for (const name of ['alpha', 'beta', 'gamma']) {
      const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name, namespace_id: ids.group_red, visibility: 'public' } });
      expect(project.status).toBe(201);
      ids[`project_${name}`] = project.body.id;
    }
  });
  afterAll(() => gw?.close());

  describe.each<[string, string, string, string]>([
    ['users', 'user', 'User', 'bob'],
    ['groups', 'group', 'Group', 'group_blue'],
    ['projects', 'project', 'Project', 'project_beta'],
  ])('/%s/:id/custom_attributes', (resource, type, notFoundName, fixture) => {
    const base = () => `/api/v4/${resource}/${ids[fixture]}/custom_attributes`;

    it('creates with PUT, updates with PUT, reads one and all, deletes with 204, and records events', async () => {
      expect(await api(gw.baseUrl, 'GET', base(), root())).toMatchObject({ status: 200, body: [] });
      const created = await api(gw.baseUrl, 'PUT', `${base()}/location`, { ...root(), body: { value: 'Antarctica' } });
      expect(created).toMatchObject({ status: 200, body: { key: 'location', value: 'Antarctica' } });
      const updated = await api(gw.baseUrl, 'PUT', `${base()}/location?value=Arctic`, root());
      expect(updated).toMatchObject({ status: 200, body: { key: 'location', value: 'Arctic' } });
      await api(gw.baseUrl, 'PUT', `${base()}/department`, { ...root(), form: { value: 'Ops' } });

      expect((await api(gw.baseUrl, 'GET', base(), root())).body).toEqual([
        { key: 'department', value: 'Ops' },
        { key: 'location', value: 'Arctic' },
      ]);
      expect(await api(gw.baseUrl, 'GET', `${base()}/location`, root())).toMatchObject({ status: 200, body: { key: 'location', value: 'Arctic' } });

      expect((await api(gw.baseUrl, 'DELETE', `${base()}/location`, root())).status).toBe(204);
      expect(await api(gw.baseUrl, 'GET', `${base()}/location`, root())).toMatchObject({ status: 404, body: { message: '404 Custom Attribute Not Found' } });
      expect(await api(gw.baseUrl, 'DELETE', `${base()}/location`, root())).toMatchObject({ status: 404, body: { message: '404 Custom Attribute Not Found' } });

      const events = (await eventsOfType('custom_attribute_')).filter((e) => e.target.type === type && e.target.id === ids[fixture]);
      expect(events.map((e) => [e.type, e.data.key, e.data.value])).toEqual([
        ['custom_attribute_create', 'location', 'Antarctica'],
        ['custom_attribute_update', 'location', 'Arctic'],
        ['custom_attribute_create', 'department', 'Ops'],
        ['custom_attribute_destroy', 'location', 'Arctic'],
      ]);
      if (type === 'project') expect(events[0].project_id).toBe(ids[fixture]);
      if (type === 'group') expect(events[0].group_id).toBe(ids[fixture]);
    });

    it('needs a value: missing is "not given", blank or too long fails validation', async () => {
      expect(await api(gw.baseUrl, 'PUT', `${base()}/size`, { ...root(), body: {} })).toMatchObject({
        status: 400,
        body: { message: '400 (Bad request) "value" not given' },
      });
      expect(await api(gw.baseUrl, 'PUT', `${base()}/size`, { ...root(), body: { value: '  ' } })).toMatchObject({
        status: 400,
        body: { message: { value: ["can't be blank"] } },
      });
      expect(await api(gw.baseUrl, 'PUT', `${base()}/size`, { ...root(), body: { value: 'x'.repeat(256) } })).toMatchObject({
        status: 400,
        body: { message: { value: ['is too long (maximum is 255 characters)'] } },
      });
      expect(await api(gw.baseUrl, 'PUT', `${base()}/size`, { ...root(), body: { value: { nested: true } } })).toMatchObject({
        status: 400,
        body: { message: { value: ['is invalid'] } },
      });
      expect(await api(gw.baseUrl, 'GET', `${base()}/size`, root())).toMatchObject({ status: 404 });
    });

    it(`answers 404 for an unknown ${type}`, async () => {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await api(gw.baseUrl, method, `/api/v4/${resource}/987654/custom_attributes${method === 'GET' ? '' : '/key'}`, {
          ...root(),
          body: method === 'GET' ? undefined : { value: 'v' },
        });
        expect(res).toMatchObject({ status: 404, body: { message: `404 ${notFoundName} Not Found` } });
      }
    });

    it('is for administrators: 401 without a token, 403 for a user', async () => {
      for (const [method, path] of [
        ['GET', base()],
        ['GET', `${base()}/department`],
        ['PUT', `${base()}/department`],
        ['DELETE', `${base()}/department`],
      ]) {
        const body = method === 'GET' ? undefined : { value: 'x' };
        expect((await api(gw.baseUrl, method, path, { body })).status).toBe(401);
        expect(await api(gw.baseUrl, method, path, { token: userToken, body })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      }
      expect((await api(gw.baseUrl, 'GET', `${base()}/department`, root())).body).toEqual({ key: 'department', value: 'Ops' });
    });
  });

  it('addresses groups and projects by URL-encoded path and users by username', async () => {
    expect((await api(gw.baseUrl, 'PUT', '/api/v4/groups/green/custom_attributes/tier', { ...root(), body: { value: 'gold' } })).status).toBe(200);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/groups/${ids.group_green}/custom_attributes/tier`, root())).body).toEqual({ key: 'tier', value: 'gold' });
    expect((await api(gw.baseUrl, 'PUT', '/api/v4/projects/red%2Fgamma/custom_attributes/tier', { ...root(), body: { value: 'bronze' } })).status).toBe(200);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.project_gamma}/custom_attributes`, root())).body).toEqual([{ key: 'tier', value: 'bronze' }]);
    expect((await api(gw.baseUrl, 'PUT', '/api/v4/users/Carol/custom_attributes/tier', { ...root(), body: { value: 'silver' } })).status).toBe(200);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/users/${ids.carol}/custom_attributes/tier`, root())).body).toEqual({ key: 'tier', value: 'silver' });
  });

  describe('list filters', () => {
    beforeAll(async () => {
      const set = (path: string, key: string, value: string) => api(gw.baseUrl, 'PUT', `${path}/custom_attributes/${key}`, { ...root(), body: { value } });
      await set(`/api/v4/projects/${ids.project_alpha}`, 'env', 'prod');
      await set(`/api/v4/projects/${ids.project_alpha}`, 'team', 'sre');
      await set(`/api/v4/projects/${ids.project_beta}`, 'env', 'prod');
      await set(`/api/v4/groups/${ids.group_red}`, 'env', 'prod');
      await set(`/api/v4/groups/${ids.group_red}`, 'team', 'sre');
      await set(`/api/v4/groups/${ids.group_blue}`, 'env', 'prod');
      await set(`/api/v4/users/${ids.alice}`, 'env', 'prod');
      await set(`/api/v4/users/${ids.alice}`, 'team', 'sre');
      await set(`/api/v4/users/${ids.bob}`, 'env', 'prod');
    });

    it.each<[string, string, string]>([
      ['projects', 'project_alpha', 'project_beta'],
      ['groups', 'group_red', 'group_blue'],
      ['users', 'alice', 'bob'],
    ])('GET /%s keeps what has every custom_attributes[key]=value (administrators)', async (resource, both, envOnly) => {
      const idsOf = (body: Array<{ id: number }>) => body.map((item) => item.id).sort((a, b) => a - b);
      const one = await api(gw.baseUrl, 'GET', `/api/v4/${resource}?custom_attributes[env]=prod&custom_attributes[team]=sre`, root());
      expect(one.status).toBe(200);
      expect(idsOf(one.body)).toEqual([ids[both]]);
      const two = await api(gw.baseUrl, 'GET', `/api/v4/${resource}?custom_attributes[env]=prod`, root());
      expect(idsOf(two.body)).toEqual([ids[both], ids[envOnly]].sort((a, b) => a - b));
      expect(two.headers.get('x-total')).toBe('2');
      expect((await api(gw.baseUrl, 'GET', `/api/v4/${resource}?custom_attributes[env]=staging`, root())).body).toEqual([]);
      // Anybody else: the filter is ignored, as GitLab does.
      const asUser = await api(gw.baseUrl, 'GET', `/api/v4/${resource}?custom_attributes[env]=staging&all_available=true`, { token: userToken });
      expect(asUser.status).toBe(200);
      expect(asUser.body.length).toBeGreaterThan(0);
    });

    it.each<[string, string]>([
      ['projects', 'project_alpha'],
      ['groups', 'group_red'],
      ['users', 'alice'],
    ])('GET /%s?with_custom_attributes=true adds them for administrators only', async (resource, fixture) => {
      const listed = await api(gw.baseUrl, 'GET', `/api/v4/${resource}?with_custom_attributes=true&per_page=100`, root());
      expect(listed.status).toBe(200);
      const item = listed.body.find((entry: { id: number }) => entry.id === ids[fixture]);
      expect(item.custom_attributes).toEqual([
        { key: 'env', value: 'prod' },
        { key: 'team', value: 'sre' },
      ]);
      expect(listed.body.every((entry: Record<string, unknown>) => Array.isArray(entry.custom_attributes))).toBe(true);
      const without = await api(gw.baseUrl, 'GET', `/api/v4/${resource}?per_page=100`, root());
      expect(without.body.some((entry: Record<string, unknown>) => 'custom_attributes' in entry)).toBe(false);
      const asUser = await api(gw.baseUrl, 'GET', `/api/v4/${resource}?with_custom_attributes=true`, { token: userToken });
      expect(asUser.status).toBe(200);
      expect(asUser.body.some((entry: Record<string, unknown>) => 'custom_attributes' in entry)).toBe(false);
    });

    it('adds them to a single project, group or user too', async () => {
      expect((await api(gw.baseUrl, 'GET', `/api/v4/users/${ids.bob}?with_custom_attributes=true`, root())).body.custom_attributes).toEqual([
        { key: 'department', value: 'Ops' },
        { key: 'env', value: 'prod' },
      ]);
      expect((await api(gw.baseUrl, 'GET', `/api/v4/users/${ids.bob}?with_custom_attributes=true`, { token: userToken })).body).not.toHaveProperty(
        'custom_attributes',
      );
      expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.project_alpha}?with_custom_attributes=true`, root())).body.custom_attributes).toEqual([
        { key: 'env', value: 'prod' },
        { key: 'team', value: 'sre' },
      ]);
      expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.project_alpha}`, root())).body).not.toHaveProperty('custom_attributes');
      expect((await api(gw.baseUrl, 'GET', `/api/v4/groups/${ids.group_blue}?with_custom_attributes=true`, root())).body.custom_attributes).toEqual([
        { key: 'department', value: 'Ops' },
        { key: 'env', value: 'prod' },
      ]);
    });

    it('refuses a filter that is not a hash of strings', async () => {
      expect(await api(gw.baseUrl, 'GET', '/api/v4/projects?custom_attributes[env][]=a', root())).toMatchObject({
        status: 400,
        body: { message: { custom_attributes: ['is invalid'] } },
      });
    });
  });

  it('removes the attributes of a deleted project with it', async () => {
    expect((await api(gw.baseUrl, 'PUT', `/api/v4/projects/${ids.project_gamma}/custom_attributes/doomed`, { ...root(), body: { value: 'yes' } })).status).toBe(
      200,
    );
    expect((await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${ids.project_gamma}`, root())).status).toBe(202);
    const rows = await gw.dataSource.query('SELECT 1 FROM project_custom_attributes WHERE project_id = $1', [ids.project_gamma]);
    expect(rows).toHaveLength(0);
  });
});
