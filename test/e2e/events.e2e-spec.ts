import type { INestApplicationContext } from '@nestjs/common';
import { EventsProjector, RebuildProjectionsUseCase } from '@app/events';
import { buildDomainEvent, DLQ_HEADERS, KafkaClient, prefixed, TOPICS } from '@app/messaging';
import { MetricsService } from '@app/observability';
import { KafkaTopicReader, ReadMessage, TEST_KAFKA_BROKERS } from '@app/testing';
import type { Producer } from 'kafkajs';
import { startProjector } from '../../apps/projector/src/main';
import { seedBranches } from './support/git-fixture';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

/** Bounded poll: resolves with the first value `probe` accepts, fails after `timeoutMs`. */
async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 20_000, what = 'the projection'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}: last ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** REST changes travel outbox → Kafka → projector → events / resource event tables → REST. */
describe('Contribution events and resource events (projector through Kafka)', () => {
  let gw: TestGateway;
  let projector: INestApplicationContext;
  let producer: Producer;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const as = (who: string) => ({ token: who === 'root' ? gw.rootToken : tokens[who] });
  const get = (who: string, path: string) => api(gw.baseUrl, 'GET', `/api/v4${path}`, as(who));
  const call = (who: string, method: string, path: string, body?: unknown) => api(gw.baseUrl, method, `/api/v4${path}`, { ...as(who), body });

  const createUser = async (username: string, scopes = ['api']) => {
    const user = await api(gw.baseUrl, 'POST', '/api/v4/users', {
      token: gw.rootToken,
      body: { username, name: username, email: `${username}@example.com`, password: 'secret-password-1' },
    });
    ids[username] = user.body.id;
    const pat = await api(gw.baseUrl, 'POST', `/api/v4/users/${user.body.id}/personal_access_tokens`, { token: gw.rootToken, body: { name: 'e2e', scopes } });
    tokens[username] = pat.body.token;
  };

  /** Publishes raw envelopes the way another service would (key = project id). */
  const publish = async (...values: Array<string | object>) => {
    await producer.send({
      topic: prefixed(gw.config.kafka.topicPrefix, TOPICS.DOMAIN_EVENTS),
      acks: -1,
      messages: values.map((value) => ({
        key: String(typeof value === 'object' ? ((value as { project_id?: number }).project_id ?? 0) : 0),
        value: typeof value === 'string' ? value : JSON.stringify(value),
      })),
    });
  };

  const projectEvents = (who: string, query = '') => get(who, `/projects/${ids.pager}/events?per_page=100${query}`);

  const tableSnapshot = async () => ({
    events: await gw.dataSource.query(
      'SELECT source_event_id, project_id, author_id, action, target_type, target_id, target_iid, target_title, created_at FROM events ORDER BY source_event_id, action',
    ),
    milestone: await gw.dataSource.query(
      'SELECT source_event_id, issue_id, merge_request_id, milestone_id, action FROM resource_milestone_events ORDER BY source_event_id, milestone_id',
    ),
    state: await gw.dataSource.query('SELECT source_event_id, issue_id, merge_request_id, state FROM resource_state_events ORDER BY source_event_id'),
    iteration: await gw.dataSource.query('SELECT source_event_id, issue_id, iteration_id, action FROM resource_iteration_events ORDER BY source_event_id'),
    weight: await gw.dataSource.query('SELECT source_event_id, issue_id, weight FROM resource_weight_events ORDER BY source_event_id'),
    projected: await gw.dataSource.query('SELECT event_id FROM projected_events ORDER BY event_id'),
  });

  beforeAll(async () => {
    gw = await startTestGateway('events');
    projector = await startProjector(gw.config);
    await projector.get(EventsProjector).start();
    producer = gw.app.get(KafkaClient).createIdempotentProducer();
    await producer.connect();

    await createUser('owen');
    await createUser('rhea');
    await createUser('gus');
    await createUser('stranger');
    await createUser('reader', ['read_user']);
    await createUser('repo', ['read_repository']);
    const group = await call('owen', 'POST', '/groups', { name: 'Ops', path: 'ops' });
    ids.group = group.body.id;
    ids.pager = (await call('owen', 'POST', '/projects', { name: 'pager', namespace_id: ids.group })).body.id;
    await seedBranches(gw, ids.pager, 'main', ['fix']);
    ids.site = (await call('owen', 'POST', '/projects', { name: 'site', visibility: 'public' })).body.id;
    await call('owen', 'POST', `/projects/${ids.pager}/members`, { user_id: ids.rhea, access_level: 20 });
    await call('owen', 'POST', `/projects/${ids.pager}/members`, { user_id: ids.gus, access_level: 10 });
  });
  afterAll(async () => {
    await producer?.disconnect();
    await projector?.close();
    await gw?.close();
  });

  it('materializes project, membership, milestone, issue and merge request changes as GitLab events', async () => {
    const v1 = await call('rhea', 'POST', `/projects/${ids.pager}/milestones`, { title: 'v1' });
    ids.v1 = v1.body.id;
    ids.v2 = (await call('rhea', 'POST', `/projects/${ids.pager}/milestones`, { title: 'v2' })).body.id;
    const issue = await call('rhea', 'POST', `/projects/${ids.pager}/issues`, { title: 'Disk full', milestone_id: ids.v1, weight: 2 });
    ids.issue = issue.body.id;
    await call('rhea', 'PUT', `/projects/${ids.pager}/issues/1`, { milestone_id: ids.v2, weight: 4, state_event: 'close' });
    await call('rhea', 'PUT', `/projects/${ids.pager}/issues/1`, { state_event: 'reopen', milestone_id: 0 });
    ids.mr = (
      await call('owen', 'POST', `/projects/${ids.pager}/merge_requests`, { title: 'Fix', source_branch: 'fix', target_branch: 'main', milestone_id: ids.v1 })
    ).body.id;
    await call('owen', 'PUT', `/projects/${ids.pager}/merge_requests/1`, { state_event: 'close' });
    await call('owen', 'PUT', `/projects/${ids.pager}/merge_requests/1`, { state_event: 'reopen' });
    await call('rhea', 'PUT', `/projects/${ids.pager}/milestones/${ids.v2}`, { state_event: 'close' });
    await call('rhea', 'PUT', `/projects/${ids.pager}/milestones/${ids.v2}`, { state_event: 'activate' });
    ids.v3 = (await call('rhea', 'POST', `/projects/${ids.pager}/milestones`, { title: 'v3' })).body.id;
    await call('rhea', 'DELETE', `/projects/${ids.pager}/milestones/${ids.v3}`);

    const listed = await eventually(
      () => projectEvents('owen'),
      (r) => r.body.length >= 15,
      20_000,
      '15 project events',
    );
    const summary = listed.body.map((e: any) => `${e.action_name} ${e.target_type ?? '-'} ${e.target_title ?? '-'}`).reverse();
    expect(summary).toEqual(
      [
        'created - -',
        'joined - -',
        'joined - -',
        'opened Milestone v1',
        'opened Milestone v2',
        'opened Issue Disk full',
        'closed Issue Disk full',
        'opened Issue Disk full',
        'opened MergeRequest Fix',
        'closed MergeRequest Fix',
        'opened MergeRequest Fix',
        'closed Milestone v2',
        'opened Milestone v2',
        'opened Milestone v3',
        'destroyed Milestone v3',
      ].slice(0, listed.body.length),
    );
    expect(listed.body).toHaveLength(15);
    // A guest of this private project sees its events but those of its merge requests (GitLab: Reporter and above read them).
    const byGuest = (await projectEvents('gus')).body;
    expect(byGuest).toHaveLength(12);
    expect(byGuest.filter((e: any) => e.target_type === 'MergeRequest')).toEqual([]);
    const ownersByGuest = (await get('gus', `/users/${ids.owen}/events`)).body;
    expect(ownersByGuest.length).toBeGreaterThan(0);
    expect(ownersByGuest.filter((e: any) => e.target_type === 'MergeRequest')).toEqual([]);
    expect((await get('rhea', `/users/${ids.owen}/events`)).body.filter((e: any) => e.target_type === 'MergeRequest')).toHaveLength(3);
    const closed = listed.body.find((e: any) => e.action_name === 'closed' && e.target_type === 'Issue');
    expect(closed).toMatchObject({
      project_id: ids.pager,
      target_id: ids.issue,
      target_iid: 1,
      author_id: ids.rhea,
      author_username: 'rhea',
      author: { id: ids.rhea, username: 'rhea', name: 'rhea', state: 'active' },
      title: null,
    });
    expect(closed.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The group owner who created the project is no project member: only the two added members joined.
    const joined = listed.body.filter((e: any) => e.action_name === 'joined').map((e: any) => e.author_id);
    expect(joined.sort()).toEqual([ids.rhea, ids.gus].sort());
  });

  it('serves resource events of issues and merge requests, list and single, with 404 for the wrong resource', async () => {
    const base = `/projects/${ids.pager}/issues/1`;
    const milestones = await eventually(
      () => get('gus', `${base}/resource_milestone_events`),
      (r) => r.body.length === 3,
    );
    expect(milestones.body.map((e: any) => [e.action, e.milestone.title])).toEqual([
      ['add', 'v1'],
      ['add', 'v2'],
      ['remove', 'v2'],
    ]);
    expect(milestones.body[0]).toMatchObject({
      user: { id: ids.rhea, username: 'rhea' },
      resource_type: 'Issue',
      resource_id: ids.issue,
      milestone: { id: ids.v1, iid: 1, project_id: ids.pager, title: 'v1', state: 'active', web_url: `${gw.config.http.externalUrl}/ops/pager/-/milestones/1` },
    });
    const single = await get('gus', `${base}/resource_milestone_events/${milestones.body[1].id}`);
    expect(single.body).toEqual(milestones.body[1]);

    const states = await get('gus', `${base}/resource_state_events`);
    expect(states.body.map((e: any) => e.state)).toEqual(['closed', 'reopened']);
    expect(states.body[0]).toMatchObject({ resource_type: 'Issue', resource_id: ids.issue, user: { id: ids.rhea } });
    const weights = await get('gus', `${base}/resource_weight_events`);
    expect(weights.body.map((e: any) => [e.issue_id, e.weight])).toEqual([
      [ids.issue, 2],
      [ids.issue, 4],
    ]);
    expect((await get('gus', `${base}/resource_weight_events/${weights.body[0].id}`)).body.weight).toBe(2);

    const mrBase = `/projects/${ids.pager}/merge_requests/1`;
    // A guest of this private project does not read its merge requests (GitLab: Reporter and above).
    expect((await get('gus', `${mrBase}/resource_state_events`)).status).toBe(403);
    const mrStates = await eventually(
      () => get('rhea', `${mrBase}/resource_state_events`),
      (r) => r.body.length === 2,
    );
    expect(mrStates.body.map((e: any) => [e.resource_type, e.resource_id, e.state])).toEqual([
      ['MergeRequest', ids.mr, 'closed'],
      ['MergeRequest', ids.mr, 'reopened'],
    ]);
    const mrMilestones = await get('rhea', `${mrBase}/resource_milestone_events`);
    expect(mrMilestones.body.map((e: any) => [e.action, e.milestone.id])).toEqual([['add', ids.v1]]);

    // An event of another resource, a wrong iid, a wrong project, a non-numeric id.
    expect((await get('rhea', `${mrBase}/resource_state_events/${states.body[0].id}`)).status).toBe(404);
    expect((await get('gus', `${base}/resource_state_events/${mrStates.body[0].id}`)).status).toBe(404);
    expect((await get('gus', `/projects/${ids.pager}/issues/99/resource_state_events`)).status).toBe(404);
    expect((await get('owen', `/projects/${ids.site}/issues/1/resource_state_events`)).status).toBe(404);
    expect((await get('gus', `${base}/resource_state_events/abc`)).status).toBe(400);
    expect((await get('stranger', `${base}/resource_state_events`)).status).toBe(404);
  });

  it('records iteration events (PREMIUM) when an issue gets and loses an iteration', async () => {
    const iteration = await call('owen', 'POST', `/groups/${ids.group}/iterations`, { title: 'Sprint', start_date: '2031-01-01', due_date: '2031-01-14' });
    await call('rhea', 'PUT', `/projects/${ids.pager}/issues/1`, { iteration_id: iteration.body.id });
    await call('rhea', 'PUT', `/projects/${ids.pager}/issues/1`, { iteration_id: null });
    const events = await eventually(
      () => get('gus', `/projects/${ids.pager}/issues/1/resource_iteration_events`),
      (r) => r.body.length === 2,
    );
    expect(events.body.map((e: any) => [e.action, e.iteration.id, e.iteration.state])).toEqual([
      ['add', iteration.body.id, 1],
      ['remove', iteration.body.id, 1],
    ]);
    expect(events.body[0]).toMatchObject({ resource_type: 'Issue', resource_id: ids.issue, iteration: { group_id: ids.group, title: 'Sprint' } });
  });

  it("shows a caller's own changes in its very next read of resource events (read-your-writes, no polling)", async () => {
    const issue = await call('rhea', 'POST', `/projects/${ids.pager}/issues`, { title: 'Read your writes' });
    const base = `/projects/${ids.pager}/issues/${issue.body.iid}`;
    for (const [i, milestone] of [ids.v1, ids.v2, ids.v1].entries()) {
      expect((await call('rhea', 'PUT', base, { milestone_id: milestone })).status).toBe(200);
      const read = await get('rhea', `${base}/resource_milestone_events`);
      expect(read.body.filter((e: any) => e.action === 'add').map((e: any) => e.milestone.id)).toEqual([ids.v1, ids.v2, ids.v1].slice(0, i + 1));
    }
    expect((await call('rhea', 'PUT', base, { state_event: 'close' })).status).toBe(200);
    expect((await get('rhea', `${base}/resource_state_events`)).body.map((e: any) => e.state)).toEqual(['closed']);
  });

  it('projects an event published twice once, and skips unknown types', async () => {
    const event = buildDomainEvent({
      data: { milestone: null },
      type: 'milestone.created',
      actor: ids.owen,
      projectId: ids.pager,
      target: { type: 'milestone', id: 777001, iid: 77, title: 'from another service' },
    });
    const unknown = buildDomainEvent({ type: 'something.new', actor: ids.owen, projectId: ids.pager });
    const sentinel = buildDomainEvent({
      data: { milestone: null },
      type: 'milestone.closed',
      actor: ids.owen,
      projectId: ids.pager,
      target: { type: 'milestone', id: 777001, iid: 77, title: 'from another service' },
    });
    await publish(event, event, unknown);
    await publish(event, sentinel);
    await eventually(
      () => gw.dataSource.query('SELECT 1 FROM events WHERE source_event_id = $1', [sentinel.id]),
      (rows) => rows.length === 1,
    );
    const rows = await gw.dataSource.query('SELECT action FROM events WHERE source_event_id = $1', [event.id]);
    expect(rows).toEqual([{ action: 'created' }]);
    expect(await gw.dataSource.query('SELECT type FROM projected_events WHERE event_id = $1', [unknown.id])).toEqual([{ type: 'something.new' }]);
    expect(await gw.dataSource.query('SELECT 1 FROM events WHERE source_event_id = $1', [unknown.id])).toEqual([]);
  });

  it('dead-letters a poison message with its reason and projects the next good one', async () => {
    const dlq = await KafkaTopicReader.start(TEST_KAFKA_BROKERS, prefixed(gw.config.kafka.topicPrefix, TOPICS.DOMAIN_EVENTS_DLQ));
    try {
      const good = buildDomainEvent({
        data: { milestone: null },
        type: 'milestone.created',
        actor: ids.owen,
        projectId: ids.pager,
        target: { type: 'milestone', id: 777002, iid: 78, title: 'after poison' },
      });
      const unprojectable = buildDomainEvent({
        type: 'issue.closed',
        actor: ids.owen,
        projectId: ids.pager,
        target: { type: 'issue', id: 'not-a-number' },
        // Valid data (the catalogue's schema): the projection is what fails.
        data: {
          issue: {
            id: 1,
            iid: 1,
            title: 't',
            state: 'closed',
            issue_type: 'issue',
            confidential: false,
            author_id: null,
            assignee_ids: [],
            labels: [],
            milestone_id: null,
            iteration_id: null,
            weight: null,
            severity: 'UNKNOWN',
          },
        },
      });
      await publish('{not json', { ...good, id: 'not-a-uuid' }, unprojectable, good);
      await eventually(
        () => gw.dataSource.query('SELECT 1 FROM events WHERE source_event_id = $1', [good.id]),
        (rows) => rows.length === 1,
      );
      // The projector's dead letters (other consumers of the stream dead-letter into the same topic), each once: distinct by
      // position in the dead-letter topic, as the reader's throw-away group re-reads from the start after a rebalance.
      const ours = (messages: ReadMessage[]) =>
        [...new Map(messages.map((m) => [`${m.partition}:${m.offset}`, m])).values()].filter((m) =>
          m.headers[DLQ_HEADERS.CONSUMER_GROUP]?.endsWith('.projector.v1'),
        );
      const dead = ours(await dlq.waitFor((m) => ours(m).length >= 3, 20_000, 'three dead letters'));
      // Different keys, different partitions: the order across them is not defined.
      const reasons = dead.map((m) => m.headers[DLQ_HEADERS.REASON]).sort();
      expect(reasons).toEqual([
        expect.stringMatching(/handler failed .*target\.id must be an integer/),
        expect.stringMatching(/^invalid envelope: id must be a uuid/),
        expect.stringMatching(/^invalid envelope: message value is not valid JSON/),
      ]);
      expect(dead.map((m) => m.value)).toContain('{not json');
      expect(dead.every((m) => m.headers[DLQ_HEADERS.CONSUMER_GROUP].endsWith('projector.v1'))).toBe(true);
      expect(projector.get(EventsProjector).running).toBe(true);
      const metrics = (await projector.get(MetricsService).exposition()).body;
      expect(Number(/^projector_events_dead_lettered (\d+)$/m.exec(metrics)?.[1])).toBe(3);
      expect(Number(/^projector_events_projected_total (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(15);
      expect(metrics).toMatch(/^projector_events_skipped_total\{reason="duplicate"\} [1-9]/m);
      expect(metrics).toMatch(/^projector_events_skipped_total\{reason="not_projected"\} [1-9]/m);
      expect(metrics).toMatch(/^projector_end_to_end_delay_seconds_count [1-9]/m);
    } finally {
      await dlq.stop();
    }
  });

  it('hides private projects from outsiders and confidential issue events from those who cannot read the issue', async () => {
    const secret = await call('owen', 'POST', `/projects/${ids.pager}/issues`, { title: 'CVE-1', confidential: true });
    await call('owen', 'PUT', `/projects/${ids.pager}/issues/${secret.body.iid}`, { state_event: 'close' });
    await eventually(
      () => projectEvents('owen', '&target_type=issue'),
      (r) => r.body.filter((e: any) => e.target_title === 'CVE-1').length === 2,
    );
    expect((await projectEvents('rhea', '&target_type=issue')).body.filter((e: any) => e.target_title === 'CVE-1')).toHaveLength(2);
    expect((await projectEvents('gus', '&target_type=issue')).body.filter((e: any) => e.target_title === 'CVE-1')).toHaveLength(0);
    expect((await projectEvents('gus', '&target_type=issue')).body.length).toBeGreaterThan(0);
    // The owner's own activity, seen by an outsider: nothing from the private project.
    expect((await projectEvents('stranger')).status).toBe(404);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.pager}/events`)).status).toBe(404);
    const seenByStranger = await get('stranger', `/users/${ids.owen}/events?per_page=100`);
    expect(seenByStranger.body.every((e: any) => e.project_id === ids.site)).toBe(true);
    expect(seenByStranger.body.map((e: any) => e.action_name)).toContain('created');
    const seenByGuest = await get('gus', `/users/owen/events?per_page=100`);
    expect(seenByGuest.body.some((e: any) => e.project_id === ids.pager)).toBe(true);
    expect(seenByGuest.body.some((e: any) => e.target_title === 'CVE-1')).toBe(false);
    const anonymous = await api(gw.baseUrl, 'GET', `/api/v4/users/${ids.owen}/events`);
    expect(anonymous.body.every((e: any) => e.project_id === ids.site)).toBe(true);
    expect((await get('stranger', '/users/nobody-here/events')).status).toBe(404);

    // A confidential issue of a public project: its author and members see its events; anonymous callers and outsiders do not.
    const hidden = await call('owen', 'POST', `/projects/${ids.site}/issues`, { title: 'CVE-2', confidential: true });
    expect(hidden.status).toBe(201);
    const siteIssues = (who: string | null) =>
      who ? get(who, `/projects/${ids.site}/events?target_type=issue`) : api(gw.baseUrl, 'GET', `/api/v4/projects/${ids.site}/events?target_type=issue`);
    await eventually(
      () => siteIssues('owen'),
      (r) => r.body.some((e: any) => e.target_title === 'CVE-2'),
    );
    expect((await siteIssues('root')).body.some((e: any) => e.target_title === 'CVE-2')).toBe(true);
    const anonymousSite = await siteIssues(null);
    expect(anonymousSite.status).toBe(200);
    expect(anonymousSite.body.some((e: any) => e.target_title === 'CVE-2')).toBe(false);
    expect(anonymousSite.headers.get('x-total')).toBe(String(anonymousSite.body.length));
    expect((await siteIssues('gus')).body.some((e: any) => e.target_title === 'CVE-2')).toBe(false);
  });

  it('filters the three lists by action, target_type, before/after (exclusive days), sort, scope and pages', async () => {
    const at = (day: string, type: string, title: string) =>
      buildDomainEvent({
        type,
        data: { milestone: null },
        actor: ids.rhea,
        projectId: ids.pager,
        occurredAt: new Date(`${day}T12:00:00Z`),
        target: { type: 'milestone', id: 888000 + Number(day.slice(8)), iid: 1, title },
      });
    const old = [at('2025-03-09', 'milestone.created', 'day9'), at('2025-03-10', 'milestone.created', 'day10'), at('2025-03-11', 'milestone.closed', 'day11')];
    const expired = buildDomainEvent({
      data: { milestone: null },
      type: 'milestone.created',
      actor: ids.rhea,
      projectId: ids.pager,
      occurredAt: new Date(Date.now() - 4 * 365 * 86_400_000),
      target: { type: 'milestone', id: 1, iid: 1, title: 'too old' },
    });
    await publish(...old, expired);
    await eventually(
      () => gw.dataSource.query('SELECT count(*)::int AS n FROM projected_events WHERE event_id = ANY($1)', [[...old, expired].map((e) => e.id)]),
      (r) => r[0].n === 4,
    );

    const titles = (r: any) => r.body.map((e: any) => e.target_title);
    expect(titles(await projectEvents('owen', '&after=2025-03-09&before=2025-03-11'))).toEqual(['day10']);
    expect(titles(await projectEvents('owen', '&after=2025-03-08&before=2025-03-12&sort=asc'))).toEqual(['day9', 'day10', 'day11']);
    expect(titles(await projectEvents('owen', '&after=2025-03-08&before=2025-03-12&action=closed'))).toEqual(['day11']);
    expect(titles(await projectEvents('owen', '&before=2025-03-12'))).toEqual(['day11', 'day10', 'day9']);
    expect(titles(await projectEvents('owen', '&per_page=100')).includes('too old')).toBe(false);

    const issueOnly = await projectEvents('owen', '&target_type=issue');
    expect(issueOnly.body.every((e: any) => e.target_type === 'Issue')).toBe(true);
    const mrOnly = await projectEvents('owen', '&target_type=merge_request&action=closed');
    expect(mrOnly.body.map((e: any) => [e.target_type, e.action_name])).toEqual([['MergeRequest', 'closed']]);
    const joined = await projectEvents('owen', '&action=joined');
    expect(joined.body.map((e: any) => e.action_name)).toEqual(['joined', 'joined']);

    // GET /events: own events; scope=all adds the events of the user's projects.
    const mine = await get('rhea', '/events?per_page=100');
    expect(mine.body.length).toBeGreaterThan(0);
    expect(mine.body.every((e: any) => e.author_id === ids.rhea)).toBe(true);
    const all = await get('rhea', '/events?scope=all&per_page=100');
    expect(all.body.some((e: any) => e.author_id === ids.owen && e.project_id === ids.pager)).toBe(true);
    expect(all.body.some((e: any) => e.project_id === ids.site)).toBe(false);
    const desc = mine.body.map((e: any) => e.id);
    expect(desc).toEqual([...desc].sort((a: number, b: number) => b - a));
    expect(titles(await get('rhea', '/events?after=2025-03-09&before=2025-03-11'))).toEqual(['day10']);
    expect(titles(await get('rhea', '/events?target_type=milestone&action=closed&before=2026-01-01'))).toEqual(['day11']);

    // GET /users/:id/events: same filters, and pages.
    const userPage1 = await get('owen', `/users/${ids.rhea}/events?per_page=2&sort=asc`);
    const userPage2 = await get('owen', `/users/${ids.rhea}/events?per_page=2&page=2&sort=asc`);
    expect(userPage1.body).toHaveLength(2);
    expect(userPage1.headers.get('x-next-page')).toBe('2');
    expect(userPage2.body[0].id).toBeGreaterThan(userPage1.body[1].id);
    expect(titles(await get('owen', `/users/rhea/events?target_type=milestone&after=2025-03-10&before=2025-03-12`))).toEqual(['day11']);
    expect(titles(await get('owen', `/users/rhea/events?action=created&target_type=milestone&before=2025-03-12&sort=asc`))).toEqual(['day9', 'day10']);
    expect(titles(await projectEvents('owen', '&target_type=milestone&action=created&before=2025-03-12&sort=desc'))).toEqual(['day10', 'day9']);

    // Scopes and bad input.
    expect((await get('reader', '/events')).status).toBe(200);
    expect((await get('repo', '/events')).status).toBe(403);
    expect((await api(gw.baseUrl, 'GET', '/api/v4/events')).status).toBe(401);
    expect((await get('owen', '/events?action=exploded')).status).toBe(400);
    expect((await get('owen', '/events?target_type=epic')).status).toBe(400);
    expect((await get('owen', '/events?before=2025-13-45')).status).toBe(400);
    expect((await get('owen', '/events?after=yesterday')).status).toBe(400);
  });

  it('rebuilds the projections from the stream to the same tables', async () => {
    const before = await tableSnapshot();
    expect(before.events.length).toBeGreaterThan(20);
    const runner = projector.get(EventsProjector);
    await expect(projector.get(RebuildProjectionsUseCase).execute()).rejects.toThrow(/stop every projector/);
    expect((await tableSnapshot()).events).toHaveLength(before.events.length);
    await runner.stop();
    await projector.get(RebuildProjectionsUseCase).execute();
    expect((await gw.dataSource.query('SELECT count(*)::int AS n FROM events'))[0].n).toBe(0);
    await runner.start();
    await eventually(tableSnapshot, (now) => now.projected.length === before.projected.length, 30_000, 'the replay');
    expect(await tableSnapshot()).toEqual(before);
  });

  it('loses and duplicates nothing when the projector stops mid-stream and starts again', async () => {
    const runner = projector.get(EventsProjector);
    const total = 2000;
    const burst = Array.from({ length: total }, (_, n) =>
      buildDomainEvent({
        data: { milestone: null },
        type: 'milestone.created',
        actor: ids.owen,
        projectId: n % 2 === 0 ? ids.pager : ids.site,
        target: { type: 'milestone', id: 900000 + n, iid: n + 1, title: `burst ${n}` },
      }),
    );
    const burstRows = () => gw.dataSource.query('SELECT count(*)::int AS n FROM events WHERE target_id >= 900000');
    // Stopped as soon as the first rows land: the rest of the burst waits in Kafka, uncommitted.
    const stopped = (async () => {
      await eventually(burstRows, (r) => r[0].n > 0, 20_000, 'the first burst rows');
      await runner.stop();
    })();
    for (let i = 0; i < total; i += 500) await publish(...burst.slice(i, i + 500));
    await stopped;
    const atStop = (await burstRows())[0].n;
    expect(atStop).toBeGreaterThan(0);
    await runner.start();
    const rows = await eventually(
      () => gw.dataSource.query('SELECT target_id FROM events WHERE target_id >= 900000 ORDER BY target_id'),
      (r) => r.length >= total,
      60_000,
      `${total} burst rows`,
    );
    expect(rows.map((r: any) => r.target_id)).toEqual(burst.map((_, n) => 900000 + n));
    const lag = async () => Number(/^projector_consumer_lag (-?\d+)$/m.exec((await projector.get(MetricsService).exposition()).body)?.[1]);
    await eventually(lag, (value) => value === 0, 20_000, 'a consumer lag of 0');
  });
  it('pages a project with more than 10,000 events without x-total, and counts narrower filters exactly', async () => {
    const big = (await call('owen', 'POST', '/projects', { name: 'big', visibility: 'public' })).body.id;
    // Its own "created" event first, so that it is the oldest one.
    await eventually(
      () => api(gw.baseUrl, 'GET', `/api/v4/projects/${big}/events`),
      (r) => r.body.length === 1,
    );
    // 10,050 events straight into the projection, numbered after the project's own as the projector numbers them, 10 of them `closed`.
    await gw.dataSource.query(
      `WITH pos AS (
         UPDATE project_event_positions SET last_seq = last_seq + 10050 WHERE project_id = $1 RETURNING last_seq - 10050 AS base
       )
       INSERT INTO events (source_event_id, project_id, project_seq, author_id, action, target_type, target_id, target_iid, target_title, created_at)
       SELECT gen_random_uuid(), $1, pos.base + g, $2, CASE WHEN g % 1000 = 0 THEN 'closed' ELSE 'created' END, 'Milestone', 600000 + g, g, 'big ' || g, now() - interval '1 second' * (10050 - g)
       FROM pos, generate_series(1, 10050) g ORDER BY g`,
      [big, ids.owen],
    );
    const list = (query: string, who: string | null = null) =>
      who ? get(who, `/projects/${big}/events${query}`) : api(gw.baseUrl, 'GET', `/api/v4/projects/${big}/events${query}`);
    const titles = (r: any) => r.body.map((e: any) => e.target_title);

    const first = await list('');
    expect(first.status).toBe(200);
    expect(titles(first)).toEqual(Array.from({ length: 20 }, (_, k) => `big ${10050 - k}`));
    expect(first.body[0].author.username).toBe('owen');
    expect(first.body[0].author_username).toBe('owen');
    expect(first.headers.get('x-total')).toBeNull();
    expect(first.headers.get('x-total-pages')).toBeNull();
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('link')).toContain('rel="next"');
    expect(first.headers.get('link')).not.toContain('rel="last"');
    // Again (the "more than 10,000" outcome is remembered for a while): same headers, administrator too.
    expect((await list('')).headers.get('x-total')).toBeNull();
    expect((await list('', 'root')).headers.get('x-total')).toBeNull();

    const deep = await list('?page=500&per_page=20');
    expect(titles(deep)).toEqual(Array.from({ length: 20 }, (_, k) => `big ${10050 - 9980 - k}`));
    expect(deep.headers.get('x-next-page')).toBe('501');
    const last = await list('?page=503&per_page=20');
    expect(titles(last)).toEqual([...Array.from({ length: 10 }, (_, k) => `big ${10 - k}`), null]);
    expect(last.body[10].action_name).toBe('created');
    expect(last.headers.get('x-next-page')).toBe('');
    expect(last.headers.get('x-prev-page')).toBe('502');
    expect(last.headers.get('x-total')).toBeNull();
    const past = await list('?page=504&per_page=20');
    expect(past.body).toEqual([]);
    expect(past.headers.get('x-total')).toBeNull();
    const ascending = await list('?sort=asc&per_page=3&page=2');
    expect(titles(ascending)).toEqual(['big 3', 'big 4', 'big 5']);

    // A filter narrower than the limit: exact totals, whether the page tells it or it is counted.
    const closedAll = await list('?action=closed');
    expect(titles(closedAll)).toEqual([
      'big 10000',
      'big 9000',
      'big 8000',
      'big 7000',
      'big 6000',
      'big 5000',
      'big 4000',
      'big 3000',
      'big 2000',
      'big 1000',
    ]);
    expect(closedAll.headers.get('x-total')).toBe('10');
    const closedPage = await list('?action=closed&per_page=4&page=2');
    expect(titles(closedPage)).toEqual(['big 6000', 'big 5000', 'big 4000', 'big 3000']);
    expect(closedPage.headers.get('x-total')).toBe('10');
    expect(closedPage.headers.get('x-total-pages')).toBe('3');
    expect(closedPage.headers.get('x-next-page')).toBe('3');
    expect(closedPage.headers.get('link')).toContain('rel="last"');
    const beyond = await list('?action=closed&per_page=4&page=9');
    expect(beyond.body).toEqual([]);
    expect(beyond.headers.get('x-total')).toBe('10');
    expect(beyond.headers.get('x-prev-page')).toBe('');

    // The tokens used on the way record their use (at most once a minute, in the background).
    const lastUsed = await eventually(
      () => gw.dataSource.query('SELECT last_used_at FROM access_tokens WHERE user_id = $1', [ids.owen]),
      (r) => r.length === 1 && r[0].last_used_at !== null,
    );
    expect(Date.now() - new Date(lastUsed[0].last_used_at).getTime()).toBeLessThan(10 * 60_000);
  });
});
