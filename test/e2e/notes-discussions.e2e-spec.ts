import { Gitlab } from '@gitbeaker/rest';
import { seedBranches } from './support/git-fixture';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

type Client = InstanceType<typeof Gitlab>;

/** GitLab's discussions API over HTTP through a real client: threads of issues, merge requests (resolvable), snippets and epics. */
describe('Discussions', () => {
  let gw: TestGateway;
  const users: Record<string, { id: number; token: string }> = {};
  const clients: Record<string, Client> = {};
  const ids: Record<string, number> = {};
  const call = (who: string | null, method: string, path: string, body?: unknown) =>
    api(gw.baseUrl, method, `/api/v4${path}`, { token: who === null ? undefined : who === 'root' ? gw.rootToken : users[who].token, body });
  const project = (suffix: string) => `/projects/${ids.project}${suffix}`;

  beforeAll(async () => {
    gw = await startTestGateway('notes-discussions');
    for (const name of ['owen', 'dev', 'rhea', 'gus']) {
      users[name] = await createUserWithToken(gw, name);
      clients[name] = new Gitlab({ host: gw.baseUrl, token: users[name].token, rateLimits: {} });
    }
    ids.group = (await call('owen', 'POST', '/groups', { name: 'Ops', path: 'ops' })).body.id;
    ids.project = (await call('owen', 'POST', '/projects', { name: 'pager', namespace_id: ids.group, visibility: 'private' })).body.id;
    for (const [who, level] of [
      ['dev', 30],
      ['rhea', 20],
      ['gus', 10],
    ] as const)
      await addProjectMember(gw, ids.project, users[who].id, level);
    expect((await call('rhea', 'POST', project('/issues'), { title: 'Disk full' })).body.iid).toBe(1);
    await seedBranches(gw, ids.project, 'main', ['fix-disk']);
    ids.mr = (await call('dev', 'POST', project('/merge_requests'), { title: 'Fix disk', source_branch: 'fix-disk', target_branch: 'main' })).body.iid;
    for (const [who, level] of [
      ['rhea', 20],
      ['gus', 10],
    ] as const)
      await call('owen', 'POST', `/groups/${ids.group}/members`, { user_id: users[who].id, access_level: level });
  });
  afterAll(() => gw?.close());

  it('threads issue notes: individual notes are discussions of their own, threads take replies, lists page by discussion', async () => {
    const individual = (await call('gus', 'POST', project('/issues/1/notes'), { body: 'Seen on db-2' })).body;
    const thread = await clients.rhea.IssueDiscussions.create(ids.project, 1, 'Root cause?');
    expect(thread).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      individual_note: false,
      notes: [{ body: 'Root cause?', type: 'DiscussionNote', resolvable: false, noteable_type: 'Issue', author: { username: 'rhea' } }],
    });
    const answer = await clients.gus.IssueDiscussions.addNote(ids.project, 1, thread.id, 'The cron job');
    expect(answer).toMatchObject({ body: 'The cron job', type: 'DiscussionNote', noteable_iid: 1 });

    const listed = await clients.gus.IssueDiscussions.all(ids.project, 1);
    expect(listed.map((d) => [d.individual_note, (d.notes as any[]).map((n) => n.body)])).toEqual([
      [true, ['Seen on db-2']],
      [false, ['Root cause?', 'The cron job']],
    ]);
    expect(listed[0].notes![0]).toMatchObject({ id: individual.id, type: null });
    expect(((await clients.gus.IssueDiscussions.show(ids.project, 1, thread.id)).notes as any[]).map((n) => n.id)).toEqual([thread.notes![0].id, answer.id]);
    const page = await call('gus', 'GET', project('/issues/1/discussions?per_page=1&page=2'));
    expect(page.headers.get('x-total')).toBe('2');
    expect(page.body.map((d: any) => d.id)).toEqual([thread.id]);
    // A notes list shows the thread's notes too, with their type.
    expect((await call('gus', 'GET', project('/issues/1/notes?sort=asc'))).body.map((n: any) => n.type)).toEqual([null, 'DiscussionNote', 'DiscussionNote']);

    // Replying to an individual note makes it a thread.
    const listedId = listed[0].id;
    expect((await call('rhea', 'POST', project(`/issues/1/discussions/${listedId}/notes`), { body: 'Also db-3' })).status).toBe(201);
    expect(await clients.gus.IssueDiscussions.show(ids.project, 1, listedId)).toMatchObject({
      individual_note: false,
      notes: [{ id: individual.id, type: 'DiscussionNote' }, { body: 'Also db-3' }],
    });

    // Notes of a thread: read, edit by the author, delete; another thread's note is not reached.
    expect((await call('gus', 'GET', project(`/issues/1/discussions/${thread.id}/notes/${answer.id}`))).body.body).toBe('The cron job');
    expect((await call('gus', 'GET', project(`/issues/1/discussions/${listedId}/notes/${answer.id}`))).status).toBe(404);
    expect((await clients.gus.IssueDiscussions.editNote(ids.project, 1, thread.id, answer.id, { body: 'The nightly cron job' })).body).toBe(
      'The nightly cron job',
    );
    expect((await call('rhea', 'PUT', project(`/issues/1/discussions/${thread.id}/notes/${answer.id}`), { body: 'x' })).status).toBe(403);
    expect((await call('gus', 'PUT', project(`/issues/1/discussions/${thread.id}/notes/${answer.id}`), {})).status).toBe(400);
    await clients.gus.IssueDiscussions.removeNote(ids.project, 1, thread.id, answer.id);
    expect(((await clients.gus.IssueDiscussions.show(ids.project, 1, thread.id)).notes as any[]).map((n) => n.body)).toEqual(['Root cause?']);

    // What cannot be reached: 404 (unknown or malformed discussion), 401 without credentials.
    expect((await call('gus', 'GET', project(`/issues/1/discussions/${'0'.repeat(40)}`))).status).toBe(404);
    expect((await call('gus', 'GET', project('/issues/1/discussions/nope'))).status).toBe(404);
    expect((await call('gus', 'POST', project(`/issues/1/discussions/${'0'.repeat(40)}/notes`), { body: 'x' })).status).toBe(404);
    expect((await call(null, 'GET', project('/issues/1/discussions'))).status).toBe(401);
    expect((await call('gus', 'POST', project('/issues/1/discussions'), {})).status).toBe(400);
    const outsider = await createUserWithToken(gw, 'outsider');
    expect((await api(gw.baseUrl, 'GET', `/api/v4${project('/issues/1/discussions')}`, { token: outsider.token })).status).toBe(404);
  });

  it('keeps internal threads internal: replies inherit it, viewers below Reporter do not see them', async () => {
    const internal = (await call('rhea', 'POST', project('/issues/1/notes'), { body: 'Customer X affected', internal: true })).body;
    const discussionId = (await call('rhea', 'GET', project('/issues/1/discussions'))).body.find((d: any) => d.notes[0].id === internal.id).id;
    const reply = (await call('rhea', 'POST', project(`/issues/1/discussions/${discussionId}/notes`), { body: 'and Y' })).body;
    expect(reply).toMatchObject({ internal: true, confidential: true });
    expect((await call('gus', 'GET', project(`/issues/1/discussions/${discussionId}`))).status).toBe(404);
    expect((await call('gus', 'GET', project('/issues/1/discussions'))).body.map((d: any) => d.id)).not.toContain(discussionId);
  });

  it('resolves merge request threads as a whole or note by note, for Developers and the author', async () => {
    const thread = await clients.dev.MergeRequestDiscussions.create(ids.project, ids.mr, 'Rename this?');
    // A Guest of this private project does not see its merge requests (403); a Reporter replies.
    expect((await call('gus', 'POST', project(`/merge_requests/${ids.mr}/discussions/${thread.id}/notes`), { body: 'Done' })).status).toBe(403);
    await clients.rhea.MergeRequestDiscussions.addNote(ids.project, ids.mr, thread.id, 'Done');
    const individual = (await call('dev', 'POST', project(`/merge_requests/${ids.mr}/notes`), { body: 'Nice' })).body;
    expect(individual).toMatchObject({ type: null, resolvable: false });
    expect(individual.resolved).toBeUndefined();
    expect((await clients.dev.MergeRequestDiscussions.show(ids.project, ids.mr, thread.id)).notes).toEqual([
      expect.objectContaining({ resolvable: true, resolved: false, resolved_by: null, resolved_at: null }),
      expect.objectContaining({ resolvable: true, resolved: false }),
    ]);

    // A Reporter who is not the author may not resolve; a Developer may.
    expect((await call('rhea', 'PUT', project(`/merge_requests/${ids.mr}/discussions/${thread.id}`), { resolved: true })).status).toBe(403);
    const resolved = await clients.dev.MergeRequestDiscussions.resolve(ids.project, ids.mr, thread.id, true);
    expect((resolved.notes as any[]).every((n) => n.resolved && n.resolved_by.username === 'dev' && typeof n.resolved_at === 'string')).toBe(true);
    expect((await call('dev', 'PUT', project(`/merge_requests/${ids.mr}/discussions/${thread.id}`), {})).status).toBe(400);

    // Note by note: `resolved` on one note (exactly one of body and resolved).
    const [first] = resolved.notes as any[];
    // The merge request's author resolves too, whatever their role.
    expect((await call('owen', 'PUT', project(`/members/${users.dev.id}`), { access_level: 20 })).status).toBe(200);
    const reopened = await clients.dev.MergeRequestDiscussions.editNote(ids.project, ids.mr, thread.id, first.id, { resolved: false });
    expect(reopened).toMatchObject({ id: first.id, resolved: false, resolved_by: null });
    expect(
      (await call('dev', 'PUT', project(`/merge_requests/${ids.mr}/discussions/${thread.id}/notes/${first.id}`), { body: 'x', resolved: true })).status,
    ).toBe(400);
    // Individual notes and issue threads are not resolvable.
    const individualDiscussion = (await call('dev', 'GET', project(`/merge_requests/${ids.mr}/discussions`))).body.find((d: any) => d.individual_note).id;
    expect(await call('dev', 'PUT', project(`/merge_requests/${ids.mr}/discussions/${individualDiscussion}`), { resolved: true })).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - Discussion is not resolvable' },
    });
    const issueThread = (await call('rhea', 'POST', project('/issues/1/discussions'), { body: 'q' })).body;
    expect((await call('rhea', 'PUT', project(`/issues/1/discussions/${issueThread.id}/notes/${issueThread.notes[0].id}`), { resolved: true })).status).toBe(
      400,
    );
    expect((await call('rhea', 'PUT', project(`/issues/1/discussions/${issueThread.id}`), { resolved: true })).status).toBe(405);
  });

  it('runs quick actions in discussion notes and keeps system notes from taking replies', async () => {
    const applied = await call('rhea', 'POST', project('/issues/1/discussions'), { body: '/close' });
    expect(applied).toMatchObject({ status: 202, body: { commands_changes: { state_event: 'close' } } });
    expect((await call('rhea', 'GET', project('/issues/1'))).body.state).toBe('closed');
    await gw.dataSource.query(
      `INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, system, system_note_action) SELECT 'Issue', id, project_id, $1, 'changed the description', true, 'description' FROM issues WHERE project_id = $2 AND iid = 1`,
      [users.rhea.id, ids.project],
    );
    const system = (await call('rhea', 'GET', project('/issues/1/discussions?per_page=100'))).body.find((d: any) => d.notes[0].system);
    expect(system).toMatchObject({ individual_note: true, notes: [{ body: 'changed the description', system: true }] });
    expect(await call('rhea', 'POST', project(`/issues/1/discussions/${system.id}/notes`), { body: 'why?' })).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - Discussion can not be replied to.' },
    });
  });

  it('threads snippet and epic notes (the epic by its id)', async () => {
    const snippet = (await call('rhea', 'POST', project('/snippets'), { title: 'restart', content: 'systemctl restart db' })).body;
    const onSnippet = await clients.gus.ProjectSnippetDiscussions.create(ids.project, snippet.id, 'Needs sudo');
    await clients.rhea.ProjectSnippetDiscussions.addNote(ids.project, snippet.id, onSnippet.id, 'Fixed');
    expect((await clients.gus.ProjectSnippetDiscussions.all(ids.project, snippet.id)).map((d) => (d.notes as any[]).map((n) => n.body))).toEqual([
      ['Needs sudo', 'Fixed'],
    ]);

    const epic = (await call('owen', 'POST', `/groups/${ids.group}/epics`, { title: 'Quiet nights' })).body;
    const onEpic = await clients.rhea.EpicDiscussions.create(ids.group, epic.id, 'Which alerts first?');
    expect(onEpic.notes![0]).toMatchObject({ noteable_type: 'Epic', noteable_id: epic.id, type: 'DiscussionNote' });
    const reply = await clients.gus.EpicDiscussions.addNote(ids.group, epic.id, onEpic.id, 'Disk ones');
    expect(((await clients.gus.EpicDiscussions.show(ids.group, epic.id, onEpic.id)).notes as any[]).map((n) => n.id)).toEqual([onEpic.notes![0].id, reply.id]);
    expect((await call('rhea', 'GET', `/groups/${ids.group}/epics/${epic.iid}/discussions`)).status).toBe(404);
    await clients.gus.EpicDiscussions.removeNote(ids.group, epic.id, onEpic.id, reply.id);
    expect((await clients.gus.EpicDiscussions.all(ids.group, epic.id)).map((d) => (d.notes as any[]).length)).toEqual([1]);
  });
});
