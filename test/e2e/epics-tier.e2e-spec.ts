import { api, startTestGateway, TestGateway } from './support/test-gateway';

/** Epics and their notes are ULTIMATE: a PREMIUM instance refuses them with 403. */
describe('Epics below ULTIMATE', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway('epics-tier', { SERVICE_TIER: 'premium' });
  });
  afterAll(() => gw?.close());

  it('answers 403 naming the tier for epics and epic notes', async () => {
    const group = await api(gw.baseUrl, 'POST', '/api/v4/groups', { token: gw.rootToken, body: { name: 'Ops', path: 'ops' } });
    for (const [method, path] of [
      ['GET', `/groups/${group.body.id}/epics`],
      ['POST', `/groups/${group.body.id}/epics`],
      ['GET', `/groups/${group.body.id}/epics/1000000001/notes`],
      ['POST', `/groups/${group.body.id}/epics/1000000001/notes`],
    ]) {
      const response = await api(gw.baseUrl, method, `/api/v4${path}`, {
        token: gw.rootToken,
        body: method === 'POST' ? { title: 'x', body: 'x' } : undefined,
      });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: '403 Forbidden - This feature requires the ULTIMATE tier' });
    }
  });
});
