import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

const NOT_AVAILABLE = { message: '405 Method Not Allowed - Keyset pagination is not yet available for this type of request' };

/** The `rel="next"` URL of a keyset page (the only relation it may carry), or null at the end. */
function nextLink(headers: Headers): string | null {
  const link = headers.get('link');
  if (!link) return null;
  const relations = [...link.matchAll(/<([^>]+)>; rel="([^"]+)"/g)];
  expect(relations.map((relation) => relation[2])).toEqual(['next']);
  return relations[0][1];
}

/** Keyset pagination on the lists GitLab paginates by keyset; 405 everywhere else. */
describe('Keyset pagination', () => {
  let gw: TestGateway;
  let projectId: number;

  beforeAll(async () => {
    gw = await startTestGateway('keyset-lists');
    for (const name of ['delta', 'alpha', 'charlie', 'bravo']) {
      const res = await api(gw.baseUrl, 'POST', '/api/v4/groups', { token: gw.rootToken, body: { name, path: name, visibility: 'public' } });
      expect(res.status).toBe(201);
    }
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: gw.rootToken, body: { name: 'events', visibility: 'public' } });
    projectId = project.body.id;
    // Events are written by the projector from Kafka; the listing is what is tested here, so rows are inserted directly.
    await gw.dataSource.query(
      `INSERT INTO events (source_event_id, project_id, author_id, action, target_type, created_at)
       SELECT gen_random_uuid(), $1, 1, 'created', NULL, now() - make_interval(mins => n) FROM generate_series(1, 5) AS n`,
      [projectId],
    );
    for (const name of ['kuser-b', 'kuser-a', 'kuser-c']) await createUserWithToken(gw, name);
  });
  afterAll(() => gw.close());

  /** Follows `rel="next"` from `first` to the end; returns the pages' items. */
  async function walk(first: string, token?: string): Promise<any[][]> {
    const pages: any[][] = [];
    let url: string | null = `${gw.baseUrl}${first}`;
    while (url !== null && pages.length < 50) {
      const res = await api(gw.baseUrl, 'GET', url.slice(gw.baseUrl.length), { token });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBeNull();
      pages.push(res.body);
      url = nextLink(res.headers);
    }
    return pages;
  }

  it('pages groups by name, ascending, with one rel="next" link (anonymous and authenticated)', async () => {
    for (const token of [undefined, gw.rootToken]) {
      const pages = await walk('/api/v4/groups?pagination=keyset&order_by=name&sort=asc&per_page=1', token);
      expect(pages.flat().map((group) => group.name)).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
      expect(pages.slice(0, 4).every((page) => page.length === 1)).toBe(true);
    }
  });

  it('refuses other group orders with 405', async () => {
    for (const query of ['order_by=id', 'order_by=name&sort=desc', 'order_by=path']) {
      const res = await api(gw.baseUrl, 'GET', `/api/v4/groups?pagination=keyset&${query}`);
      expect({ query, status: res.status, body: res.body }).toEqual({ query, status: 405, body: NOT_AVAILABLE });
    }
  });

  it('pages users by id and by username', async () => {
    const byId = (await walk('/api/v4/users?pagination=keyset&order_by=id&sort=asc&per_page=2', gw.rootToken)).flat();
    expect(byId.map((user) => user.id)).toEqual([...byId.map((user) => user.id)].sort((a, b) => a - b));
    expect(byId.length).toBeGreaterThanOrEqual(4);
    const byName = (await walk('/api/v4/users?pagination=keyset&order_by=username&sort=asc&per_page=2&search=kuser', gw.rootToken)).flat();
    expect(byName.map((user) => user.username)).toEqual(['kuser-a', 'kuser-b', 'kuser-c']);
  });

  it('pages the event lists by id, newest first by default', async () => {
    for (const list of ['/api/v4/events', `/api/v4/projects/${projectId}/events`, '/api/v4/users/1/events']) {
      const events = (await walk(`${list}?pagination=keyset&per_page=2`, gw.rootToken)).flat();
      expect(events.length).toBeGreaterThanOrEqual(3);
      const ids = events.map((event) => event.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      const ascending = (await walk(`${list}?pagination=keyset&sort=asc&per_page=2`, gw.rootToken)).flat().map((event) => event.id);
      expect(ascending).toEqual([...ids].reverse());
    }
  });

  it('pages projects of a user by id', async () => {
    const projects = (await walk('/api/v4/users/1/projects?pagination=keyset&order_by=id&sort=asc&per_page=1', gw.rootToken)).flat();
    expect(projects.map((project) => project.id)).toEqual([projectId]);
  });

  it('answers 405 on lists without keyset pagination', async () => {
    for (const list of [`/api/v4/projects/${projectId}/issues`, '/api/v4/topics', `/api/v4/projects/${projectId}/members`]) {
      const res = await api(gw.baseUrl, 'GET', `${list}?pagination=keyset`, { token: gw.rootToken });
      expect({ list, status: res.status, body: res.body }).toEqual({ list, status: 405, body: NOT_AVAILABLE });
    }
  });
});
