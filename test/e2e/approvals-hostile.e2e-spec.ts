import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

type User = { id: number; username: string; token: string };

/**
 * Merge request approvals (PREMIUM) under hostile input and concurrency: parallel rule
 * changes keep merge request copies equal to their project rules and never answer 500,
 * parallel approvals by one user leave one approval and one event, huge and odd inputs are 4xx.
 */
describe('Merge request approvals: hostile input and concurrency', () => {
  let gw: TestGateway;
  const users: Record<string, User> = {};
  let project: number;
  let iid: number;
  let mrId: number;

  const call = (name: string, method: string, path: string, body?: unknown) =>
    api(gw.baseUrl, method, `/api/v4${path}`, { token: name === 'root' ? gw.rootToken : users[name].token, body });
  const ok = async (name: string, method: string, path: string, body?: unknown): Promise<any> => {
    const res = await call(name, method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const copies = async (): Promise<Array<{ source_rule_id: number; name: string; approvals_required: number }>> =>
    gw.dataSource.query(
      'SELECT source_rule_id, name, approvals_required FROM approval_merge_request_rules WHERE merge_request_id = $1 ORDER BY source_rule_id',
      [mrId],
    );
  const projectRules = async (): Promise<Array<{ source_rule_id: number; name: string; approvals_required: number }>> =>
    gw.dataSource.query('SELECT id AS source_rule_id, name, approvals_required FROM approval_project_rules WHERE project_id = $1 ORDER BY id', [project]);

  beforeAll(async () => {
    gw = await startTestGateway('approvals_hostile', { SERVICE_TIER: 'premium' });
    for (const name of ['maria', 'dev', 'author']) users[name] = await createUserWithToken(gw, `${name}-hostile`);
    project = (await ok('root', 'POST', '/projects', { name: 'hostile', initialize_with_readme: true })).id;
    await addProjectMember(gw, project, users.maria.id, 40);
    await addProjectMember(gw, project, users.dev.id, 30);
    await addProjectMember(gw, project, users.author.id, 30);
    await ok('root', 'POST', `/projects/${project}/repository/branches`, { branch: 'topic', ref: 'main' });
    const mr = await ok('author', 'POST', `/projects/${project}/merge_requests`, { title: 'Hostile', source_branch: 'topic', target_branch: 'main' });
    iid = mr.iid;
    mrId = mr.id;
  }, 120_000);
  afterAll(async () => {
    await gw?.close();
  });

  it('parallel updates of different project rules leave every merge request copy equal to its project rule', async () => {
    const rules: number[] = [];
    for (const name of ['A', 'B', 'C', 'D'])
      rules.push((await ok('maria', 'POST', `/projects/${project}/approval_rules`, { name, approvals_required: 1, user_ids: [users.dev.id] })).id);
    for (let round = 2; round <= 6; round++) {
      const answers = await Promise.all(
        rules.map((id, i) =>
          call('maria', 'PUT', `/projects/${project}/approval_rules/${id}`, { name: `${'ABCD'[i]}${round}`, approvals_required: round + i }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    }
    expect(await copies()).toEqual(await projectRules());
    expect((await projectRules()).map((r) => r.approvals_required)).toEqual([6, 7, 8, 9]);
    for (const id of rules) expect((await call('maria', 'DELETE', `/projects/${project}/approval_rules/${id}`)).status).toBe(204);
  }, 60_000);

  it('parallel renames of two rules to one name: one succeeds, the other is a 400, never a 500', async () => {
    const a = (await ok('maria', 'POST', `/projects/${project}/approval_rules`, { name: 'first', approvals_required: 1 })).id;
    const b = (await ok('maria', 'POST', `/projects/${project}/approval_rules`, { name: 'second', approvals_required: 1 })).id;
    for (let round = 0; round < 5; round++) {
      const target = `same-${round}`;
      const answers = await Promise.all(
        [a, b].map((id) => call('maria', 'PUT', `/projects/${project}/approval_rules/${id}`, { name: target, approvals_required: 1 })),
      );
      expect(answers.map((x) => x.status).sort()).toEqual([200, 400]);
      expect(answers.find((x) => x.status === 400)!.body).toEqual({ message: { name: ['has already been taken'] } });
      const loser = answers[0].status === 400 ? a : b;
      await ok('maria', 'PUT', `/projects/${project}/approval_rules/${loser}`, { name: `other-${round}`, approvals_required: 1 });
      await ok('maria', 'PUT', `/projects/${project}/approval_rules/${loser === a ? b : a}`, { name: `reset-${round}`, approvals_required: 1 });
    }
    expect(await copies()).toEqual(await projectRules());
    for (const id of [a, b]) expect((await call('maria', 'DELETE', `/projects/${project}/approval_rules/${id}`)).status).toBe(204);
  }, 60_000);

  it('parallel approvals of one merge request by one user leave one approval row and one event', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => call('dev', 'POST', `/projects/${project}/merge_requests/${iid}/approve`)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 403, 403, 403, 403, 403]);
    expect(await gw.dataSource.query('SELECT user_id FROM merge_request_approvals WHERE merge_request_id = $1', [mrId])).toEqual([{ user_id: users.dev.id }]);
    const events = await gw.dataSource.query(
      `SELECT count(*)::int AS n FROM outbox_events WHERE payload->>'type' = 'merge_request.approved' AND (payload->'target'->>'id')::int = $1`,
      [mrId],
    );
    expect(events).toEqual([{ n: 1 }]);
    const unapproved = await Promise.all(Array.from({ length: 4 }, () => call('dev', 'POST', `/projects/${project}/merge_requests/${iid}/unapprove`)));
    expect(unapproved.map((a) => a.status).sort()).toEqual([201, 404, 404, 404]);
  }, 60_000);

  it('reset_approvals looks the merge request up before the caller: 404 for an unknown one, 401 for a Developer', async () => {
    expect((await call('dev', 'PUT', `/projects/${project}/merge_requests/999999/reset_approvals`)).status).toBe(404);
    expect((await call('dev', 'PUT', `/projects/${project}/merge_requests/${2 ** 31}/reset_approvals`)).status).toBe(404);
    expect((await call('dev', 'PUT', `/projects/${project}/merge_requests/${iid}/reset_approvals`)).body).toEqual({ message: '401 Unauthorized' });
    expect((await call('maria', 'PUT', `/projects/${project}/merge_requests/999999/reset_approvals`)).status).toBe(404);
  });

  it('refuses hostile rule input with 4xx and writes nothing', async () => {
    const before = await projectRules();
    const cases: unknown[] = [
      { name: 'x'.repeat(10_000), approvals_required: 1 },
      { name: 'neg', approvals_required: -1 },
      { name: 'big', approvals_required: 2 ** 31 },
      { name: 'many', approvals_required: 101 },
      { name: 'ids', approvals_required: 1, user_ids: [2 ** 31] },
      { name: 'ids', approvals_required: 1, user_ids: ['one'] },
      { name: 'ids', approvals_required: 1, group_ids: [-3] },
      { name: 'nul\u0000', approvals_required: 1 },
      { name: '   ', approvals_required: 1 },
      { name: 'type', approvals_required: 1, rule_type: 'code_owner' },
      { name: ['array'], approvals_required: 1 },
    ];
    for (const body of cases) {
      const answer = await call('maria', 'POST', `/projects/${project}/approval_rules`, body);
      expect({ body, status: answer.status }).toEqual({ body, status: 400 });
    }
    expect(await projectRules()).toEqual(before);
  }, 60_000);

  it('takes 100 000 user ids (duplicates and strangers included) in bounded time, keeping project members once', async () => {
    const ids = Array.from({ length: 100_000 }, (_, i) => (i % 3 === 0 ? users.dev.id : 1_000_000 + i));
    const started = Date.now();
    const answer = await call('maria', 'POST', `/projects/${project}/approval_rules`, { name: 'huge', approvals_required: 1, user_ids: ids });
    expect(answer.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(answer.body.users.map((u: { id: number }) => u.id)).toEqual([users.dev.id]);
    expect((await call('maria', 'DELETE', `/projects/${project}/approval_rules/${answer.body.id}`)).status).toBe(204);
  }, 60_000);
});
