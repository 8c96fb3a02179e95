import { Gitlab } from '@gitbeaker/rest';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

type Client = InstanceType<typeof Gitlab>;

/** Project snippets and their notes over HTTP, through a real client: files, raw content, visibility, feature access, events. */
describe('Project snippets and snippet notes', () => {
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
    gw = await startTestGateway('snippets');
    for (const name of ['owen', 'mae', 'rhea', 'gus', 'stranger']) {
      users[name] = await createUserWithToken(gw, name);
      clients[name] = new Gitlab({ host: gw.baseUrl, token: users[name].token, rateLimits: {} });
    }
    ids.project = (await call('owen', 'POST', '/projects', { name: 'runbooks', visibility: 'public' })).body.id;
    for (const [who, level] of [
      ['mae', 40],
      ['rhea', 20],
      ['gus', 10],
    ] as const)
      await addProjectMember(gw, ids.project, users[who].id, level);
  });
  afterAll(() => gw?.close());

  it('creates a snippet of several files, reads it, its raw content and each file, untruncated', async () => {
    const big = 'line\n'.repeat(100_000);
    const snippet = await clients.rhea.ProjectSnippets.create(ids.project, 'Restart db', {
      description: 'how to restart the database',
      visibility: 'public',
      files: [
        { filePath: 'restart.sh', content: 'systemctl restart postgresql\n' },
        { filePath: 'notes/big.txt', content: big },
      ],
    });
    expect(snippet).toMatchObject({
      title: 'Restart db',
      description: 'how to restart the database',
      visibility: 'public',
      file_name: 'restart.sh',
      project_id: ids.project,
      expires_at: null,
      author: { id: users.rhea.id, username: 'rhea' },
    });
    ids.snippet = snippet.id as number;
    const webUrl = `${gw.config.http.externalUrl}/owen/runbooks/-/snippets/${ids.snippet}`;
    expect(snippet.web_url).toBe(webUrl);
    expect(snippet.raw_url).toBe(`${webUrl}/raw`);
    expect(snippet.files).toEqual([
      { path: 'restart.sh', raw_url: `${webUrl}/raw/main/restart.sh` },
      { path: 'notes/big.txt', raw_url: `${webUrl}/raw/main/notes/big.txt` },
    ]);
    expect(await clients.gus.ProjectSnippets.showContent(ids.project, ids.snippet)).toBe('systemctl restart postgresql\n');
    const raw = await call(null, 'GET', `/projects/${ids.project}/snippets/${ids.snippet}/files/main/${encodeURIComponent('notes/big.txt')}/raw`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(raw.text).toBe(big);
    expect((await call(null, 'GET', `/projects/${ids.project}/snippets/${ids.snippet}/files/main/nope.txt/raw`)).status).toBe(404);
    expect((await clients.stranger.ProjectSnippets.show(ids.project, ids.snippet)).title).toBe('Restart db');
    expect((await outbox('snippet.created'))[0]).toMatchObject({
      actor: users.rhea.id,
      project_id: ids.project,
      target: { type: 'snippet', id: ids.snippet, title: 'Restart db' },
    });
  });

  it('accepts the single-file form and refuses what is missing or malformed', async () => {
    const single = await call('rhea', 'POST', `/projects/${ids.project}/snippets`, { title: 'one', file_name: 'a.txt', content: 'A', visibility: 'internal' });
    expect(single.status).toBe(201);
    expect(single.body).toMatchObject({ file_name: 'a.txt', visibility: 'internal', files: [{ path: 'a.txt' }] });
    ids.internal = single.body.id;
    expect((await call('rhea', 'POST', `/projects/${ids.project}/snippets`, { title: 'none' })).status).toBe(400);
    expect((await call('rhea', 'POST', `/projects/${ids.project}/snippets`, { content: 'x' })).status).toBe(400);
    const dup = await call('rhea', 'POST', `/projects/${ids.project}/snippets`, {
      title: 'dup',
      files: [
        { file_path: 'a', content: '1' },
        { file_path: 'a', content: '2' },
      ],
    });
    expect(dup.status).toBe(400);
    expect(dup.body.message.files).toEqual(['have duplicate paths']);
    expect((await call('rhea', 'POST', `/projects/${ids.project}/snippets`, { title: 'v', content: 'x', visibility: 'secret' })).status).toBe(400);
    expect((await call('gus', 'POST', `/projects/${ids.project}/snippets`, { title: 'by guest', content: 'x' })).status).toBe(403);
    expect((await call(null, 'POST', `/projects/${ids.project}/snippets`, { title: 'anon', content: 'x' })).status).toBe(401);
  });

  it('edits files and attributes as the author or a Maintainer, and deletes', async () => {
    const edited = await clients.rhea.ProjectSnippets.edit(ids.project, ids.snippet, {
      description: 'updated',
      files: [
        { action: 'update', filePath: 'restart.sh', content: 'systemctl restart postgresql@15\n' },
        { action: 'move', previousPath: 'notes/big.txt', filePath: 'big.txt' },
        { action: 'create', filePath: 'check.sh', content: 'pg_isready\n' },
      ],
    });
    expect(edited.description).toBe('updated');
    expect((edited.files as Array<{ path: string }>).map((f) => f.path)).toEqual(['restart.sh', 'big.txt', 'check.sh']);
    expect(await clients.rhea.ProjectSnippets.showContent(ids.project, ids.snippet)).toBe('systemctl restart postgresql@15\n');
    const [updated] = await outbox('snippet.updated');
    expect(updated.data.changed).toEqual(['description', 'files']);
    expect((await call('gus', 'PUT', `/projects/${ids.project}/snippets/${ids.snippet}`, { title: 'hijack' })).status).toBe(403);
    expect((await call('mae', 'PUT', `/projects/${ids.project}/snippets/${ids.snippet}`, { title: 'Restart the database' })).body.title).toBe(
      'Restart the database',
    );
    expect(
      (await call('rhea', 'PUT', `/projects/${ids.project}/snippets/${ids.snippet}`, { files: [{ action: 'delete', file_path: 'missing' }] })).status,
    ).toBe(400);

    const doomed = (await call('gus', 'GET', `/projects/${ids.project}/snippets`)).body.find((s: any) => s.id === ids.internal);
    expect(doomed).toBeDefined();
    expect((await call('gus', 'DELETE', `/projects/${ids.project}/snippets/${ids.internal}`)).status).toBe(403);
    await clients.rhea.ProjectSnippets.remove(ids.project, ids.internal);
    expect((await call('rhea', 'GET', `/projects/${ids.project}/snippets/${ids.internal}`)).status).toBe(404);
    expect(await outbox('snippet.destroyed')).toHaveLength(1);
  });

  it('enforces snippet visibility and the project snippets feature', async () => {
    const secret = (await call('rhea', 'POST', `/projects/${ids.project}/snippets`, { title: 'secret', content: 'pw', visibility: 'private' })).body;
    const internal = (await call('rhea', 'POST', `/projects/${ids.project}/snippets`, { title: 'inside', content: 'x', visibility: 'internal' })).body;
    expect((await call('stranger', 'GET', `/projects/${ids.project}/snippets/${secret.id}`)).status).toBe(404);
    expect((await call('stranger', 'GET', `/projects/${ids.project}/snippets/${secret.id}/raw`)).status).toBe(404);
    expect((await call(null, 'GET', `/projects/${ids.project}/snippets/${internal.id}`)).status).toBe(404);
    expect((await call('stranger', 'GET', `/projects/${ids.project}/snippets/${internal.id}`)).status).toBe(200);
    expect((await call('gus', 'GET', `/projects/${ids.project}/snippets/${secret.id}`)).status).toBe(200);
    const listed = (await call('stranger', 'GET', `/projects/${ids.project}/snippets`)).body.map((s: any) => s.title);
    expect(listed).toContain('inside');
    expect(listed).not.toContain('secret');
    expect((await clients.gus.ProjectSnippets.all(ids.project)).map((s) => s.title)).toContain('secret');
    expect((await call('stranger', 'POST', `/projects/${ids.project}/snippets/${secret.id}/notes`, { body: 'let me see' })).status).toBe(404);

    // Members-only snippets: outsiders no longer reach any snippet; disabled: nobody does.
    expect((await call('owen', 'PUT', `/projects/${ids.project}`, { snippets_access_level: 'private' })).status).toBe(200);
    expect((await call('stranger', 'GET', `/projects/${ids.project}/snippets/${ids.snippet}`)).status).toBe(404);
    expect((await call('gus', 'GET', `/projects/${ids.project}/snippets/${ids.snippet}`)).status).toBe(200);
    expect((await call('owen', 'PUT', `/projects/${ids.project}`, { snippets_access_level: 'disabled' })).status).toBe(200);
    expect((await call('owen', 'GET', `/projects/${ids.project}/snippets`)).status).toBe(404);
    expect((await call('owen', 'GET', `/projects/${ids.project}/snippets/${ids.snippet}/notes`)).status).toBe(404);
    expect((await call('owen', 'PUT', `/projects/${ids.project}`, { snippets_access_level: 'enabled' })).status).toBe(200);
  });

  it('comments on snippets through a real client, with the snippet fields the spec gives snippet notes', async () => {
    const note = await clients.gus.ProjectSnippetNotes.create(ids.project, ids.snippet, 'Works on 15 too');
    expect(note).toMatchObject({
      body: 'Works on 15 too',
      noteable_type: 'Snippet',
      noteable_id: ids.snippet,
      noteable_iid: null,
      title: 'Restart the database',
      file_name: 'restart.sh',
      expires_at: null,
      author: { username: 'gus' },
    });
    expect((await clients.stranger.ProjectSnippetNotes.all(ids.project, ids.snippet)).map((n) => n.id)).toEqual([note.id]);
    expect((await clients.rhea.ProjectSnippetNotes.show(ids.project, ids.snippet, note.id as number)).body).toBe('Works on 15 too');
    expect((await call('gus', 'PUT', `/projects/${ids.project}/snippets/${ids.snippet}/notes/${note.id}`, {})).status).toBe(400);
    expect((await clients.gus.ProjectSnippetNotes.edit(ids.project, ids.snippet, note.id as number, { body: 'Works on 15 and 16' })).body).toBe(
      'Works on 15 and 16',
    );
    expect((await call('rhea', 'PUT', `/projects/${ids.project}/snippets/${ids.snippet}/notes/${note.id}`, { body: 'x' })).status).toBe(403);
    // A snippet note is internal only on issues and epics.
    expect((await call('rhea', 'POST', `/projects/${ids.project}/snippets/${ids.snippet}/notes`, { body: 'x', internal: true })).body.internal).toBe(false);
    expect((await call('gus', 'POST', `/projects/${ids.project}/snippets/${ids.snippet}/notes`, { body: ':thumbsup:' })).body).toMatchObject({
      name: 'thumbsup',
      awardable_type: 'Snippet',
      awardable_id: ids.snippet,
    });
    // Quick actions do not apply to snippets: the text stays.
    expect((await call('gus', 'POST', `/projects/${ids.project}/snippets/${ids.snippet}/notes`, { body: '/close' })).body.body).toBe('/close');
    await clients.mae.ProjectSnippetNotes.remove(ids.project, ids.snippet, note.id as number);
    expect((await call('gus', 'GET', `/projects/${ids.project}/snippets/${ids.snippet}/notes/${note.id}`)).status).toBe(404);
    expect((await call(null, 'GET', `/projects/${ids.project}/snippets/${ids.snippet}/notes`)).status).toBe(401);
    expect((await call('gus', 'GET', `/projects/${ids.project}/snippets/99999/notes`)).status).toBe(404);
    const [event] = (await outbox('note.created')).filter((e) => e.target.id === note.id);
    expect(event.data.note).toMatchObject({ noteable_type: 'Snippet', noteable_id: ids.snippet, noteable_iid: null });
  });

  it("enforces the snippet_size_limit application setting on create and on content updates, with GitLab's message, storing nothing", async () => {
    expect((await call('root', 'PUT', '/application/settings', { snippet_size_limit: 1024 })).status).toBe(200);
    const count = async () => Number((await gw.dataSource.query('SELECT count(*)::int AS n FROM snippets'))[0].n);
    const before = await count();
    const tooBig = await call('rhea', 'POST', `/projects/${ids.project}/snippets`, {
      title: 'big',
      files: [
        { file_path: 'a.txt', content: 'x'.repeat(1000) },
        { file_path: 'b.txt', content: 'é'.repeat(500) },
      ],
    });
    expect(tooBig).toMatchObject({ status: 400, body: { message: { content: ['is too long (1.95 KB). The maximum size is 1 KB.'] } } });
    expect(await count()).toBe(before);
    const fits = await clients.rhea.ProjectSnippets.create(ids.project, 'fits', { files: [{ filePath: 'a.txt', content: 'x'.repeat(1024) }] } as any);
    const grown = await call('rhea', 'PUT', `/projects/${ids.project}/snippets/${fits.id}`, {
      files: [{ action: 'update', file_path: 'a.txt', content: 'x'.repeat(1025) }],
    });
    expect(grown).toMatchObject({ status: 400, body: { message: { content: ['is too long (1 KB). The maximum size is 1 KB.'] } } });
    expect((await call('rhea', 'GET', `/projects/${ids.project}/snippets/${fits.id}/raw`)).text).toHaveLength(1024);
    // A snippet over a lowered limit keeps taking edits that leave its content alone.
    expect((await call('root', 'PUT', '/application/settings', { snippet_size_limit: 10 })).status).toBe(200);
    expect((await call('rhea', 'PUT', `/projects/${ids.project}/snippets/${fits.id}`, { title: 'still fits' })).body.title).toBe('still fits');
    expect((await call('root', 'PUT', '/application/settings', { snippet_size_limit: 52_428_800 })).status).toBe(200);
  });
});
