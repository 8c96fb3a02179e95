import { Gitlab } from '@gitbeaker/rest';
import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

type Client = InstanceType<typeof Gitlab>;

/** Group epics (ULTIMATE) and epic notes over HTTP through a real client: per-group iids, permissions, notes addressed by epic id. */
describe('Epics and epic notes', () => {
  let gw: TestGateway;
  const users: Record<string, { id: number; token: string }> = {};
  const clients: Record<string, Client> = {};
  const ids: Record<string, number> = {};
  const call = (who: string | null, method: string, path: string, body?: unknown) =>
    api(gw.baseUrl, method, `/api/v4${path}`, { token: who === null ? undefined : who === 'root' ? gw.rootToken : users[who].token, body });
  const outbox = async (type: string) =>
    ((await gw.dataSource.query(`SELECT payload FROM outbox_events WHERE payload->>'type' = $1 ORDER BY seq`, [type])) as { payload: any }[]).map(
      (r) => r.payload,
    );

  beforeAll(async () => {
    gw = await startTestGateway('epics');
    for (const name of ['owen', 'rhea', 'gus', 'stranger']) {
      users[name] = await createUserWithToken(gw, name);
      clients[name] = new Gitlab({ host: gw.baseUrl, token: users[name].token, rateLimits: {} });
    }
    ids.other = (await call('stranger', 'POST', '/groups', { name: 'Other', path: 'other' })).body.id;
    ids.group = (await call('owen', 'POST', '/groups', { name: 'Ops', path: 'ops', visibility: 'public' })).body.id;
    for (const [who, level] of [
      ['rhea', 20],
      ['gus', 10],
    ] as const) {
      expect((await call('owen', 'POST', `/groups/${ids.group}/members`, { user_id: users[who].id, access_level: level })).status).toBe(201);
    }
  });
  afterAll(() => gw?.close());

  it('creates epics with per-group iids and reads, lists, edits, closes, reopens and deletes them', async () => {
    const foreign = await call('stranger', 'POST', `/groups/${ids.other}/epics`, { title: 'elsewhere' });
    expect(foreign.body.iid).toBe(1);
    ids.foreign = foreign.body.id;
    const epic = await clients.rhea.Epics.create(ids.group, 'Reliability', {
      description: 'fewer pages',
      labels: 'ops,sre',
      startDateIsFixed: true,
      startDateFixed: '2030-01-01',
      dueDateIsFixed: true,
      dueDateFixed: '2030-03-31',
    } as any);
    expect(epic).toMatchObject({
      iid: 1,
      group_id: ids.group,
      title: 'Reliability',
      description: 'fewer pages',
      state: 'opened',
      labels: ['ops', 'sre'],
      confidential: false,
      start_date: '2030-01-01',
      due_date: '2030-03-31',
      author: { id: users.rhea.id, username: 'rhea' },
      web_url: `${gw.config.http.externalUrl}/groups/ops/-/epics/1`,
      closed_at: null,
    });
    ids.epic = epic.id as number;
    ids.epicIid = epic.iid as number;
    expect(ids.epic).toBeGreaterThan(1_000_000_000);
    const second = await clients.rhea.Epics.create(ids.group, 'Cost');
    expect(second.iid).toBe(2);
    ids.second = second.id as number;

    expect((await clients.gus.Epics.show(ids.group, 1)).title).toBe('Reliability');
    expect((await clients.gus.Epics.all(ids.group)).map((e) => e.iid)).toEqual([2, 1]);
    expect((await call('gus', 'GET', `/groups/${ids.group}/epics?labels=sre`)).body.map((e: any) => e.iid)).toEqual([1]);
    const edited = await clients.rhea.Epics.edit(ids.group, 1, { title: 'Reliability 2030', stateEvent: 'close' } as any);
    expect(edited).toMatchObject({ title: 'Reliability 2030', state: 'closed', closed_at: expect.any(String) });
    expect((await call('rhea', 'PUT', `/groups/${ids.group}/epics/1`, { state_event: 'reopen' })).body.state).toBe('opened');
    expect((await call('gus', 'PUT', `/groups/${ids.group}/epics/1`, { title: 'guest edit' })).status).toBe(403);
    expect((await call('gus', 'POST', `/groups/${ids.group}/epics`, { title: 'guest epic' })).status).toBe(403);
    expect((await call('rhea', 'POST', `/groups/${ids.group}/epics`, {})).status).toBe(400);
    expect((await call('rhea', 'POST', `/groups/${ids.group}/epics`, { title: 'x', start_date: '2030-02-01', due_date: '2030-01-01' })).status).toBe(400);
    expect((await call('gus', 'GET', `/groups/${ids.group}/epics/99`)).status).toBe(404);
    expect((await call('gus', 'GET', `/groups/${ids.group}/epics/abc`)).status).toBe(400);

    const doomed = (await call('rhea', 'POST', `/groups/${ids.group}/epics`, { title: 'doomed' })).body;
    expect((await call('rhea', 'DELETE', `/groups/${ids.group}/epics/${doomed.iid}`)).status).toBe(403);
    await clients.owen.Epics.remove(ids.group, doomed.iid);
    expect((await call('owen', 'GET', `/groups/${ids.group}/epics/${doomed.iid}`)).status).toBe(404);
    expect((await outbox('epic.created')).map((e) => e.target.title)).toEqual(['elsewhere', 'Reliability', 'Cost', 'doomed']);
    expect(await outbox('epic.closed')).toHaveLength(1);
    expect(await outbox('epic.destroyed')).toHaveLength(1);
  });

  it('hides confidential epics below Reporter', async () => {
    const secret = (await call('rhea', 'POST', `/groups/${ids.group}/epics`, { title: 'Layoffs', confidential: true })).body;
    expect((await call('gus', 'GET', `/groups/${ids.group}/epics/${secret.iid}`)).status).toBe(404);
    expect((await call('gus', 'GET', `/groups/${ids.group}/epics`)).body.map((e: any) => e.title)).not.toContain('Layoffs');
    expect((await call('rhea', 'GET', `/groups/${ids.group}/epics/${secret.iid}`)).status).toBe(200);
    expect((await call('gus', 'GET', `/groups/${ids.group}/epics/${secret.id}/notes`)).status).toBe(404);
    ids.secret = secret.id;
  });

  it('comments on epics by epic id through a real client, internal notes for Reporter+ only', async () => {
    const note = await clients.gus.EpicNotes.create(ids.group, ids.epic, 'Count me in');
    expect(note).toMatchObject({
      body: 'Count me in',
      noteable_type: 'Epic',
      noteable_id: ids.epic,
      noteable_iid: null,
      title: 'Reliability 2030',
      confidential: false,
      author: { username: 'gus' },
    });
    expect((await clients.stranger.EpicNotes.all(ids.group, ids.epic)).map((n) => n.id)).toEqual([note.id]);
    expect((await clients.rhea.EpicNotes.show(ids.group, ids.epic, note.id as number)).body).toBe('Count me in');
    expect((await clients.gus.EpicNotes.edit(ids.group, ids.epic, note.id as number, { body: 'Count me in!' })).body).toBe('Count me in!');
    expect((await call('gus', 'PUT', `/groups/${ids.group}/epics/${ids.epic}/notes/${note.id}`, {})).status).toBe(400);
    const internal = await call('rhea', 'POST', `/groups/${ids.group}/epics/${ids.epic}/notes`, { body: 'budget is tight', confidential: true });
    expect(internal.body).toMatchObject({ confidential: true, internal: true });
    expect((await call('gus', 'GET', `/groups/${ids.group}/epics/${ids.epic}/notes`)).body.map((n: any) => n.id)).toEqual([note.id]);
    expect((await call('gus', 'POST', `/groups/${ids.group}/epics/${ids.epic}/notes`, { body: 'x', internal: true })).status).toBe(403);
    // Group owners date notes.
    expect(
      (await call('owen', 'POST', `/groups/${ids.group}/epics/${ids.epic}/notes`, { body: 'old', created_at: '2019-01-01T00:00:00Z' })).body.created_at,
    ).toBe('2019-01-01T00:00:00.000Z');
    await clients.owen.EpicNotes.remove(ids.group, ids.epic, note.id as number);
    expect((await call('gus', 'GET', `/groups/${ids.group}/epics/${ids.epic}/notes/${note.id}`)).status).toBe(404);
    const [event] = (await outbox('note.created')).filter((e) => e.target.id === note.id);
    expect(event).toMatchObject({ project_id: null, group_id: ids.group, data: { note: { noteable_type: 'Epic', noteable_id: ids.epic } } });
  });

  it('runs /close, /reopen, /label, /unlabel and /relabel in epic notes for Reporter+, through the epic update', async () => {
    const path = `/groups/${ids.group}/epics/${ids.second}/notes`;
    for (const name of ['infra', 'cost cut']) expect((await call('owen', 'POST', `/groups/${ids.group}/labels`, { name, color: '#428BCA' })).status).toBe(201);
    // A guest may not: the lines stay text of a note.
    const byGuest = await call('gus', 'POST', path, { body: '/close\n/label ~infra' });
    expect(byGuest.status).toBe(201);
    expect(byGuest.body.body).toBe('/close\n/label ~infra');
    const applied = await call('rhea', 'POST', path, { body: '/label ~infra ~"cost cut" ~missing\n/close' });
    expect(applied.status).toBe(202);
    expect(applied.body).toEqual({
      commands_changes: { add_label_ids: [expect.any(Number), expect.any(Number)], state_event: 'close' },
      summary: ['Added ~infra ~"cost cut" labels.', 'Closed this epic.'],
    });
    expect((await call('rhea', 'GET', `/groups/${ids.group}/epics/2`)).body).toMatchObject({ state: 'closed', labels: ['infra', 'cost cut'] });
    const unlabel = await call('rhea', 'POST', path, { body: 'Back on.\n/reopen\n/unlabel ~infra' });
    expect(unlabel.status).toBe(201);
    expect(unlabel.body).toMatchObject({ body: 'Back on.', commands_changes: { state_event: 'reopen', remove_label_ids: [expect.any(Number)] } });
    expect((await call('rhea', 'GET', `/groups/${ids.group}/epics/2`)).body).toMatchObject({ state: 'opened', labels: ['cost cut'] });
    expect((await call('rhea', 'POST', path, { body: '/relabel ~infra' })).body.summary).toEqual(['Replaced all labels with ~infra label.']);
    expect((await call('rhea', 'POST', path, { body: '/unlabel' })).body.summary).toEqual(['Removed all labels.']);
    expect((await call('rhea', 'GET', `/groups/${ids.group}/epics/2`)).body.labels).toEqual([]);
    // Issue commands are text on epics.
    expect((await call('rhea', 'POST', path, { body: '/weight 3' })).body.body).toBe('/weight 3');
    expect((await outbox('epic.closed')).filter((e) => e.target.id === ids.second)).toHaveLength(1);
    expect((await outbox('epic.reopened')).filter((e) => e.target.id === ids.second)).toHaveLength(1);
  });

  it("answers 404 when an epic iid is used where the notes routes expect its id, and for another group's epic", async () => {
    for (const iid of [ids.epicIid, 2]) {
      expect((await call('rhea', 'GET', `/groups/${ids.group}/epics/${iid}/notes`)).status).toBe(404);
      expect((await call('rhea', 'POST', `/groups/${ids.group}/epics/${iid}/notes`, { body: 'lost' })).status).toBe(404);
    }
    expect(Number((await gw.dataSource.query(`SELECT count(*)::int AS n FROM notes WHERE body = 'lost'`))[0].n)).toBe(0);
    expect((await call('stranger', 'GET', `/groups/${ids.other}/epics/${ids.epic}/notes`)).status).toBe(404);
    expect((await call('rhea', 'GET', `/groups/${ids.group}/epics/${ids.foreign}/notes`)).status).toBe(404);
    expect((await call('rhea', 'GET', `/groups/${ids.group}/epics/${ids.second}/notes`)).status).toBe(200);
    expect((await call(null, 'GET', `/groups/${ids.group}/epics/${ids.epic}/notes`)).status).toBe(401);
    expect((await call('rhea', 'GET', `/groups/${ids.group}/epics/xyz/notes`)).status).toBe(400);
  });
});
