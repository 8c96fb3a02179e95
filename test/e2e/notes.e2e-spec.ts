import { Gitlab } from '@gitbeaker/rest';
import { seedBranches } from './support/git-fixture';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

type Client = InstanceType<typeof Gitlab>;

/** Issue and merge request notes over HTTP: GitLab shapes, pagination, limits, permissions and outbox events. */
describe('Issue and merge request notes', () => {
  let gw: TestGateway;
  const users: Record<string, { id: number; token: string }> = {};
  const clients: Record<string, Client> = {};
  const ids: Record<string, number> = {};
  const as = (who: string) => ({ token: who === 'root' ? gw.rootToken : users[who].token });
  const call = (who: string | null, method: string, path: string, body?: unknown) =>
    api(gw.baseUrl, method, `/api/v4${path}`, { ...(who ? as(who) : {}), body });
  const issueNotes = (iid = 1, suffix = '') => `/projects/${ids.project}/issues/${iid}/notes${suffix}`;
  const outbox = async (type: string) =>
    ((await gw.dataSource.query(`SELECT payload FROM outbox_events WHERE payload->>'type' = $1 ORDER BY seq`, [type])) as { payload: any }[]).map(
      (r) => r.payload,
    );
  const noteCount = async () => Number((await gw.dataSource.query('SELECT count(*)::int AS n FROM notes'))[0].n);

  beforeAll(async () => {
    gw = await startTestGateway('notes');
    clients.root = new Gitlab({ host: gw.baseUrl, token: gw.rootToken, rateLimits: {} });
    for (const name of ['owen', 'mae', 'dev', 'rhea', 'gus', 'stranger']) {
      const user = await createUserWithToken(gw, name);
      users[name] = user;
      clients[name] = new Gitlab({ host: gw.baseUrl, token: user.token, rateLimits: {} });
    }
    ids.group = (await call('owen', 'POST', '/groups', { name: 'Ops', path: 'ops' })).body.id;
    ids.project = (await call('owen', 'POST', '/projects', { name: 'pager', namespace_id: ids.group, visibility: 'private' })).body.id;
    for (const [who, level] of [
      ['mae', 40],
      ['dev', 30],
      ['rhea', 20],
      ['gus', 10],
    ] as const)
      await addProjectMember(gw, ids.project, users[who].id, level);
    expect((await call('rhea', 'POST', `/projects/${ids.project}/issues`, { title: 'Disk full' })).body.iid).toBe(1);
    expect((await call('rhea', 'POST', `/projects/${ids.project}/issues`, { title: 'CPU hot' })).body.iid).toBe(2);
    await seedBranches(gw, ids.project, 'main', ['fix-disk']);
    const mr = await call('dev', 'POST', `/projects/${ids.project}/merge_requests`, { title: 'Fix disk', source_branch: 'fix-disk', target_branch: 'main' });
    expect(mr.status).toBe(201);
    ids.mr = mr.body.iid;
  });
  afterAll(() => gw?.close());

  it("creates, reads, lists, edits and deletes issue notes through a real client, in GitLab's shape", async () => {
    const created = await clients.gus.IssueNotes.create(ids.project, 1, 'Seeing this on db-1 too');
    expect(created).toMatchObject({
      body: 'Seeing this on db-1 too',
      attachment: null,
      system: false,
      noteable_id: expect.any(Number),
      noteable_type: 'Issue',
      noteable_iid: 1,
      resolvable: false,
      confidential: false,
      internal: false,
      author: { id: users.gus.id, username: 'gus', email: 'gus@example.com', created_at: expect.any(String) },
    });
    expect(created.created_at).toEqual(created.updated_at);
    ids.gusNote = created.id as number;

    // Others see the author without the e-mail; administrators see it.
    const seen = await clients.rhea.IssueNotes.show(ids.project, 1, ids.gusNote);
    expect(seen.body).toBe('Seeing this on db-1 too');
    expect(seen.author).not.toHaveProperty('email');
    expect((await clients.root.IssueNotes.show(ids.project, 1, ids.gusNote)).author).toMatchObject({ email: 'gus@example.com' });

    const edited = await clients.gus.IssueNotes.edit(ids.project, 1, ids.gusNote, { body: 'Seeing this on db-1 and db-2' });
    expect(edited.body).toBe('Seeing this on db-1 and db-2');
    // Issue notes take PUT without a body (nothing changes).
    expect((await call('gus', 'PUT', issueNotes(1, `/${ids.gusNote}`), {})).body.body).toBe('Seeing this on db-1 and db-2');

    const list = await clients.rhea.IssueNotes.all(ids.project, 1);
    expect(list.map((n) => n.id)).toEqual([ids.gusNote]);
    await clients.gus.IssueNotes.remove(ids.project, 1, ids.gusNote);
    expect((await call('gus', 'GET', issueNotes(1, `/${ids.gusNote}`))).status).toBe(404);

    const [createdEvent] = (await outbox('note.created')).filter((e) => e.target.id === ids.gusNote);
    expect(createdEvent).toMatchObject({
      actor: users.gus.id,
      project_id: ids.project,
      group_id: ids.group,
      target: { type: 'note', id: ids.gusNote, title: 'Disk full' },
      data: {
        note: {
          id: ids.gusNote,
          body: 'Seeing this on db-1 too',
          noteable_type: 'Issue',
          noteable_iid: 1,
          system: false,
          internal: false,
          author: { username: 'gus' },
        },
      },
    });
    expect(createdEvent.data.note.author).not.toHaveProperty('email');
    expect((await outbox('note.updated')).filter((e) => e.target.id === ids.gusNote).map((e) => e.data.note.body)).toEqual(['Seeing this on db-1 and db-2']);
    expect((await outbox('note.destroyed')).filter((e) => e.target.id === ids.gusNote)).toHaveLength(1);
  });

  it('sorts, orders and pages note lists with offset and keyset pagination', async () => {
    const made: number[] = [];
    for (let i = 0; i < 5; i++) made.push((await call('rhea', 'POST', issueNotes(2), { body: `note ${i}` })).body.id);
    // The oldest note is edited last: it leads by updated_at.
    await call('rhea', 'PUT', issueNotes(2, `/${made[0]}`), { body: 'note 0, edited' });

    expect((await call('rhea', 'GET', issueNotes(2))).body.map((n: any) => n.id)).toEqual([...made].reverse());
    expect((await call('rhea', 'GET', issueNotes(2, '?sort=asc'))).body.map((n: any) => n.id)).toEqual(made);
    expect((await call('rhea', 'GET', issueNotes(2, '?order_by=updated_at'))).body[0].id).toBe(made[0]);
    expect((await clients.rhea.IssueNotes.all(ids.project, 2, { sort: 'asc', orderBy: 'updated_at' })).map((n) => n.id)).toEqual([...made.slice(1), made[0]]);
    expect((await call('rhea', 'GET', issueNotes(2, '?sort=sideways'))).status).toBe(400);
    expect((await call('rhea', 'GET', issueNotes(2, '?order_by=body'))).status).toBe(400);

    const page = await call('rhea', 'GET', issueNotes(2, '?per_page=2&page=2&sort=asc'));
    expect(page.body.map((n: any) => n.id)).toEqual(made.slice(2, 4));
    expect(page.headers.get('x-total')).toBe('5');
    expect(page.headers.get('x-total-pages')).toBe('3');
    expect(page.headers.get('x-page')).toBe('2');
    expect(page.headers.get('x-next-page')).toBe('3');
    expect(page.headers.get('x-prev-page')).toBe('1');
    expect(page.headers.get('link')).toContain('rel="last"');

    // Keyset: only rel=next, followed until an empty page without Link.
    const seen: number[] = [];
    let next: string | null = `${gw.baseUrl}/api/v4${issueNotes(2, '?pagination=keyset&per_page=2&order_by=created_at&sort=asc')}`;
    let pages = 0;
    while (next && pages < 10) {
      const response: Awaited<ReturnType<typeof call>> = await api(gw.baseUrl, 'GET', next.slice(gw.baseUrl.length), as('rhea'));
      expect(response.status).toBe(200);
      seen.push(...response.body.map((n: any) => n.id));
      const link: string | null = response.headers.get('link');
      if (link) expect(link).not.toContain('rel="prev"');
      next = link ? /<([^>]+)>; rel="next"/.exec(link)![1] : null;
      if (next) expect(response.headers.get('x-total')).toBeNull();
      pages++;
    }
    expect(seen).toEqual(made);
    const keysetDesc = await clients.rhea.IssueNotes.all(ids.project, 2, { pagination: 'keyset', perPage: 2, orderBy: 'updated_at', sort: 'desc' } as any);
    expect(keysetDesc.map((n) => n.id)).toEqual([made[0], ...made.slice(1).reverse()]);
    expect((await call('rhea', 'GET', issueNotes(2, '?pagination=keyset&cursor=garbage!'))).status).toBe(400);
    // A well-formed cursor whose position is not a timestamp and an id: 400, not a database error.
    const edited = Buffer.from(JSON.stringify({ o: 'created_at', s: 'desc', v: 'yesterday', i: 'x' })).toString('base64url');
    expect((await call('rhea', 'GET', issueNotes(2, `?pagination=keyset&cursor=${edited}`))).status).toBe(400);

    // The last page, and a page past it: the total still in the headers, no next page.
    const last = await call('rhea', 'GET', issueNotes(2, '?per_page=2&page=3&sort=asc'));
    expect(last.body.map((n: any) => n.id)).toEqual([made[4]]);
    expect([last.headers.get('x-total'), last.headers.get('x-next-page'), last.headers.get('x-prev-page')]).toEqual(['5', '', '2']);
    const beyond = await call('rhea', 'GET', issueNotes(2, '?per_page=2&page=9'));
    expect(beyond.body).toEqual([]);
    expect([beyond.headers.get('x-total'), beyond.headers.get('x-total-pages'), beyond.headers.get('x-next-page')]).toEqual(['5', '3', '']);
    // The issue is looked up before the pagination parameters are read, as on every route.
    expect((await call('rhea', 'GET', issueNotes(999, '?page=abc'))).status).toBe(404);
    expect((await call('rhea', 'GET', issueNotes(2, '?page=abc'))).status).toBe(400);
  });

  it('refuses a body over 1,000,000 characters with a 400 and stores nothing, and requires a body', async () => {
    const before = await noteCount();
    const tooLong = await call('rhea', 'POST', issueNotes(1), { body: 'x'.repeat(1_000_001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ message: { note: ['is too long (maximum is 1000000 characters)'] } });
    expect(await noteCount()).toBe(before);
    const longest = await call('rhea', 'POST', issueNotes(1), { body: 'y'.repeat(1_000_000) });
    expect(longest.status).toBe(201);
    expect(longest.body.body).toHaveLength(1_000_000);
    const missing = await call('rhea', 'POST', issueNotes(1), {});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/body/);
    expect((await call('rhea', 'POST', issueNotes(1), { body: '   ' })).status).toBe(400);
    const editTooLong = await call('rhea', 'PUT', issueNotes(1, `/${longest.body.id}`), { body: 'z'.repeat(1_000_001) });
    expect(editTooLong.status).toBe(400);
    expect((await call('rhea', 'GET', issueNotes(1, `/${longest.body.id}`))).body.body[0]).toBe('y');
    await call('rhea', 'DELETE', issueNotes(1, `/${longest.body.id}`));
  });

  it('shows internal notes to Reporter+ and their author only, and lets only Reporter+ write them', async () => {
    const internal = await clients.rhea.IssueNotes.create(ids.project, 1, 'Root cause: a runaway log', { internal: true });
    expect(internal).toMatchObject({ internal: true, confidential: true });
    const legacy = await call('dev', 'POST', issueNotes(1), { body: 'also internal', confidential: true });
    expect(legacy.body.confidential).toBe(true);
    expect((await call('gus', 'POST', issueNotes(1), { body: 'psst', internal: true })).status).toBe(403);

    const guestView = await call('gus', 'GET', issueNotes(1, '?per_page=100'));
    expect(guestView.body.map((n: any) => n.id)).not.toContain(internal.id);
    expect((await call('gus', 'GET', issueNotes(1, `/${internal.id}`))).status).toBe(404);
    expect((await call('gus', 'PUT', issueNotes(1, `/${internal.id}`), { body: 'x' })).status).toBe(404);
    expect((await call('dev', 'GET', issueNotes(1, '?per_page=100'))).body.map((n: any) => n.id)).toEqual(
      expect.arrayContaining([internal.id, legacy.body.id]),
    );
    expect((await call('rhea', 'GET', issueNotes(1, `/${internal.id}`))).status).toBe(200);

    // The event says so, so that the event lists hide it from those who may not read it.
    const [event] = (await outbox('note.created')).filter((e) => e.target.id === internal.id);
    expect(event.data.note).toMatchObject({ internal: true, confidential: true });

    // A confidential issue's notes are as hidden as the issue.
    const secret = await call('rhea', 'POST', `/projects/${ids.project}/issues`, { title: 'CVE', confidential: true });
    expect((await call('rhea', 'POST', issueNotes(secret.body.iid), { body: 'patch ready' })).status).toBe(201);
    expect((await call('gus', 'GET', issueNotes(secret.body.iid))).status).toBe(404);
    expect((await call('gus', 'POST', issueNotes(secret.body.iid), { body: 'let me in' })).status).toBe(404);
  });

  it('honours created_at for owners and administrators only', async () => {
    const dated = await clients.owen.IssueNotes.create(ids.project, 1, 'imported', { createdAt: '2020-05-06T07:08:09Z' });
    expect(dated.created_at).toBe('2020-05-06T07:08:09.000Z');
    expect(dated.updated_at).toBe('2020-05-06T07:08:09.000Z');
    const byAdmin = await call('root', 'POST', issueNotes(1), { body: 'imported too', created_at: '2021-01-01T00:00:00Z' });
    expect(byAdmin.body.created_at).toBe('2021-01-01T00:00:00.000Z');
    const ignored = await call('mae', 'POST', issueNotes(1), { body: 'not backdated', created_at: '2020-05-06T07:08:09Z' });
    expect(ignored.status).toBe(201);
    expect(new Date(ignored.body.created_at).getUTCFullYear()).toBeGreaterThan(2020);
    expect((await call('owen', 'POST', issueNotes(1), { body: 'too old', created_at: '1969-12-31T23:59:59Z' })).status).toBe(400);
    expect((await call('owen', 'POST', issueNotes(1), { body: 'bad date', created_at: 'last tuesday' })).status).toBe(400);
  });

  it('lets only the author or an administrator edit, and the author or Maintainers+ delete', async () => {
    const note = (await call('dev', 'POST', issueNotes(1), { body: 'mine' })).body;
    expect((await call('mae', 'PUT', issueNotes(1, `/${note.id}`), { body: 'edited by mae' })).status).toBe(403);
    expect((await call('owen', 'PUT', issueNotes(1, `/${note.id}`), { body: 'edited by owen' })).status).toBe(403);
    expect((await call('root', 'PUT', issueNotes(1, `/${note.id}`), { body: 'edited by root' })).body.body).toBe('edited by root');
    expect((await call('rhea', 'DELETE', issueNotes(1, `/${note.id}`))).status).toBe(403);
    expect((await call('mae', 'DELETE', issueNotes(1, `/${note.id}`))).status).toBe(204);
    expect((await call('mae', 'DELETE', issueNotes(1, `/${note.id}`))).status).toBe(404);
    const own = (await call('gus', 'POST', issueNotes(1), { body: 'bye' })).body;
    expect((await call('gus', 'DELETE', issueNotes(1, `/${own.id}`))).status).toBe(204);
  });

  it('answers 401 without credentials, 404 for what the caller cannot reach, 400 for malformed ids', async () => {
    const note = (await call('rhea', 'POST', issueNotes(2), { body: 'on issue 2' })).body;
    expect((await call(null, 'GET', issueNotes(1))).status).toBe(401);
    expect((await call(null, 'POST', issueNotes(1), { body: 'anon' })).status).toBe(401);
    expect((await call('stranger', 'GET', issueNotes(1))).status).toBe(404);
    expect((await call('stranger', 'POST', issueNotes(1), { body: 'hi' })).status).toBe(404);
    expect((await call('rhea', 'GET', issueNotes(999))).status).toBe(404);
    // A note of issue 2 is not reachable through issue 1.
    expect((await call('rhea', 'GET', issueNotes(1, `/${note.id}`))).status).toBe(404);
    expect((await call('rhea', 'PUT', issueNotes(1, `/${note.id}`), { body: 'moved?' })).status).toBe(404);
    expect((await call('rhea', 'DELETE', issueNotes(1, `/${note.id}`))).status).toBe(404);
    expect((await call('rhea', 'GET', issueNotes(1, '/abc'))).status).toBe(400);
    expect((await call('rhea', 'GET', `/projects/${ids.project}/issues/abc/notes`)).status).toBe(400);
  });

  it('does the same for merge request notes, whose edits need a body', async () => {
    const note = await clients.dev.MergeRequestNotes.create(ids.project, ids.mr, 'Ready for review');
    expect(note).toMatchObject({ noteable_type: 'MergeRequest', noteable_iid: ids.mr, body: 'Ready for review', internal: false });
    expect((await clients.rhea.MergeRequestNotes.all(ids.project, ids.mr)).map((n) => n.id)).toEqual([note.id]);
    expect((await clients.dev.MergeRequestNotes.show(ids.project, ids.mr, note.id as number)).body).toBe('Ready for review');
    expect((await call('dev', 'PUT', `/projects/${ids.project}/merge_requests/${ids.mr}/notes/${note.id}`, {})).status).toBe(400);
    expect((await clients.dev.MergeRequestNotes.edit(ids.project, ids.mr, note.id as number, { body: 'Ready!' })).body).toBe('Ready!');
    // `confidential` does not apply to merge request notes here (issues and epics only).
    expect((await call('dev', 'POST', `/projects/${ids.project}/merge_requests/${ids.mr}/notes`, { body: 'x', confidential: true })).body.internal).toBe(false);
    await clients.dev.MergeRequestNotes.remove(ids.project, ids.mr, note.id as number);
    expect((await call('dev', 'GET', `/projects/${ids.project}/merge_requests/${ids.mr}/notes/${note.id}`)).status).toBe(404);
    expect((await call('dev', 'GET', `/projects/${ids.project}/merge_requests/99/notes`)).status).toBe(404);
    const [event] = (await outbox('note.created')).filter((e) => e.target.id === note.id);
    expect(event).toMatchObject({ target: { title: 'Fix disk' }, data: { note: { noteable_type: 'MergeRequest', noteable_iid: ids.mr } } });
  });

  it('limits note creation per user and minute by notes_create_limit, with the allowlist exempt, storing nothing when refused', async () => {
    // A user who has not written notes yet this minute.
    users.burst = await createUserWithToken(gw, 'burst');
    users.calm = await createUserWithToken(gw, 'calm');
    for (const who of ['burst', 'calm']) await addProjectMember(gw, ids.project, users[who].id, 10);
    expect((await call('root', 'PUT', '/application/settings', { notes_create_limit: 2 })).status).toBe(200);
    const before = await noteCount();
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 5; i++) {
      const response = await call('burst', 'POST', issueNotes(2), { body: `burst ${i}` });
      statuses.push(response.status);
      if (response.status === 429) limited ??= response;
    }
    // Two per one-minute window: five quick calls span at most two windows.
    expect(statuses.slice(0, 2)).toEqual([201, 201]);
    expect(limited).toBeDefined();
    expect(limited!.body).toEqual({ message: 'Retry later' });
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await noteCount()).toBe(before + statuses.filter((s) => s === 201).length);
    // Another user is not affected; an allowlisted user is not limited.
    expect((await call('calm', 'POST', issueNotes(2), { body: 'not limited' })).status).toBe(201);
    const settings = await call('root', 'PUT', '/application/settings', { notes_create_limit_allowlist: ['BURST'] });
    expect(settings.body.notes_create_limit_allowlist).toEqual(['BURST']);
    for (let i = 0; i < 3; i++) expect((await call('burst', 'POST', issueNotes(2), { body: `allowed ${i}` })).status).toBe(201);
    expect((await call('root', 'PUT', '/application/settings', { notes_create_limit: 0, notes_create_limit_allowlist: [] })).status).toBe(200);
  });
});
