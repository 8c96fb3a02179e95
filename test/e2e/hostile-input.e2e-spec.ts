import { getMetadataStorage } from 'class-validator';
import { INT32_MAX } from '@app/api';
import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

/** Hostile input on the real gateway: out-of-range integers, NUL bytes, deep JSON. Never a 500. */
describe('Hostile input', () => {
  let gw: TestGateway;
  let projectId: number;

  beforeAll(async () => {
    gw = await startTestGateway('hostile-input');
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: gw.rootToken, body: { name: 'target' } });
    projectId = project.body.id;
  });
  afterAll(() => gw.close());

  const get = (path: string, headers: Record<string, string> = {}) => api(gw.baseUrl, 'GET', path, { token: gw.rootToken, headers });

  describe('integers beyond the range of a PostgreSQL integer', () => {
    it.each([
      ['/api/v4/users/2147483648', '404 User Not Found'],
      ['/api/v4/users/99999999999/events', '404 User Not Found'],
      ['/api/v4/personal_access_tokens/99999999999', '404 Personal Access Token Not Found'],
      ['/api/v4/hooks/99999999999', '404 System hook Not Found'],
      ['/api/v4/users/99999999999/custom_attributes', '404 User Not Found'],
      ['/api/v4/users/99999999999/projects', '404 User Not Found'],
    ])('an id that cannot exist is a 404: %s', async (path, message) => {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message });
    });

    it('an issue, milestone or badge id beyond the range is a 404 of that resource', async () => {
      expect((await get(`/api/v4/projects/${projectId}/issues/2147483648`)).body).toEqual({ message: '404 Issue Not Found' });
      expect((await get(`/api/v4/projects/${projectId}/milestones/99999999999`)).body).toEqual({ message: '404 Milestone Not Found' });
      expect((await get(`/api/v4/projects/${projectId}/badges/99999999999`)).body).toEqual({ message: '404 Badge Not Found' });
      expect((await get(`/api/v4/projects/${projectId}/members/99999999999`)).status).toBe(404);
    });

    it('a note or snippet id beyond the range is a 404 of that resource; a word is still a 400', async () => {
      // Its own project: the NUL tests below expect no issue in the shared one.
      const own = (await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: gw.rootToken, body: { name: 'range' } })).body.id;
      const issue = await api(gw.baseUrl, 'POST', `/api/v4/projects/${own}/issues`, { token: gw.rootToken, body: { title: 'noted' } });
      expect(issue.status).toBe(201);
      const notes = `/api/v4/projects/${own}/issues/${issue.body.iid}/notes`;
      for (const id of ['2147483648', '99999999999999999999']) {
        expect(await get(`${notes}/${id}`).then((r) => [r.status, r.body])).toEqual([404, { message: '404 Note Not Found' }]);
        expect(await get(`/api/v4/projects/${projectId}/snippets/${id}`).then((r) => [r.status, r.body])).toEqual([404, { message: '404 Snippet Not Found' }]);
      }
      expect((await get(`${notes}/abc`)).body).toEqual({ error: 'note_id is invalid' });
      expect((await get(`/api/v4/projects/${projectId}/snippets/abc`)).body).toEqual({ error: 'snippet_id is invalid' });
      expect((await get('/api/v4/users/2147483648/custom_attributes/k')).body).toEqual({ message: '404 User Not Found' });
      expect((await get('/api/v4/projects/2147483648')).body).toEqual({ message: '404 Project Not Found' });
    });

    it('a Sudo user id beyond the range is an unknown user (404)', async () => {
      const res = await get('/api/v4/user', { Sudo: '99999999999999999999' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 User with ID or username 99999999999999999999 Not Found' });
    });

    it.each(['id_after', 'id_before', 'topic_id'])('a filter %s beyond the range is a 400', async (name) => {
      const res = await get(`/api/v4/projects?${name}=2147483648`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { [name]: ['must be less than or equal to 2147483647'] } });
    });

    it('every integer attribute of every DTO the gateway loads is bounded by the integer range', () => {
      const unbounded: string[] = [];
      // class-validator keeps every declared rule: one integer rule without its bound is a route that can 500.
      const storage = getMetadataStorage() as unknown as {
        validationMetadatas: Map<Function, Array<{ name?: string; type: string; propertyName: string; constraints?: unknown[] }>>;
      };
      for (const [target, metadatas] of storage.validationMetadatas) {
        if (target.name === 'EnvironmentVariables') continue;
        const integers = metadatas.filter((m) => m.name === 'isInt' || m.type === 'isInt').map((m) => m.propertyName);
        for (const property of new Set(integers)) {
          const max = metadatas.find((m) => m.propertyName === property && (m.name === 'max' || m.type === 'max'));
          const bounded = max !== undefined && typeof max.constraints?.[0] === 'number' && (max.constraints[0] as number) <= INT32_MAX;
          const listed = metadatas.some((m) => m.propertyName === property && (m.name === 'isIn' || m.type === 'isIn'));
          if (!bounded && !listed) unbounded.push(`${target.name}.${property}`);
        }
      }
      expect(unbounded).toEqual([]);
    });
  });

  describe('page and per_page', () => {
    const lists = () => [
      '/api/v4/projects',
      '/api/v4/groups',
      '/api/v4/users',
      '/api/v4/events',
      '/api/v4/topics',
      `/api/v4/projects/${projectId}/issues`,
      `/api/v4/projects/${projectId}/alert_management/alerts`,
      `/api/v4/projects/${projectId}/members`,
    ];

    it('a page or per_page that is not an integer is a 400 on every list', async () => {
      for (const list of lists()) {
        expect({ list, body: (await get(`${list}?page=abc`)).body }).toEqual({ list, body: { error: 'page is invalid' } });
        expect({ list, body: (await get(`${list}?per_page=1.5`)).body }).toEqual({ list, body: { error: 'per_page is invalid' } });
      }
    });

    it('out-of-range values are clamped as GitLab (page 0 is page 1, per_page -5 is 20, 500 is 100)', async () => {
      for (const list of lists()) {
        const res = await get(`${list}?page=0&per_page=-5`);
        expect({ list, status: res.status, page: res.headers.get('x-page'), perPage: res.headers.get('x-per-page') }).toEqual({
          list,
          status: 200,
          page: '1',
          perPage: '20',
        });
        expect((await get(`${list}?per_page=500`)).headers.get('x-per-page')).toBe('100');
      }
    });
  });

  describe('NUL bytes', () => {
    it.each([
      '/api/v4/projects?search=%00',
      '/api/v4/projects?topic=a%00b',
      '/api/v4/projects?with_programming_language=%00',
      '/api/v4/projects?repository_storage=%00',
      '/api/v4/users?search=%00',
      '/api/v4/users?username=%00',
      '/api/v4/users/%00',
      '/api/v4/projects?labels[]=%00',
    ])('in %s: 400', async (path) => {
      const res = await get(path);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: '400 Bad request - Invalid null byte in parameter' });
    });

    it('in the alert list filters: 400', async () => {
      for (const query of ['search=%00', 'assignee_username=%00']) {
        expect((await get(`/api/v4/projects/${projectId}/alert_management/alerts?${query}`)).status).toBe(400);
        expect((await get(`/api/v4/projects/${projectId}/alert_management/alerts/status_counts?${query}`)).status).toBe(400);
      }
    });

    it('in a JSON or form body: 400, and nothing is created', async () => {
      const json = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/issues`, { token: gw.rootToken, body: { title: 'a\u0000b' } });
      expect(json.status).toBe(400);
      const nested = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/issues`, {
        token: gw.rootToken,
        body: { title: 'ok', labels: ['x', 'y\u0000'] },
      });
      expect(nested.status).toBe(400);
      const form = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/issues`, { token: gw.rootToken, form: { title: 'a\u0000b' } });
      expect(form.status).toBe(400);
      expect((await get(`/api/v4/projects/${projectId}/issues`)).body).toEqual([]);
    });
  });

  describe('lone UTF-16 surrogates', () => {
    const LONE_SURROGATE = { message: '400 Bad request - Invalid UTF-8 in parameter' };
    const postRaw = (method: string, path: string, body: string) =>
      fetch(`${gw.baseUrl}${path}`, { method, headers: { 'PRIVATE-TOKEN': gw.rootToken, 'content-type': 'application/json' }, body });

    it('in a JSON body are refused with 400 on every route, never a 500 of PostgreSQL', async () => {
      const issue = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/issues`, { token: gw.rootToken, body: { title: 'surrogates' } });
      expect(issue.status).toBe(201);
      const requests: Array<[string, string, string]> = [
        ['POST', `/api/v4/projects/${projectId}/issues`, '{"title":"a\\ud800"}'],
        ['PUT', `/api/v4/projects/${projectId}/issues/${issue.body.iid}`, '{"description":"\\udc00 alone"}'],
        ['POST', `/api/v4/projects/${projectId}/issues/${issue.body.iid}/notes`, '{"body":"x\\ud800"}'],
        ['POST', '/api/v4/users', '{"username":"lone","name":"\\ud800","email":"lone@example.com","password":"secret-password-1"}'],
        ['POST', '/api/v4/hooks', '{"url":"http://127.0.0.1:9/\\ud800"}'],
        ['PUT', '/api/v4/users/1/custom_attributes/k', '{"value":"\\ud800"}'],
        ['PUT', '/api/v4/users/1/custom_attributes/k', '{"value":"ok","\\ud800":1}'],
      ];
      for (const [method, path, body] of requests) {
        const res = await postRaw(method, path, body);
        expect({ method, path, status: res.status, body: await res.json() }).toEqual({ method, path, status: 400, body: LONE_SURROGATE });
      }
      expect((await get('/api/v4/users?username=lone')).body).toEqual([]);
    });

    it('percent-encoded in a form body stays text', async () => {
      // A form body is percent-encoded UTF-8: the bytes of a lone surrogate are not UTF-8, the value is kept undecoded.
      const res = await fetch(`${gw.baseUrl}/api/v4/projects/${projectId}/issues`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': gw.rootToken, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'title=form%ED%A0%80',
      });
      expect(res.status).toBe(201);
      expect(((await res.json()) as { title: string }).title).toBe('form%ED%A0%80');
    });

    it('a surrogate pair (an astral character) is accepted', async () => {
      const res = await postRaw('POST', `/api/v4/projects/${projectId}/issues`, '{"title":"pair \\ud83d\\ude00"}');
      expect(res.status).toBe(201);
      expect(((await res.json()) as { title: string }).title).toBe('pair \u{1F600}');
    });

    it('percent-encoded in a query string or a path never reaches the database as one', async () => {
      // The escapes of a lone surrogate are not UTF-8: the query keeps them as text, the path matches no route.
      const search = await get(`/api/v4/projects/${projectId}/issues?search=%ED%A0%80`);
      expect(search.status).toBe(200);
      // The literal text: it finds the issue of the form body above, whose title kept it.
      expect(search.body.map((issue: { title: string }) => issue.title)).toEqual(['form%ED%A0%80']);
      for (const path of ['/api/v4/users/%ED%A0%80', `/api/v4/projects/${projectId}/issues/%ED%A0%80`]) {
        const res = await get(path);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: { error: '404 Not Found' } });
      }
    });
  });

  describe('JSON null for a required column', () => {
    it('is a 400 naming the attribute, as a blank attribute in GitLab, not a 500 of PostgreSQL', async () => {
      const issue = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/issues`, { token: gw.rootToken, body: { title: 'nulls' } });
      const path = `/api/v4/projects/${projectId}/issues/${issue.body.iid}`;
      for (const attribute of ['title', 'confidential', 'issue_type']) {
        const res = await api(gw.baseUrl, 'PUT', path, { token: gw.rootToken, body: { [attribute]: null } });
        expect({ attribute, status: res.status, body: res.body }).toEqual({ attribute, status: 400, body: { message: { [attribute]: ["can't be blank"] } } });
      }
      expect((await get(path)).body).toMatchObject({ title: 'nulls', confidential: false, issue_type: 'issue' });
      // A null that clears stays a clear.
      expect((await api(gw.baseUrl, 'PUT', path, { token: gw.rootToken, body: { description: null } })).status).toBe(200);
    });
  });

  describe('a lookup started before a parameter check', () => {
    it('does not outlive the 400: every resource event route answers and the process stays up', async () => {
      const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: gw.rootToken, body: { name: 'public-events', visibility: 'public' } });
      expect(project.status).toBe(201);
      const routes = [
        'issues/999/resource_state_events',
        'issues/999/resource_milestone_events',
        'issues/999/resource_weight_events',
        'merge_requests/1/resource_state_events',
        'merge_requests/1/resource_milestone_events',
      ];
      for (const route of routes) {
        // Anonymous: the project is public. The issue and merge request do not exist.
        const res = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.body.id}/${route}/abc`);
        expect({ route, status: res.status }).toEqual({ route, status: 400 });
        expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.body.id}/${route}/1`)).status).toBe(404);
      }
      // The lookups that were not started cannot reject later; the gateway still answers.
      await new Promise((resolve) => setImmediate(resolve));
      expect((await api(gw.baseUrl, 'GET', '/-/readiness')).status).toBe(200);
    });
  });

  describe('deeply nested JSON', () => {
    const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

    it('is refused with 400 on ordinary routes, never a 500', async () => {
      for (const body of [`{"title":"deep","x":${nested(5000)}}`, `{"title":"deep","x":${'['.repeat(5000)}${']'.repeat(5000)}}`]) {
        const res = await fetch(`${gw.baseUrl}/api/v4/projects/${projectId}/issues`, {
          method: 'POST',
          headers: { 'PRIVATE-TOKEN': gw.rootToken, 'content-type': 'application/json' },
          body,
        });
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ message: '400 Bad request - The request body is nested deeper than 100 levels' });
      }
    });

    it('is accepted up to the limit', async () => {
      const res = await fetch(`${gw.baseUrl}/api/v4/projects/${projectId}/issues`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': gw.rootToken, 'content-type': 'application/json' },
        body: `{"title":"ok","x":${nested(99)}}`,
      });
      expect(res.status).toBe(201);
    });

    it('is refused on the test-alert endpoint too', async () => {
      const user = await createUserWithToken(gw, 'deep-maintainer');
      expect(user.id).toBeGreaterThan(0);
      const integration = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/alert_management/http_integrations`, {
        token: gw.rootToken,
        body: { name: 'deep' },
      });
      expect(integration.status).toBe(201);
      const res = await fetch(`${gw.baseUrl}/api/v4/projects/${projectId}/alert_management/http_integrations/${integration.body.id}/test`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': gw.rootToken, 'content-type': 'application/json' },
        body: `{"title":"deep","x":${nested(5000)}}`,
      });
      expect(res.status).toBe(400);
    });
  });
});
