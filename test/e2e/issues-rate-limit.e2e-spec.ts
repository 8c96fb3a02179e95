import { api, startTestGateway, TestGateway } from './support/test-gateway';

/** `issues_create_limit` caps issue creation per user and minute (application settings). */
describe('Issue creation rate limit', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway('issues-rate');
  });
  afterAll(() => gw.close());

  it('answers 429 with Retry-After beyond the cap, for that user only', async () => {
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: gw.rootToken, body: { name: 'limited', visibility: 'public' } });
    const other = await api(gw.baseUrl, 'POST', '/api/v4/users', {
      token: gw.rootToken,
      body: { username: 'other', name: 'Other', email: 'other@example.com', password: 'long-enough-1' },
    });
    const otherToken = (
      await api(gw.baseUrl, 'POST', `/api/v4/users/${other.body.id}/personal_access_tokens`, { token: gw.rootToken, body: { name: 't', scopes: ['api'] } })
    ).body.token;
    expect((await api(gw.baseUrl, 'PUT', '/api/v4/application/settings', { token: gw.rootToken, body: { issues_create_limit: 2 } })).status).toBe(200);

    // At most two per one-minute window: five quick calls span at most two windows, so at
    // least one is refused whatever the clock does.
    const responses = [];
    for (let i = 0; i < 5; i++) {
      responses.push(await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.body.id}/issues`, { token: gw.rootToken, body: { title: `issue ${i}` } }));
    }
    expect(responses.slice(0, 2).map((r) => r.status)).toEqual([201, 201]);
    const limited = responses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(responses.filter((r) => r.status === 201).length).toBeLessThanOrEqual(4);
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited[0].body).toEqual({ message: 'Retry later' });
    const byOther = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.body.id}/issues`, { token: otherToken, body: { title: 'not limited' } });
    expect(byOther.status).toBe(201);
  });
});
