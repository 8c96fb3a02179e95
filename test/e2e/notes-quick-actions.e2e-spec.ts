import { Gitlab } from '@gitbeaker/rest';
import { seedBranches } from './support/git-fixture';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

/** Quick actions and award emoji in note bodies, applied through the issue, merge request and merge paths. */
describe('Quick actions and award emoji in notes', () => {
  let gw: TestGateway;
  const users: Record<string, { id: number; token: string }> = {};
  const ids: Record<string, number> = {};
  let shas: Record<string, string>;
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(gw.baseUrl, method, `/api/v4${path}`, { token: who === 'root' ? gw.rootToken : users[who].token, body });
  const project = (suffix: string) => `/projects/${ids.project}${suffix}`;
  const noteCount = async () => Number((await gw.dataSource.query('SELECT count(*)::int AS n FROM notes WHERE NOT system'))[0].n);

  beforeAll(async () => {
    gw = await startTestGateway('notes-quick-actions');
    for (const name of ['owen', 'mae', 'dev', 'rhea', 'gus']) users[name] = await createUserWithToken(gw, name);
    ids.group = (await call('owen', 'POST', '/groups', { name: 'Ops', path: 'ops' })).body.id;
    ids.project = (await call('owen', 'POST', '/projects', { name: 'pager', namespace_id: ids.group })).body.id;
    for (const [who, level] of [
      ['mae', 40],
      ['dev', 30],
      ['rhea', 20],
      ['gus', 10],
    ] as const)
      await addProjectMember(gw, ids.project, users[who].id, level);
    ids.v1 = (await call('rhea', 'POST', project('/milestones'), { title: 'v1' })).body.id;
    ids.sprint = (
      await call('owen', 'POST', `/groups/${ids.group}/iterations`, { title: 'Sprint 1', start_date: '2030-01-01', due_date: '2030-01-14' })
    ).body.id;
    const bug = await call('rhea', 'POST', project('/labels'), { name: 'bug', color: '#d9534f' });
    expect(bug.status).toBe(201);
    ids.bug = bug.body.id;
    const ops = await call('owen', 'POST', `/groups/${ids.group}/labels`, { name: 'on call', color: '#428BCA' });
    ids.onCall = ops.body.id;
    const issue = await call('rhea', 'POST', project('/issues'), { title: 'Disk full' });
    ids.issue = issue.body.id;
    shas = await seedBranches(gw, ids.project, 'main', ['fix-disk', 'fix-cpu']);
    ids.mr = (await call('dev', 'POST', project('/merge_requests'), { title: 'Fix disk', source_branch: 'fix-disk', target_branch: 'main' })).body.iid;
    ids.mr2 = (await call('dev', 'POST', project('/merge_requests'), { title: 'Fix cpu', source_branch: 'fix-cpu', target_branch: 'main' })).body.iid;
  });
  afterAll(() => gw?.close());

  it('lists and creates labels, refusing duplicates', async () => {
    expect((await call('rhea', 'POST', project('/labels'), { name: 'bug', color: '#000000' })).status).toBe(409);
    expect((await call('gus', 'POST', project('/labels'), { name: 'guest', color: '#000000' })).status).toBe(403);
    expect((await call('rhea', 'POST', project('/labels'), { name: 'x', color: 'red!' })).status).toBe(400);
    const list = await call('gus', 'GET', project('/labels'));
    expect(list.body.map((l: any) => [l.name, l.is_project_label])).toEqual([
      ['bug', true],
      ['on call', false],
    ]);
    expect(list.body[0]).toMatchObject({ id: ids.bug, color: '#D9534F', text_color: '#FFFFFF' });
    const client = new Gitlab({ host: gw.baseUrl, token: users.rhea.token, rateLimits: {} });
    expect((await client.ProjectLabels.all(ids.project)).map((l) => l.name)).toEqual(['bug', 'on call']);
  });

  it('applies quick actions in a comment with text and stores the text', async () => {
    const response = await call('rhea', 'POST', project('/issues/1/notes'), {
      body: 'Taking a look.\n/assign @dev\n/milestone %v1\n/weight 3\n/label ~bug ~"on call" ~nope\n/iteration *iteration:"Sprint 1"',
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      body: 'Taking a look.',
      commands_changes: { assignee_ids: [users.dev.id], milestone_id: ids.v1, weight: 3, add_label_ids: [ids.bug, ids.onCall], iteration_id: ids.sprint },
    });
    const issue = (await call('rhea', 'GET', project('/issues/1'))).body;
    expect(issue).toMatchObject({
      assignees: [{ id: users.dev.id }],
      milestone: { id: ids.v1 },
      weight: 3,
      labels: ['bug', 'on call'],
      iteration: { id: ids.sprint },
    });
    // Through the issue use case: the resource events record it as REST updates do.
    const [change] = (await gw.dataSource.query(
      `SELECT payload FROM outbox_events WHERE payload->>'type' = 'issue.updated' ORDER BY seq DESC LIMIT 1`,
    )) as any[];
    expect(change.payload.data.changes).toMatchObject({ weight: { previous: null, current: 3 }, milestone: { current: { id: ids.v1 } } });
  });

  it('answers a body of quick actions only with 202, commands_changes and summary, storing no note', async () => {
    const before = await noteCount();
    const closed = await call('dev', 'POST', project('/issues/1/notes'), { body: '/close' });
    expect(closed.status).toBe(202);
    expect(closed.body).toEqual({ commands_changes: { state_event: 'close' }, summary: ['Closed this issue.'] });
    expect((await call('dev', 'GET', project('/issues/1'))).body.state).toBe('closed');
    const reopened = await call('dev', 'POST', project('/issues/1/notes'), { body: '/reopen\n/remove_milestone\n/unassign' });
    expect(reopened.status).toBe(202);
    expect(reopened.body.summary).toEqual(['Reopened this issue.', 'Removed %v1 milestone.', `Removed assignee @dev.`]);
    expect((await call('dev', 'GET', project('/issues/1'))).body).toMatchObject({ state: 'opened', milestone: null, assignees: [] });
    expect(await noteCount()).toBe(before);
    // Nothing applicable: 400 with the reason, nothing stored.
    const failed = await call('dev', 'POST', project('/issues/1/notes'), { body: '/assign @nobody' });
    expect(failed.status).toBe(400);
    expect(failed.body).toEqual({ message: '400 Bad request - Failed to assign a user because no user was found.' });
    expect(await noteCount()).toBe(before);
  });

  it('fails an iteration command naming an id beyond the integer range as an unknown iteration', async () => {
    for (const id of ['99999999999', '2147483648', '99999999999999999999999']) {
      const res = await call('rhea', 'POST', project('/issues/1/notes'), { body: `/iteration *iteration:${id}` });
      expect({ id, status: res.status, body: res.body }).toEqual({
        id,
        status: 400,
        body: { message: '400 Bad request - Could not apply iteration command.' },
      });
    }
    const unknown = await call('rhea', 'POST', project('/issues/1/notes'), { body: '/iteration *iteration:2147483647' });
    expect(unknown.body).toEqual({ message: '400 Bad request - Could not apply iteration command.' });
  });

  it('removes labels with /unlabel and replaces them with /relabel', async () => {
    expect((await call('rhea', 'PUT', project('/issues/1'), { labels: 'bug,on call' })).body.labels).toEqual(['bug', 'on call']);
    const removed = await call('rhea', 'POST', project('/issues/1/notes'), { body: '/unlabel ~bug ~nope' });
    expect(removed.status).toBe(202);
    expect(removed.body).toEqual({ commands_changes: { remove_label_ids: [ids.bug] }, summary: ['Removed ~bug label.'] });
    expect((await call('rhea', 'GET', project('/issues/1'))).body.labels).toEqual(['on call']);
    const relabelled = await call('rhea', 'POST', project('/issues/1/notes'), { body: 'Triaged.\n/relabel ~bug' });
    expect(relabelled.body).toMatchObject({ body: 'Triaged.', commands_changes: { label_ids: [ids.bug] } });
    expect((await call('rhea', 'GET', project('/issues/1'))).body.labels).toEqual(['bug']);
    expect((await call('rhea', 'POST', project('/issues/1/notes'), { body: '/remove_label' })).body).toEqual({
      commands_changes: { label_ids: [] },
      summary: ['Removed all labels.'],
    });
    // Nothing to remove: the command is not offered and stays text.
    expect((await call('rhea', 'POST', project('/issues/1/notes'), { body: '/unlabel ~bug' })).body.body).toBe('/unlabel ~bug');
  });

  it('leaves commands the author may not run as text', async () => {
    const byGuest = await call('gus', 'POST', project('/issues/1/notes'), { body: '/close' });
    expect(byGuest.status).toBe(201);
    expect(byGuest.body.body).toBe('/close');
    expect((await call('gus', 'GET', project('/issues/1'))).body.state).toBe('opened');
    // Commands of merge requests are text on issues.
    expect((await call('rhea', 'POST', project('/issues/1/notes'), { body: '/merge' })).body.body).toBe('/merge');
  });

  it('turns a body of one award emoji into an award, not a note', async () => {
    const before = await noteCount();
    const award = await call('gus', 'POST', project('/issues/1/notes'), { body: ':thumbsup:' });
    expect(award.status).toBe(201);
    expect(award.body).toEqual({
      id: expect.any(Number),
      name: 'thumbsup',
      user: expect.objectContaining({ id: users.gus.id, username: 'gus' }),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      awardable_id: ids.issue,
      awardable_type: 'Issue',
    });
    expect(await noteCount()).toBe(before);
    const again = await call('gus', 'POST', project('/issues/1/notes'), { body: ':thumbsup:' });
    expect(again.body.id).toBe(award.body.id);
    expect((await call('gus', 'POST', project('/issues/1/notes'), { body: ':no_such_emoji_here:' })).body.body).toBe(':no_such_emoji_here:');
    const mr = await call('rhea', 'POST', project(`/merge_requests/${ids.mr}/notes`), { body: ':rocket:' });
    expect(mr.body).toMatchObject({ name: 'rocket', awardable_type: 'MergeRequest' });
  });

  it('merges with /merge only when merge_request_diff_sha is the source head, through the merge path and its protected-branch rules', async () => {
    const path = project(`/merge_requests/${ids.mr}/notes`);
    const withoutSha = await call('owen', 'POST', path, { body: '/merge' });
    expect(withoutSha.status).toBe(400);
    expect(withoutSha.body.message).toBe('400 Bad request - Could not apply merge command.');
    const wrongSha = await call('owen', 'POST', path, { body: '/merge', merge_request_diff_sha: shas['fix-cpu'] });
    expect(wrongSha.status).toBe(400);
    expect((await call('owen', 'GET', project(`/merge_requests/${ids.mr}`))).body.state).toBe('opened');

    // Only Maintainers merge into a protected main: a developer's /merge is refused by the merge path.
    expect((await call('owen', 'POST', project('/protected_branches'), { name: 'main', push_access_level: 40, merge_access_level: 40 })).status).toBe(201);
    const byDeveloper = await call('dev', 'POST', path, { body: 'Shipping it\n/merge', merge_request_diff_head_sha: shas['fix-disk'] });
    expect(byDeveloper.status).toBe(201);
    expect(byDeveloper.body).toMatchObject({ body: 'Shipping it', commands_changes: {} });
    expect((await call('dev', 'GET', project(`/merge_requests/${ids.mr}`))).body.state).toBe('opened');

    const merged = await call('mae', 'POST', path, { body: '/merge', merge_request_diff_sha: shas['fix-disk'] });
    expect(merged.status).toBe(202);
    expect(merged.body).toEqual({ commands_changes: { merge: shas['fix-disk'] }, summary: ['Merged this merge request.'] });
    expect((await call('mae', 'GET', project(`/merge_requests/${ids.mr}`))).body).toMatchObject({ state: 'merged', merged_by: { id: users.mae.id } });
  });

  it('closes merge requests and sets their metadata', async () => {
    const response = await call('dev', 'POST', project(`/merge_requests/${ids.mr2}/notes`), { body: '/assign me\n/label ~bug\n/close' });
    expect(response.status).toBe(202);
    expect(response.body.summary).toEqual(['Assigned @dev.', 'Added ~bug label.', 'Closed this merge request.']);
    expect((await call('dev', 'GET', project(`/merge_requests/${ids.mr2}`))).body).toMatchObject({
      state: 'closed',
      labels: ['bug'],
      assignees: [{ id: users.dev.id }],
    });
    // Issue-only commands are text on merge requests.
    expect((await call('dev', 'POST', project(`/merge_requests/${ids.mr2}/notes`), { body: '/weight 2' })).body.body).toBe('/weight 2');
  });

  it('reads, renames and deletes labels, carrying the change to the issues, merge requests and epics that carry them', async () => {
    const client = new Gitlab({ host: gw.baseUrl, token: users.rhea.token, rateLimits: {} });
    expect((await call('gus', 'GET', project(`/labels/${ids.bug}`))).body).toMatchObject({ id: ids.bug, name: 'bug', is_project_label: true });
    expect((await call('gus', 'GET', project('/labels/on%20call'))).body).toMatchObject({ id: ids.onCall, is_project_label: false });
    expect((await call('gus', 'GET', project('/labels/on%20call?include_ancestor_groups=false'))).status).toBe(404);
    expect((await call('gus', 'GET', `/groups/${ids.group}/labels/${ids.onCall}`)).body.name).toBe('on call');
    expect((await call('rhea', 'PUT', project('/issues/1'), { labels: 'bug,on call' })).body.labels).toEqual(['bug', 'on call']);
    expect((await call('dev', 'GET', project(`/merge_requests/${ids.mr2}`))).body.labels).toEqual(['bug']);

    // Update: Reporter+, at least one attribute, a free title, only the project's own labels.
    expect((await call('gus', 'PUT', project(`/labels/${ids.bug}`), { color: '#000000' })).status).toBe(403);
    expect(await call('rhea', 'PUT', project(`/labels/${ids.bug}`), {})).toMatchObject({
      status: 400,
      body: { error: 'new_name, color, description are missing, at least one parameter must be provided' },
    });
    expect((await call('rhea', 'PUT', project(`/labels/${ids.bug}`), { color: 'red' })).status).toBe(400);
    expect((await call('rhea', 'PUT', project(`/labels/${ids.onCall}`), { color: '#000000' })).status).toBe(404);
    expect((await call('rhea', 'POST', project('/labels'), { name: 'p1', color: '#ff0000' })).status).toBe(201);
    expect(await call('rhea', 'PUT', project(`/labels/${ids.bug}`), { new_name: 'p1' })).toMatchObject({
      status: 400,
      body: { message: { title: ['has already been taken'] } },
    });
    const renamed = await client.ProjectLabels.edit(ids.project, ids.bug, { newName: 'defect', description: 'broken' });
    expect(renamed).toMatchObject({ id: ids.bug, name: 'defect', color: '#D9534F', description: 'broken' });
    expect((await call('rhea', 'PUT', project('/labels/defect'), { color: '#00ff00' })).body).toMatchObject({ id: ids.bug, color: '#00FF00' });
    expect((await call('rhea', 'GET', project('/issues/1'))).body.labels).toEqual(['defect', 'on call']);
    expect((await call('rhea', 'GET', project(`/merge_requests/${ids.mr2}`))).body.labels).toEqual(['defect']);
    expect((await call('rhea', 'GET', project('/issues?labels=defect'))).body.map((i: any) => i.iid)).toEqual([1]);
    const epic = (await call('owen', 'POST', `/groups/${ids.group}/epics`, { title: 'Paging', labels: 'on call' })).body;
    expect((await call('owen', 'PUT', `/groups/${ids.group}/labels/on%20call`, { new_name: 'paging' })).body.name).toBe('paging');
    expect((await call('rhea', 'GET', project('/issues/1'))).body.labels).toEqual(['defect', 'paging']);
    expect((await call('owen', 'GET', `/groups/${ids.group}/epics/${epic.iid}`)).body.labels).toEqual(['paging']);

    // Delete: the name goes from what carried it; gone is 404.
    expect((await call('gus', 'DELETE', project(`/labels/${ids.bug}`))).status).toBe(403);
    await client.ProjectLabels.remove(ids.project, 'defect');
    expect((await call('rhea', 'GET', project(`/labels/${ids.bug}`))).status).toBe(404);
    expect((await call('rhea', 'DELETE', project(`/labels/${ids.bug}`))).status).toBe(404);
    expect((await call('rhea', 'GET', project(`/merge_requests/${ids.mr2}`))).body.labels).toEqual([]);
    expect((await call('owen', 'DELETE', `/groups/${ids.group}/labels/${ids.onCall}`)).status).toBe(204);
    expect((await call('rhea', 'GET', project('/issues/1'))).body.labels).toEqual([]);
    expect((await call('owen', 'GET', `/groups/${ids.group}/epics/${epic.iid}`)).body.labels).toEqual([]);
  });

  it('lists, reads, awards and removes award emoji on issues, merge requests, snippets and their notes through a real client', async () => {
    const gus = new Gitlab({ host: gw.baseUrl, token: users.gus.token, rateLimits: {} });
    const dev = new Gitlab({ host: gw.baseUrl, token: users.dev.token, rateLimits: {} });
    // The :thumbsup: note body of an earlier test is listed with the awards of the issue.
    const onIssue = await gus.IssueAwardEmojis.all(ids.project, 1);
    expect(onIssue.map((a) => [a.name, a.user.username, a.awardable_type, a.awardable_id])).toEqual([['thumbsup', 'gus', 'Issue', ids.issue]]);
    expect(await call('gus', 'POST', project('/issues/1/award_emoji'), { name: 'thumbsup' })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Name has already been taken Not Found' },
    });
    expect(await call('gus', 'POST', project('/issues/1/award_emoji'), { name: 'not_an_emoji' })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Name is not a valid emoji name Not Found' },
    });
    expect((await call('gus', 'POST', project('/issues/1/award_emoji'), {})).status).toBe(400);
    const tada = await dev.IssueAwardEmojis.award(ids.project, 1, 'tada');
    expect(tada).toMatchObject({ name: 'tada', user: { username: 'dev' }, awardable_type: 'Issue', awardable_id: ids.issue });
    expect((await gus.IssueAwardEmojis.show(ids.project, 1, tada.id)).name).toBe('tada');
    // Only its user or an administrator removes an award (401 otherwise, as GitLab).
    expect((await call('gus', 'DELETE', project(`/issues/1/award_emoji/${tada.id}`))).status).toBe(401);
    await dev.IssueAwardEmojis.remove(ids.project, 1, tada.id);
    expect((await call('dev', 'GET', project(`/issues/1/award_emoji/${tada.id}`))).status).toBe(404);
    expect((await call('dev', 'GET', project('/issues/1/award_emoji/x'))).status).toBe(400);

    // Merge requests and their notes.
    const rocket = (await dev.MergeRequestAwardEmojis.all(ids.project, ids.mr)).find((a) => a.name === 'rocket');
    expect(rocket).toMatchObject({ user: { username: 'rhea' }, awardable_type: 'MergeRequest' });
    const note = (await call('dev', 'POST', project(`/merge_requests/${ids.mr2}/notes`), { body: 'LGTM' })).body;
    // A guest of this private project has no access to its merge requests (GitLab: Reporter and above).
    expect((await call('gus', 'POST', project(`/merge_requests/${ids.mr2}/notes/${note.id}/award_emoji`), { name: 'thumbsup' })).status).toBe(403);
    const onNote = await dev.MergeRequestNoteAwardEmojis.award(ids.project, ids.mr2, note.id, 'thumbsup');
    expect(onNote).toMatchObject({ awardable_type: 'Note', awardable_id: note.id, user: { username: 'dev' } });
    expect((await dev.MergeRequestNoteAwardEmojis.all(ids.project, ids.mr2, note.id)).map((a) => a.id)).toEqual([onNote.id]);
    // An award of another note or noteable is not reached through this one.
    expect((await call('dev', 'GET', project(`/merge_requests/${ids.mr}/notes/${note.id}/award_emoji`))).status).toBe(404);
    expect((await call('dev', 'GET', project(`/issues/1/award_emoji/${onNote.id}`))).status).toBe(404);
    await call('root', 'DELETE', project(`/merge_requests/${ids.mr2}/notes/${note.id}/award_emoji/${onNote.id}`));
    expect(await dev.MergeRequestNoteAwardEmojis.all(ids.project, ids.mr2, note.id)).toEqual([]);

    // Issue notes and snippets, and the issue notes' awards through the note routes.
    const issueNote = (await call('gus', 'POST', project('/issues/1/notes'), { body: 'Same here' })).body;
    expect((await dev.IssueNoteAwardEmojis.award(ids.project, 1, issueNote.id, 'heart')).awardable_type).toBe('Note');
    const snippet = (await call('rhea', 'POST', project('/snippets'), { title: 'log', content: 'x', visibility: 'private' })).body;
    expect((await call('rhea', 'POST', project(`/snippets/${snippet.id}/award_emoji`), { name: 'eyes' })).body).toMatchObject({
      awardable_type: 'Snippet',
      awardable_id: snippet.id,
    });
    expect((await call('rhea', 'GET', project(`/snippets/${snippet.id}/award_emoji`))).body.map((a: any) => a.name)).toEqual(['eyes']);
    // The project is private: not a member, not found; no credentials, not found.
    const outsider = await createUserWithToken(gw, 'outsider');
    expect((await api(gw.baseUrl, 'GET', `/api/v4${project('/issues/1/award_emoji')}`, { token: outsider.token })).status).toBe(404);
    expect((await api(gw.baseUrl, 'GET', `/api/v4${project('/issues/1/award_emoji')}`)).status).toBe(404);
    expect((await api(gw.baseUrl, 'POST', `/api/v4${project('/issues/1/award_emoji')}`, { body: { name: 'eyes' } })).status).toBe(401);
  });
});
