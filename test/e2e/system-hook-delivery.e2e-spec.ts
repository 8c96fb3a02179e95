import { HookDispatcher } from '@app/hooks';
import { buildDomainEvent, NewDomainEvent, OutboxService } from '@app/messaging';
import { eventually } from '@app/testing';
import { Webhook } from 'standardwebhooks';
import { HookReceiver, loopbackCertificate, startHookReceiver } from './support/hook-receiver';
import { seedBranches } from './support/git-fixture';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

const ZERO = '0'.repeat(40);

/** A `push`/`tag_push` envelope as git push publishes it (see the README's push event contract). */
function pushEvent(type: 'push' | 'tag_push', projectId: number, ref: string, after: string): NewDomainEvent {
  const project = {
    id: projectId,
    name: 'Demo',
    description: '',
    web_url: 'http://x/root/demo',
    avatar_url: null,
    git_ssh_url: 'git@x:root/demo.git',
    git_http_url: 'http://x/root/demo.git',
    namespace: 'root',
    visibility_level: 0,
    path_with_namespace: 'root/demo',
    default_branch: 'main',
    homepage: 'http://x/root/demo',
    url: 'git@x:root/demo.git',
    ssh_url: 'git@x:root/demo.git',
    http_url: 'http://x/root/demo.git',
  };
  return {
    type,
    actor: 1,
    projectId,
    target: { type: 'project', id: projectId, title: 'Demo' },
    data: {
      object_kind: type,
      event_name: type,
      ref,
      before: ZERO,
      after,
      checkout_sha: after,
      message: null,
      user_id: 1,
      user_name: 'Administrator',
      user_username: 'root',
      user_email: 'admin@example.com',
      user_avatar: null,
      project_id: projectId,
      project,
      repository: {
        name: 'Demo',
        url: project.url,
        description: '',
        homepage: project.homepage,
        git_http_url: project.git_http_url,
        git_ssh_url: project.git_ssh_url,
        visibility_level: 0,
      },
      commits: [
        {
          id: after,
          message: 'first\n',
          title: 'first',
          timestamp: '2026-01-01T00:00:00Z',
          url: `http://x/root/demo/-/commit/${after}`,
          author: { name: 'A', email: 'a@x' },
          added: ['README.md'],
          modified: [],
          removed: [],
        },
      ],
      total_commits_count: 1,
    },
  };
}

function repositoryUpdateEvent(projectId: number, refs: string[]): NewDomainEvent {
  return {
    type: 'repository_update',
    actor: 1,
    projectId,
    target: { type: 'project', id: projectId, title: 'Demo' },
    data: {
      event_name: 'repository_update',
      user_id: 1,
      user_name: 'Administrator',
      user_email: 'admin@example.com',
      user_avatar: null,
      project_id: projectId,
      project: { id: projectId, name: 'Demo' },
      changes: refs.map((ref) => ({ before: ZERO, after: 'a'.repeat(40), ref })),
      refs,
    },
  };
}

/** Delivery of real events to real receivers on loopback: selection, headers, signature, retries, health, log, resend, TLS, SSRF, loop protection. */
describe('System hook deliveries', () => {
  let gw: TestGateway;
  let receiver: HookReceiver;
  const root = () => ({ token: gw.rootToken });
  const createHook = async (path: string, body: Record<string, unknown> = {}) => {
    const response = await api(gw.baseUrl, 'POST', '/api/v4/hooks', { ...root(), body: { url: `${receiver.url}${path}`, ...body } });
    expect(response.status).toBe(201);
    return response.body[0] as Record<string, any>;
  };
  const publish = async (events: NewDomainEvent[]) => {
    const outbox = gw.app.get(OutboxService);
    return gw.dataSource.transaction((tx) => outbox.append(tx, events));
  };
  const hookRecord = async (id: number) => (await api(gw.baseUrl, 'GET', `/api/v4/hooks/${id}`, root())).body[0];
  const hookLog = async (id: number, query = '') =>
    (await api(gw.baseUrl, 'GET', `/api/v4/hooks/${id}/events${query}`, root())).body as Array<Record<string, any>>;
  const setSettings = async (body: Record<string, unknown>) =>
    expect((await api(gw.baseUrl, 'PUT', '/api/v4/application/settings', { ...root(), body })).status).toBe(200);

  beforeAll(async () => {
    gw = await startTestGateway('hook_delivery', {
      HOOK_RETRY_SCHEDULE: '100ms,200ms,300ms,300ms,300ms,300ms,300ms',
      SETTINGS_CACHE_TTL: '0',
      HOOK_MAX_CHAIN_DEPTH: '3',
      HOOK_TIMEOUT_MS: '2000',
    });
    receiver = await startHookReceiver({ reply: (d) => (d.path.startsWith('/fail') ? { status: 500 } : { status: 200 }) });
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await gw?.close();
  });

  it('delivers system events to every hook and each flag selects exactly its events, signed for Standard Webhooks receivers', async () => {
    const all = await createHook('/all', {
      push_events: true,
      tag_push_events: true,
      merge_requests_events: true,
      repository_update_events: true,
      token: 'all-secret',
    });
    const none = await createHook('/none', { repository_update_events: false });
    const push = await createHook('/push', { push_events: true, repository_update_events: false });
    const tag = await createHook('/tag', { tag_push_events: true, repository_update_events: false });
    const mr = await createHook('/mr', { merge_requests_events: true, repository_update_events: false });
    const repo = await createHook('/repo');

    // System events from real API calls.
    const user = await api(gw.baseUrl, 'POST', '/api/v4/users', {
      ...root(),
      body: { username: 'hooked', name: 'Hooked', email: 'hooked@example.com', password: 'secret-password-1' },
    });
    expect(user.status).toBe(201);
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name: 'Demo' } });
    expect(project.status).toBe(201);
    const group = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...root(), body: { name: 'Hooked Group', path: 'hooked-group' } });
    expect(group.status).toBe(201);
    // Stream events as git push and merge requests publish them.
    await publish([
      pushEvent('push', project.body.id, 'refs/heads/main', 'a'.repeat(40)),
      pushEvent('push', project.body.id, 'refs/heads/dev', 'b'.repeat(40)),
      pushEvent('tag_push', project.body.id, 'refs/tags/v1', 'c'.repeat(40)),
      repositoryUpdateEvent(project.body.id, ['refs/heads/main', 'refs/heads/dev', 'refs/tags/v1']),
      {
        type: 'merge_request.opened',
        actor: 1,
        projectId: project.body.id,
        target: { type: 'merge_request', id: 1, iid: 1, title: 'MR' },
        data: { merge_request: { id: 1, iid: 1, title: 'MR', state: 'opened', source_branch: 'dev', target_branch: 'main', author_id: 1, milestone_id: null } },
      },
      {
        type: 'merge_request.merged',
        actor: 1,
        projectId: project.body.id,
        target: { type: 'merge_request', id: 1, iid: 1, title: 'MR' },
        data: { merge_request: { id: 1, iid: 1, title: 'MR', state: 'merged', source_branch: 'dev', target_branch: 'main', author_id: 1, milestone_id: null } },
      },
      // Not a catalogued type (as another service may publish): written unchecked, and skipped.
      { type: 'issue.created', actor: 1, projectId: project.body.id, data: {} } as unknown as NewDomainEvent,
    ]);

    const system = ['user_create', 'project_create', 'user_add_to_team', 'group_create', 'user_add_to_group'];
    const expected: Record<string, string[]> = {
      '/all': [...system, 'push', 'push', 'tag_push', 'repository_update', 'merge_request', 'merge_request'],
      '/none': system,
      '/push': [...system, 'push', 'push'],
      '/tag': [...system, 'tag_push'],
      '/mr': [...system, 'merge_request', 'merge_request'],
      '/repo': [...system, 'repository_update'],
    };
    const names = (path: string) =>
      receiver
        .at(path)
        .map((d) => d.json.event_name ?? d.json.object_kind)
        .sort();
    await eventually(
      () => (Object.entries(expected).every(([path, list]) => receiver.at(path).length >= list.length) ? true : undefined),
      'every delivery',
      30_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const [path, list] of Object.entries(expected)) expect(names(path)).toEqual([...list].sort());

    // Payload shapes.
    const pushes = receiver.at('/push').filter((d) => d.json.object_kind === 'push');
    expect(pushes.map((d) => d.json.ref).sort()).toEqual(['refs/heads/dev', 'refs/heads/main']);
    expect(pushes[0].json).toMatchObject({
      event_name: 'push',
      before: ZERO,
      user_username: 'root',
      project: { path_with_namespace: 'root/demo' },
      total_commits_count: 1,
      commits: [expect.objectContaining({ added: ['README.md'] })],
    });
    expect(receiver.at('/repo').find((d) => d.json.event_name === 'repository_update')!.json).toMatchObject({
      refs: ['refs/heads/main', 'refs/heads/dev', 'refs/tags/v1'],
      changes: expect.any(Array),
    });
    expect(
      receiver
        .at('/mr')
        .map((d) => d.json.object_attributes?.action)
        .filter(Boolean)
        .sort(),
    ).toEqual(['merge', 'open']);
    expect(receiver.at('/none').find((d) => d.json.event_name === 'project_create')!.json).toMatchObject({
      name: 'Demo',
      path: 'demo',
      project_id: project.body.id,
      owner_email: expect.any(String),
    });

    // Headers and signature.
    const delivery = receiver.at('/all').find((d) => d.json.event_name === 'project_create')!;
    expect(delivery.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': expect.stringMatching(/^Service-Hook\//),
      'x-service-event': 'System Hook',
      'x-service-token': 'all-secret',
      'x-service-instance': gw.config.http.externalUrl,
      'x-service-webhook-uuid': expect.stringMatching(/^[0-9a-f-]{36}$/),
      'idempotency-key': expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(delivery.headers['webhook-id']).toBe(delivery.headers['idempotency-key']);
    const verified = new Webhook(`whsec_${Buffer.from('all-secret').toString('base64')}`).verify(delivery.body, delivery.headers as Record<string, string>);
    expect(verified).toEqual(delivery.json);
    expect(() => new Webhook(`whsec_${Buffer.from('wrong').toString('base64')}`).verify(delivery.body, delivery.headers as Record<string, string>)).toThrow();
    const unsigned = receiver.at('/none')[0];
    expect(unsigned.headers['x-service-token']).toBeUndefined();
    expect(unsigned.headers['webhook-signature']).toBeUndefined();
    // Idempotency keys differ per (event, hook); webhook UUIDs per attempt.
    const keys = receiver.received.map((d) => d.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(keys.length);

    // The log: one successful row per delivery, secrets redacted.
    const log = await hookLog(all.id);
    expect(log).toHaveLength(expected['/all'].length);
    expect(log[0]).toMatchObject({
      status: 'successful',
      response_status: 200,
      url: `${receiver.url}/all`,
      request_headers: { 'X-Service-Token': '[REDACTED]', 'webhook-signature': '[REDACTED]' },
      attempt: 1,
    });
    expect(JSON.stringify(log)).not.toContain('all-secret');
    expect(log.map((r) => r.id)).toEqual([...log.map((r) => r.id)].sort((a, b) => b - a));
    for (const id of [none.id, push.id, tag.id, mr.id, repo.id]) expect((await hookLog(id)).every((r) => r.status === 'successful')).toBe(true);
  }, 60_000);

  it("delivers merge requests opened and closed through the API in GitLab's merge request shape", async () => {
    const hook = await createHook('/mr-api', { merge_requests_events: true, repository_update_events: false });
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name: 'Merging' } });
    await seedBranches(gw, project.body.id, 'main', ['feature']);
    const mr = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.body.id}/merge_requests`, {
      ...root(),
      body: { source_branch: 'feature', target_branch: 'main', title: 'Add feature', labels: 'backend' },
    });
    expect(mr.status).toBe(201);
    expect(
      (await api(gw.baseUrl, 'PUT', `/api/v4/projects/${project.body.id}/merge_requests/${mr.body.iid}`, { ...root(), body: { state_event: 'close' } })).status,
    ).toBe(200);
    await eventually(
      () => (receiver.at('/mr-api').filter((d) => d.json.object_kind === 'merge_request').length >= 2 ? true : undefined),
      'the merge request deliveries',
      15_000,
    );
    const [opened, closed] = receiver.at('/mr-api').filter((d) => d.json.object_kind === 'merge_request');
    expect(opened.json).toMatchObject({
      object_kind: 'merge_request',
      event_type: 'merge_request',
      user: { id: 1, username: 'root', name: expect.any(String) },
      project: { id: project.body.id, name: 'Merging', path_with_namespace: 'root/merging', web_url: `${gw.config.http.externalUrl}/root/merging` },
      object_attributes: {
        id: mr.body.id,
        iid: mr.body.iid,
        title: 'Add feature',
        source_branch: 'feature',
        target_branch: 'main',
        target_project_id: project.body.id,
        url: `${gw.config.http.externalUrl}/root/merging/-/merge_requests/${mr.body.iid}`,
        action: 'open',
      },
      repository: { name: 'Merging' },
    });
    expect(closed.json.object_attributes.action).toBe('close');
    await api(gw.baseUrl, 'DELETE', `/api/v4/hooks/${hook.id}`, root());
  }, 30_000);

  it('enqueues an event read twice from the stream once (deterministic job id)', async () => {
    const hook = await createHook('/dedupe');
    const event = buildDomainEvent({
      type: 'group_create',
      actor: 1,
      groupId: 424242,
      data: { name: 'Twice', path: 'twice', full_path: 'twice', group_id: 424242 },
    });
    const dispatcher = gw.app.get(HookDispatcher);
    await dispatcher.dispatch([event]);
    await eventually(() => receiver.at('/dedupe').find((d) => d.json.path === 'twice'), 'the delivery', 15_000);
    await dispatcher.dispatch([event]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.at('/dedupe').filter((d) => d.json.path === 'twice')).toHaveLength(1);
    await api(gw.baseUrl, 'DELETE', `/api/v4/hooks/${hook.id}`, root());
  }, 30_000);

  it('does not deliver events that occurred before the hook existed', async () => {
    await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...root(), body: { name: 'Before', path: 'before-hook' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const late = await createHook('/late');
    await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...root(), body: { name: 'After', path: 'after-hook' } });
    await eventually(() => (receiver.at('/late').some((d) => d.json.path === 'after-hook') ? true : undefined), 'the later event', 15_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      receiver
        .at('/late')
        .map((d) => d.json.path)
        .filter(Boolean),
    ).toEqual(['after-hook']);
    await api(gw.baseUrl, 'DELETE', `/api/v4/hooks/${late.id}`, root());
  }, 30_000);

  it('retries with backoff keeping the Idempotency-Key, waits for Retry-After, and logs every attempt', async () => {
    let calls = 0;
    receiver.setReply((d) => {
      if (d.path === '/flaky' && d.json.event_name === 'project_create') return ++calls <= 2 ? { status: 500, body: 'boom' } : { status: 200 };
      if (d.path === '/limited' && d.json.event_name === 'project_create') {
        return receiver.at('/limited').filter((r) => r.json.event_name === 'project_create').length === 1
          ? { status: 429, headers: { 'Retry-After': '1' } }
          : { status: 200 };
      }
      return d.path.startsWith('/fail') ? { status: 500 } : { status: 200 };
    });
    const flaky = await createHook('/flaky');
    const limited = await createHook('/limited');
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name: 'Retry Me' } });
    expect(project.status).toBe(201);

    await eventually(
      () => (receiver.at('/flaky').filter((d) => d.json.event_name === 'project_create').length >= 3 ? true : undefined),
      'three attempts',
      20_000,
    );
    const attempts = receiver.at('/flaky').filter((d) => d.json.event_name === 'project_create');
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.headers['idempotency-key'])).size).toBe(1);
    expect(new Set(attempts.map((a) => a.headers['x-service-webhook-uuid'])).size).toBe(3);
    // Schedule 100 ms then 200 ms, ±20 %.
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(75);
    expect(attempts[2].at - attempts[1].at).toBeGreaterThanOrEqual(155);

    await eventually(
      async () => ((await hookLog(flaky.id)).filter((r) => r.trigger === 'project_create').length >= 3 ? true : undefined),
      'the attempts logged',
    );
    const rows = (await hookLog(flaky.id)).filter((r) => r.trigger === 'project_create').reverse();
    expect(rows.map((r) => [r.status, r.response_status, r.attempt])).toEqual([
      ['server_failure', 500, 1],
      ['server_failure', 500, 2],
      ['successful', 200, 3],
    ]);
    expect(rows[0]).toMatchObject({ response_body: 'boom', error: 'HTTP 500', execution_duration: expect.any(Number) });
    expect(new Set(rows.map((r) => r.idempotency_key)).size).toBe(1);
    expect((await hookLog(flaky.id, '?status=server_failure')).every((r) => r.status === 'server_failure')).toBe(true);
    expect((await hookLog(flaky.id, '?status=successful')).every((r) => r.status === 'successful')).toBe(true);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/hooks/${flaky.id}/events?status=bogus`, root())).status).toBe(400);
    const page = await api(gw.baseUrl, 'GET', `/api/v4/hooks/${flaky.id}/events?per_page=1&page=2`, root());
    expect(page.body).toHaveLength(1);
    expect(page.headers.get('x-page')).toBe('2');
    expect(page.headers.get('link')).toContain('rel="next"');
    // A success resets the failure count.
    expect(await hookRecord(flaky.id)).toMatchObject({ alert_status: 'executable', recent_failures: 0 });

    await eventually(
      () => (receiver.at('/limited').filter((d) => d.json.event_name === 'project_create').length >= 2 ? true : undefined),
      'the retry after 429',
      20_000,
    );
    const limitedAttempts = receiver.at('/limited').filter((d) => d.json.event_name === 'project_create');
    expect(limitedAttempts[1].at - limitedAttempts[0].at).toBeGreaterThanOrEqual(950);
    expect((await hookLog(limited.id)).map((r) => r.status).sort()).toEqual(expect.arrayContaining(['client_failure', 'successful']));
    for (const id of [flaky.id, limited.id]) await api(gw.baseUrl, 'DELETE', `/api/v4/hooks/${id}`, root());
  }, 60_000);

  it('disables a failing hook temporarily from the 4th failure, logs what it missed, and re-enables it; resend keeps the Idempotency-Key', async () => {
    receiver.setReply((d) => (d.path.startsWith('/fail') ? { status: 503 } : { status: 200 }));
    const hook = await createHook('/failing');
    receiver.setReply((d) => (d.path === '/failing' ? { status: 500 } : { status: 200 }));
    await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...root(), body: { name: 'Trigger', path: 'trigger-1' } });
    const disabled = await eventually(
      async () => {
        const record = await hookRecord(hook.id);
        return record.alert_status === 'temporarily_disabled' ? record : undefined;
      },
      'the hook disabled',
      20_000,
    );
    expect(disabled.recent_failures).toBeGreaterThanOrEqual(4);
    const until = Date.parse(disabled.disabled_until);
    expect(until - Date.now()).toBeGreaterThan(50_000);
    expect(until - Date.now()).toBeLessThanOrEqual(60_000);

    // While disabled: the event is not sent, but logged as skipped.
    await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...root(), body: { name: 'Missed', path: 'missed-1' } });
    const skipped = await eventually(
      async () => (await hookLog(hook.id, '?status=skipped')).find((r) => r.request_data?.path === 'missed-1'),
      'the skipped event',
      15_000,
    );
    expect(skipped.error).toMatch(/temporarily disabled until/);
    expect(receiver.at('/failing').some((d) => d.json.path === 'missed-1')).toBe(false);

    // Re-enabled by an update; the receiver recovered; resend the missed event.
    receiver.setReply(() => ({ status: 200 }));
    const updated = await api(gw.baseUrl, 'PUT', `/api/v4/hooks/${hook.id}`, { ...root(), body: {} });
    expect(updated.body[0]).toMatchObject({ alert_status: 'executable', disabled_until: null, recent_failures: 0 });
    const resend = await api(gw.baseUrl, 'POST', `/api/v4/hooks/${hook.id}/events/${skipped.id}/resend`, root());
    expect(resend.status).toBe(201);
    expect(resend.body.idempotency_key).toBe(skipped.idempotency_key);
    const redelivered = await eventually(() => receiver.at('/failing').find((d) => d.json.path === 'missed-1'), 'the resent event', 15_000);
    expect(redelivered.headers['idempotency-key']).toBe(skipped.idempotency_key);
    // Resending the same entry again: same key, new webhook UUID.
    await api(gw.baseUrl, 'POST', `/api/v4/hooks/${hook.id}/events/${skipped.id}/resend`, root());
    await eventually(() => (receiver.at('/failing').filter((d) => d.json.path === 'missed-1').length === 2 ? true : undefined), 'the second resend', 15_000);
    const both = receiver.at('/failing').filter((d) => d.json.path === 'missed-1');
    expect(both[1].headers['idempotency-key']).toBe(skipped.idempotency_key);
    expect(both[1].headers['x-service-webhook-uuid']).not.toBe(both[0].headers['x-service-webhook-uuid']);
    // Each resend was recorded in PostgreSQL until its attempt had its outcome (rebuilt if Redis lost it).
    await eventually(
      async () =>
        (await gw.dataSource.query(`SELECT count(*)::int AS n FROM system_hook_resends WHERE hook_id = $1`, [hook.id]))[0].n === 0 ? true : undefined,
      'the resends forgotten once attempted',
    );
    expect((await api(gw.baseUrl, 'POST', `/api/v4/hooks/${hook.id}/events/999999999/resend`, root())).status).toBe(404);
    expect((await api(gw.baseUrl, 'POST', `/api/v4/hooks/${hook.id}/events/abc/resend`, root())).status).toBe(404);

    // Permanently disabled at the 40th consecutive failure; a successful test delivery re-enables it.
    receiver.setReply((d) => (d.path === '/failing' ? { status: 500 } : { status: 200 }));
    await gw.dataSource.query(`UPDATE system_hooks SET recent_failures = 39, backoff_count = 6 WHERE id = $1`, [hook.id]);
    await api(gw.baseUrl, 'POST', `/api/v4/hooks/${hook.id}`, root());
    await eventually(async () => ((await hookRecord(hook.id)).alert_status === 'disabled' ? true : undefined), 'the hook disabled permanently');
    await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...root(), body: { name: 'Missed 2', path: 'missed-2' } });
    const skippedPermanently = await eventually(
      async () => (await hookLog(hook.id, '?status=skipped')).find((r) => r.request_data?.path === 'missed-2'),
      'the event skipped by the disabled hook',
      15_000,
    );
    expect(skippedPermanently.error).toMatch(/hook disabled after \d+ consecutive failures/);
    receiver.setReply(() => ({ status: 200 }));
    await api(gw.baseUrl, 'POST', `/api/v4/hooks/${hook.id}`, root());
    expect(await hookRecord(hook.id)).toMatchObject({ alert_status: 'executable', recent_failures: 0 });
    await api(gw.baseUrl, 'DELETE', `/api/v4/hooks/${hook.id}`, root());
  }, 90_000);

  it('verifies TLS certificates unless enable_ssl_verification is false', async () => {
    const tls = await startHookReceiver({ tls: loopbackCertificate() });
    try {
      const verifying = (await api(gw.baseUrl, 'POST', '/api/v4/hooks', { ...root(), body: { url: `${tls.url}/verify` } })).body[0];
      const trusting = (await api(gw.baseUrl, 'POST', '/api/v4/hooks', { ...root(), body: { url: `${tls.url}/trust`, enable_ssl_verification: false } }))
        .body[0];
      await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...root(), body: { name: 'Tls', path: 'tls-group' } });
      await eventually(() => tls.at('/trust').find((d) => d.json.path === 'tls-group'), 'the delivery over TLS', 15_000);
      const failed = await eventually(
        async () => (await hookLog(verifying.id)).find((r) => r.request_data?.path === 'tls-group'),
        'the refused TLS attempt',
        15_000,
      );
      expect(failed).toMatchObject({ status: 'server_failure', response_status: null, error: expect.stringMatching(/certificate/i) });
      expect(tls.at('/verify')).toHaveLength(0);
      for (const id of [verifying.id, trusting.id]) await api(gw.baseUrl, 'DELETE', `/api/v4/hooks/${id}`, root());
    } finally {
      await tls.close();
    }
  }, 30_000);

  it('refuses local addresses when allow_local_requests_from_system_hooks is false, unless whitelisted', async () => {
    const hook = await createHook('/local');
    const byName = (await api(gw.baseUrl, 'POST', '/api/v4/hooks', { ...root(), body: { url: `http://localhost:${receiver.port}/by-name` } })).body[0];
    await setSettings({ allow_local_requests_from_system_hooks: false, outbound_local_requests_whitelist: [] });
    try {
      await api(gw.baseUrl, 'POST', `/api/v4/hooks/${hook.id}`, root());
      await api(gw.baseUrl, 'POST', `/api/v4/hooks/${byName.id}`, root());
      await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...root(), body: { name: 'Local', path: 'local-group' } });
      const refused = await eventually(
        async () => (await hookLog(hook.id)).find((r) => r.request_data?.path === 'local-group'),
        'the refused event delivery',
        15_000,
      );
      expect(refused).toMatchObject({ status: 'server_failure', response_status: null, error: 'blocked: Requests to localhost are not allowed' });
      const testRefused = (await hookLog(hook.id)).find(
        (r) => r.request_data?.event_name === 'project_create' && r.trigger === 'project_create' && r.event_id === null,
      );
      expect(testRefused).toMatchObject({ error: 'blocked: Requests to localhost are not allowed' });
      expect((await hookLog(byName.id))[0]).toMatchObject({ error: 'blocked: Requests to localhost are not allowed' });
      expect(receiver.at('/local')).toHaveLength(0);
      expect(receiver.at('/by-name')).toHaveLength(0);

      // Whitelisted with its port: delivered (test delivery and events), with DNS rebinding protection on (pinned connection).
      await setSettings({ outbound_local_requests_whitelist: [`127.0.0.1:${receiver.port}`, 'localhost'], dns_rebinding_protection_enabled: true });
      await api(gw.baseUrl, 'POST', `/api/v4/hooks/${hook.id}`, root());
      await api(gw.baseUrl, 'POST', `/api/v4/hooks/${byName.id}`, root());
      expect(receiver.at('/local')).toHaveLength(1);
      expect(receiver.at('/by-name')).toHaveLength(1);
      await setSettings({ outbound_local_requests_whitelist: ['127.0.0.1:1'] });
      await api(gw.baseUrl, 'POST', `/api/v4/hooks/${hook.id}`, root());
      expect(receiver.at('/local')).toHaveLength(1);
    } finally {
      await setSettings({ allow_local_requests_from_system_hooks: true, outbound_local_requests_whitelist: [] });
    }
    for (const id of [hook.id, byName.id]) await api(gw.baseUrl, 'DELETE', `/api/v4/hooks/${id}`, root());
  }, 30_000);

  it('cuts a loop of receivers calling back into the API after HOOK_MAX_CHAIN_DEPTH deliveries', async () => {
    let created = 0;
    receiver.setReply(async (d) => {
      if (d.path === '/loop' && d.json.event_name === 'group_create') {
        created += 1;
        // The receiver reacts to every group with another group, echoing the chain headers.
        await api(gw.baseUrl, 'POST', '/api/v4/groups', {
          ...root(),
          headers: {
            'X-Service-Event-UUID': String(d.headers['x-service-event-uuid']),
            'X-Service-Event-Chain-Depth': String(d.headers['x-service-event-chain-depth']),
          },
          body: { name: `Loop ${created}`, path: `loop-${created}` },
        });
      }
      return { status: 200 };
    });
    const hook = await createHook('/loop');
    await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...root(), body: { name: 'Loop start', path: 'loop-start' } });
    const cut = await eventually(
      async () => (await hookLog(hook.id, '?status=skipped')).find((r) => r.trigger === 'group_create' && /loop protection/.test(r.error ?? '')),
      'the cut chain',
      20_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const loop = receiver.at('/loop').filter((d) => d.json.event_name === 'group_create');
    expect(loop.map((d) => d.headers['x-service-event-chain-depth'])).toEqual(['1', '2', '3']);
    expect(new Set(loop.map((d) => d.headers['x-service-event-uuid'])).size).toBe(1);
    expect(cut.request_data.path).toBe('loop-3');
    expect(cut.error).toMatch(/delivery 4 of chain .* exceeds HOOK_MAX_CHAIN_DEPTH \(3\)/);
    receiver.setReply(() => ({ status: 200 }));
    await api(gw.baseUrl, 'DELETE', `/api/v4/hooks/${hook.id}`, root());
  }, 40_000);

  it('exposes delivery metrics', async () => {
    const metrics = await fetch(`${gw.baseUrl}/-/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/system_hook_deliveries_total\{outcome="successful"\} [1-9]/);
    expect(metrics).toMatch(/system_hook_deliveries_total\{outcome="server_failure"\} [1-9]/);
    expect(metrics).toMatch(/system_hook_deliveries_total\{outcome="skipped"\} [1-9]/);
    expect(metrics).toMatch(/system_hook_delivery_duration_seconds_bucket\{le="0.5",outcome="successful"\} [1-9]/);
    expect(metrics).toMatch(/system_hook_delivery_queue_depth\{state="waiting"\} \d+/);
    expect(metrics).toMatch(/system_hooks_disabled\{status="disabled"\} \d+/);
  });
});
