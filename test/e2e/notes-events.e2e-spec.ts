import type { INestApplicationContext } from '@nestjs/common';
import { EventsProjector } from '@app/events';
import { SystemNotesWriter } from '@app/notes';
import { eventually } from '@app/testing';
import { startProjector } from '../../apps/projector/src/main';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

/** Comments become "commented on" contribution events once the projector has read them from Kafka. */
describe('Contribution events of notes (projector through Kafka)', () => {
  let gw: TestGateway;
  let projector: INestApplicationContext;
  const users: Record<string, { id: number; token: string }> = {};
  const ids: Record<string, number> = {};
  const call = (who: string | null, method: string, path: string, body?: unknown) =>
    api(gw.baseUrl, method, `/api/v4${path}`, { token: who === null ? undefined : who === 'root' ? gw.rootToken : users[who].token, body });
  const noteEvents = async (who: string, path: string): Promise<any[]> =>
    (await call(who, 'GET', `${path}${path.includes('?') ? '&' : '?'}target_type=note&per_page=100`)).body;

  beforeAll(async () => {
    gw = await startTestGateway('notes-events');
    projector = await startProjector(gw.config);
    await projector.get(EventsProjector).start();
    await projector.get(SystemNotesWriter).start();
    for (const name of ['owen', 'rhea', 'gus', 'stranger']) users[name] = await createUserWithToken(gw, name);
    ids.group = (await call('owen', 'POST', '/groups', { name: 'Ops', path: 'ops', visibility: 'public' })).body.id;
    ids.project = (await call('owen', 'POST', '/projects', { name: 'pager', namespace_id: ids.group, visibility: 'public' })).body.id;
    await addProjectMember(gw, ids.project, users.rhea.id, 20);
    await addProjectMember(gw, ids.project, users.gus.id, 10);
    ids.issue = (await call('rhea', 'POST', `/projects/${ids.project}/issues`, { title: 'Disk full' })).body.iid;
    ids.secret = (await call('rhea', 'POST', `/projects/${ids.project}/issues`, { title: 'CVE-1', confidential: true })).body.iid;
  });
  afterAll(async () => {
    await projector?.close();
    await gw?.close();
  });

  it('shows "commented on" events with the note, filtered by target_type=note, hiding internal and confidential comments from those who may not read them', async () => {
    const open = (await call('gus', 'POST', `/projects/${ids.project}/issues/${ids.issue}/notes`, { body: 'Seen on db-2 too' })).body;
    const internal = (await call('rhea', 'POST', `/projects/${ids.project}/issues/${ids.issue}/notes`, { body: 'Root cause is private', internal: true })).body;
    const onSecret = (await call('rhea', 'POST', `/projects/${ids.project}/issues/${ids.secret}/notes`, { body: 'patch ready' })).body;

    const forReporter = await eventually(
      async () => {
        const events = await noteEvents('rhea', `/projects/${ids.project}/events`);
        return events.length === 3 ? events : undefined;
      },
      'three note events for the reporter',
      30_000,
    );
    const gusEvent = forReporter.find((e) => e.target_id === open.id);
    expect(gusEvent).toMatchObject({
      action_name: 'commented on',
      target_type: 'Note',
      target_title: 'Disk full',
      project_id: ids.project,
      author_id: users.gus.id,
      author_username: 'gus',
      note: {
        id: open.id,
        body: 'Seen on db-2 too',
        noteable_type: 'Issue',
        noteable_iid: ids.issue,
        system: false,
        attachment: null,
        author: { username: 'gus' },
      },
    });
    expect(forReporter.map((e) => e.target_id).sort()).toEqual([open.id, internal.id, onSecret.id].sort());

    // A guest, an outsider and an anonymous reader of the public project see only the open comment.
    expect((await noteEvents('gus', `/projects/${ids.project}/events`)).map((e) => e.target_id)).toEqual([open.id]);
    expect((await noteEvents('stranger', `/projects/${ids.project}/events`)).map((e) => e.target_id)).toEqual([open.id]);
    expect((await call(null, 'GET', `/projects/${ids.project}/events?target_type=note`)).body.map((e: any) => e.target_id)).toEqual([open.id]);
    expect((await noteEvents('stranger', `/users/${users.rhea.id}/events`)).map((e) => e.target_id)).toEqual([]);
    expect((await noteEvents('owen', `/users/${users.rhea.id}/events`)).map((e) => e.target_id).sort()).toEqual([internal.id, onSecret.id].sort());
    // The author of an internal comment sees it in their own events.
    expect((await noteEvents('rhea', '/events')).map((e) => e.target_id).sort()).toEqual([internal.id, onSecret.id].sort());
    expect((await call('rhea', 'GET', `/projects/${ids.project}/events?action=commented`)).body).toHaveLength(3);
  });

  it('writes system notes for assignee, title, description and confidentiality changes, none for state changes; they cannot be edited or deleted', async () => {
    const path = `/projects/${ids.project}/issues/${ids.issue}`;
    expect((await call('rhea', 'PUT', path, { title: 'Disk full on db-1', description: 'since 02:00', assignee_ids: [users.gus.id] })).status).toBe(200);
    expect((await call('rhea', 'PUT', path, { assignee_ids: [users.rhea.id], state_event: 'close', weight: 2 })).status).toBe(200);
    const systemNotes = await eventually(
      async () => {
        const notes = (await call('gus', 'GET', `${path}/notes?sort=asc&per_page=100`)).body.filter((n: any) => n.system);
        return notes.length >= 4 ? notes : undefined;
      },
      'the system notes',
      30_000,
    );
    expect(systemNotes.map((n: any) => n.body)).toEqual([
      'assigned to @gus',
      'changed title from **Disk full** to **Disk full on db-1**',
      'changed the description',
      'assigned to @rhea and unassigned @gus',
    ]);
    expect(systemNotes[0]).toMatchObject({ system: true, noteable_type: 'Issue', noteable_iid: ids.issue, author: { username: 'rhea' } });
    // The close and the weight are resource events only.
    expect((await call('gus', 'GET', `${path}/resource_state_events`)).body.map((e: any) => e.state)).toEqual(['closed']);
    const note = systemNotes[0];
    expect((await call('rhea', 'PUT', `${path}/notes/${note.id}`, { body: 'rewritten' })).status).toBe(403);
    expect((await call('root', 'PUT', `${path}/notes/${note.id}`, { body: 'rewritten' })).status).toBe(403);
    expect((await call('owen', 'DELETE', `${path}/notes/${note.id}`)).status).toBe(403);
    // System notes make no contribution events.
    expect((await noteEvents('rhea', `/projects/${ids.project}/events`)).every((e) => e.note.system === false)).toBe(true);
  });

  it('shows snippet events under target_type=snippet, private snippets only to members', async () => {
    const open = (await call('rhea', 'POST', `/projects/${ids.project}/snippets`, { title: 'runbook', content: 'x', visibility: 'public' })).body;
    const secret = (await call('rhea', 'POST', `/projects/${ids.project}/snippets`, { title: 'passwords', content: 'y', visibility: 'private' })).body;
    const snippetEvents = (who: string | null) => call(who, 'GET', `/projects/${ids.project}/events?target_type=snippet`);
    const forMember = await eventually(
      async () => {
        const events = (await snippetEvents('gus')).body;
        return events.length === 2 ? events : undefined;
      },
      'two snippet events',
      30_000,
    );
    expect(forMember.map((e: any) => [e.action_name, e.target_type, e.target_title])).toEqual([
      ['opened', 'Snippet', 'passwords'],
      ['opened', 'Snippet', 'runbook'],
    ]);
    expect((await snippetEvents('stranger')).body.map((e: any) => e.target_id)).toEqual([open.id]);
    expect((await snippetEvents(null)).body.map((e: any) => e.target_id)).toEqual([open.id]);
    expect((await call('stranger', 'GET', `/users/${users.rhea.id}/events?target_type=snippet`)).body.map((e: any) => e.target_id)).toEqual([open.id]);
    expect(secret.id).not.toBe(open.id);
  });

  it("shows an edited comment as it is now, drops a deleted comment's event, and removes the notes, awards and events of a deleted issue, snippet or epic", async () => {
    const noteCount = async (type: string, id: number) =>
      Number((await gw.dataSource.query(`SELECT count(*)::int AS n FROM notes WHERE noteable_type = $1 AND noteable_id = $2`, [type, id]))[0].n);
    const awardCount = async (type: string, id: number) =>
      Number((await gw.dataSource.query(`SELECT count(*)::int AS n FROM award_emoji WHERE awardable_type = $1 AND awardable_id = $2`, [type, id]))[0].n);
    const issue = (await call('rhea', 'POST', `/projects/${ids.project}/issues`, { title: 'Flaky alarm' })).body;
    const path = `/projects/${ids.project}/issues/${issue.iid}`;
    const kept = (await call('gus', 'POST', `${path}/notes`, { body: 'first take' })).body;
    const dropped = (await call('gus', 'POST', `${path}/notes`, { body: 'never mind' })).body;
    expect((await call('gus', 'POST', `${path}/notes`, { body: ':eyes:' })).body.awardable_type).toBe('Issue');
    expect((await call('gus', 'PUT', `${path}/notes/${kept.id}`, { body: 'second take' })).status).toBe(200);
    expect((await call('gus', 'DELETE', `${path}/notes/${dropped.id}`)).status).toBe(204);
    const onIssue = (events: any[]) => events.filter((e) => e.note?.noteable_id === issue.id);
    const edited = await eventually(
      async () => {
        const events = onIssue(await noteEvents('gus', `/projects/${ids.project}/events`));
        return events.length === 1 && events[0].note.body === 'second take' ? events : undefined;
      },
      'the edited comment alone',
      30_000,
    );
    expect(edited[0]).toMatchObject({
      target_id: kept.id,
      action_name: 'commented on',
      note: { id: kept.id, body: 'second take', author: { username: 'gus' } },
    });

    // The issue goes: its notes, awards, comments' events and its own events go with it.
    expect((await call('owen', 'DELETE', path)).status).toBe(204);
    await eventually(
      async () => ((await noteCount('Issue', issue.id)) === 0 && (await awardCount('Issue', issue.id)) === 0 ? true : undefined),
      'the issue notes removed',
      30_000,
    );
    await eventually(
      async () => {
        const events = (await call('owen', 'GET', `/projects/${ids.project}/events?per_page=100`)).body as any[];
        return events.some(
          (e) => (e.target_type === 'Issue' && e.target_id === issue.id) || (e.note?.noteable_type === 'Issue' && e.note.noteable_id === issue.id),
        )
          ? undefined
          : events;
      },
      'the issue events removed',
      30_000,
    );
    // The list by position stays whole: the count header matches the rows.
    const page = await call('owen', 'GET', `/projects/${ids.project}/events?per_page=2&page=2`);
    const all = (await call('owen', 'GET', `/projects/${ids.project}/events?per_page=100`)).body as any[];
    expect(Number(page.headers.get('x-total'))).toBe(all.length);
    expect(page.body.map((e: any) => e.id)).toEqual(all.slice(2, 4).map((e) => e.id));

    // A snippet's and an epic's notes go with them too.
    const snippet = (await call('rhea', 'POST', `/projects/${ids.project}/snippets`, { title: 'old runbook', content: 'x', visibility: 'public' })).body;
    const snippetNote = (await call('gus', 'POST', `/projects/${ids.project}/snippets/${snippet.id}/notes`, { body: 'outdated' })).body;
    await eventually(
      async () => ((await noteEvents('owen', `/projects/${ids.project}/events`)).some((e) => e.target_id === snippetNote.id) ? true : undefined),
      'the snippet comment event',
      30_000,
    );
    expect((await call('rhea', 'DELETE', `/projects/${ids.project}/snippets/${snippet.id}`)).status).toBe(204);
    const epic = (await call('owen', 'POST', `/groups/${ids.group}/epics`, { title: 'Quiet nights' })).body;
    expect((await call('owen', 'POST', `/groups/${ids.group}/epics/${epic.id}/notes`, { body: 'agreed' })).status).toBe(201);
    expect((await call('owen', 'DELETE', `/groups/${ids.group}/epics/${epic.iid}`)).status).toBe(204);
    await eventually(
      async () => ((await noteCount('Snippet', snippet.id)) === 0 && (await noteCount('Epic', epic.id)) === 0 ? true : undefined),
      'snippet and epic notes removed',
      30_000,
    );
    await eventually(
      async () => ((await noteEvents('owen', `/projects/${ids.project}/events`)).some((e) => e.target_id === snippetNote.id) ? undefined : true),
      'the snippet comment event removed',
      30_000,
    );
  });
});
