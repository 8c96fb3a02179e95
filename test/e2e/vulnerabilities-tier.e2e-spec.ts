import { Gitlab } from '@gitbeaker/rest';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

const ROUTES = (projectId: number): Array<[string, string]> => [
  ['GET', `/projects/${projectId}/vulnerabilities`],
  ['POST', `/projects/${projectId}/vulnerabilities?finding_id=1`],
  ['GET', `/projects/${projectId}/vulnerability_findings`],
  ['GET', '/vulnerabilities/1'],
  ['POST', '/vulnerabilities/1/confirm'],
  ['POST', '/vulnerabilities/1/resolve'],
  ['POST', '/vulnerabilities/1/dismiss'],
  ['POST', '/vulnerabilities/1/revert'],
];

/** Vulnerabilities are ULTIMATE: PREMIUM and FREE instances refuse every route with 403 naming the tier. */
describe.each(['premium', 'free'])('Vulnerabilities on the %s tier', (tier) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(`vulnerabilities-${tier}`, { SERVICE_TIER: tier });
  });
  afterAll(() => gw?.close());

  it('answers 403 naming the ULTIMATE tier, for the project routes and the single-vulnerability routes', async () => {
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: gw.rootToken, body: { name: 'Scanned' } });
    expect(project.status).toBe(201);
    for (const [method, path] of [...ROUTES(project.body.id), ['GET', '/projects/999999/vulnerabilities']]) {
      const response = await api(gw.baseUrl, method, `/api/v4${path}`, { token: gw.rootToken });
      expect({ method, path, status: response.status, body: response.body }).toEqual({
        method,
        path,
        status: 403,
        body: { message: '403 Forbidden - This feature requires the ULTIMATE tier' },
      });
    }
    const client = new Gitlab({ host: gw.baseUrl, token: gw.rootToken, rateLimits: {} });
    await expect(client.ProjectVulnerabilities.all(project.body.id)).rejects.toMatchObject({ cause: { response: { status: 403 } } });
  });
});
