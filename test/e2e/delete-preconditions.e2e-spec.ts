import { ModulesContainer } from '@nestjs/core';
import { listDeleteRoutes } from '@app/api';
import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

interface DeleteCase {
  /** The DELETE request (path, and the token to send it with: root's by default). */
  path: string;
  token?: string;
  /** A JSON body to send with the DELETE (the runner protocol identifies the runner by its token there). */
  body?: unknown;
  /** A GET that answers 200 while the resource exists. */
  check: string;
}

/**
 * `If-Unmodified-Since` on every DELETE of the gateway (document 1: 412 when the resource
 * changed after the given time). The routes are read from the application itself: a new
 * DELETE route fails this file until it says how it honours the header and has a case here.
 */
describe('If-Unmodified-Since on every DELETE route', () => {
  let gw: TestGateway;
  const cases = new Map<string, () => Promise<DeleteCase>>();

  beforeAll(async () => {
    gw = await startTestGateway('delete-preconditions');
  });
  afterAll(() => gw.close());

  const root = (method: string, path: string, body?: unknown) => api(gw.baseUrl, method, path, { token: gw.rootToken, body });
  const created = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await root(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return Array.isArray(res.body) ? res.body[0] : res.body;
  };
  let counter = 0;
  const unique = (prefix: string): string => `${prefix}${++counter}`;
  const project = async (): Promise<number> => (await created('POST', '/api/v4/projects', { name: unique('p'), initialize_with_readme: true })).id;
  const group = async (): Promise<number> => (await created('POST', '/api/v4/groups', { name: unique('g'), path: unique('g') })).id;
  const user = () => createUserWithToken(gw, unique('u'));
  const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

  cases.set('DELETE /personal_access_tokens/self', async () => {
    const owner = await user();
    return {
      path: '/api/v4/personal_access_tokens/self',
      token: owner.token,
      check: '/api/v4/personal_access_tokens/self?' + new URLSearchParams({ private_token: owner.token }),
    };
  });
  cases.set('DELETE /personal_access_tokens/:id', async () => {
    const owner = await user();
    const token = await created('POST', `/api/v4/users/${owner.id}/personal_access_tokens`, { name: 't', scopes: ['api'] });
    return { path: `/api/v4/personal_access_tokens/${token.id}`, check: `/api/v4/personal_access_tokens/${token.id}` };
  });
  cases.set('DELETE /users/:user_id/impersonation_tokens/:token_id', async () => {
    const owner = await user();
    const token = await created('POST', `/api/v4/users/${owner.id}/impersonation_tokens`, { name: 't', scopes: ['api'] });
    return { path: `/api/v4/users/${owner.id}/impersonation_tokens/${token.id}`, check: `/api/v4/users/${owner.id}/impersonation_tokens/${token.id}` };
  });
  cases.set('DELETE /users/:id', async () => {
    const target = await user();
    return { path: `/api/v4/users/${target.id}`, check: `/api/v4/users/${target.id}` };
  });
  cases.set('DELETE /projects/:id/access_tokens/:token_id', async () => {
    const id = await project();
    const token = await created('POST', `/api/v4/projects/${id}/access_tokens`, { name: 't', scopes: ['api'], expires_at: expiry });
    return { path: `/api/v4/projects/${id}/access_tokens/${token.id}`, check: `/api/v4/projects/${id}/access_tokens/${token.id}` };
  });
  cases.set('DELETE /groups/:id/access_tokens/:token_id', async () => {
    const id = await group();
    const token = await created('POST', `/api/v4/groups/${id}/access_tokens`, { name: 't', scopes: ['api'], expires_at: expiry });
    return { path: `/api/v4/groups/${id}/access_tokens/${token.id}`, check: `/api/v4/groups/${id}/access_tokens/${token.id}` };
  });
  for (const kind of ['projects', 'groups'] as const) {
    cases.set(`DELETE /${kind}/:id/badges/:badge_id`, async () => {
      const id = kind === 'projects' ? await project() : await group();
      const badge = await created('POST', `/api/v4/${kind}/${id}/badges`, { link_url: 'https://example.com/l', image_url: 'https://example.com/i' });
      return { path: `/api/v4/${kind}/${id}/badges/${badge.id}`, check: `/api/v4/${kind}/${id}/badges/${badge.id}` };
    });
    cases.set(`DELETE /${kind}/:id/members/:user_id`, async () => {
      const id = kind === 'projects' ? await project() : await group();
      const member = await user();
      await created('POST', `/api/v4/${kind}/${id}/members`, { user_id: member.id, access_level: 30 });
      return { path: `/api/v4/${kind}/${id}/members/${member.id}`, check: `/api/v4/${kind}/${id}/members/${member.id}` };
    });
    cases.set(`DELETE /${kind}/:id/custom_attributes/:key`, async () => {
      const id = kind === 'projects' ? await project() : await group();
      await created('PUT', `/api/v4/${kind}/${id}/custom_attributes/colour`, { value: 'blue' });
      return { path: `/api/v4/${kind}/${id}/custom_attributes/colour`, check: `/api/v4/${kind}/${id}/custom_attributes/colour` };
    });
  }
  cases.set('DELETE /users/:id/custom_attributes/:key', async () => {
    const target = await user();
    await created('PUT', `/api/v4/users/${target.id}/custom_attributes/colour`, { value: 'blue' });
    return { path: `/api/v4/users/${target.username}/custom_attributes/colour`, check: `/api/v4/users/${target.id}/custom_attributes/colour` };
  });
  cases.set('DELETE /hooks/:id', async () => {
    const hook = await created('POST', '/api/v4/hooks', { url: 'http://127.0.0.1:9/hook' });
    return { path: `/api/v4/hooks/${hook.id}`, check: `/api/v4/hooks/${hook.id}` };
  });
  cases.set('DELETE /projects/:id/protected_branches/:name', async () => {
    const id = await project();
    await created('POST', `/api/v4/projects/${id}/protected_branches`, { name: 'release-*' });
    return { path: `/api/v4/projects/${id}/protected_branches/release-*`, check: `/api/v4/projects/${id}/protected_branches/release-*` };
  });
  cases.set('DELETE /projects/:id/repository/branches/:branch', async () => {
    const id = await project();
    await created('POST', `/api/v4/projects/${id}/repository/branches`, { branch: 'topic', ref: 'main' });
    return { path: `/api/v4/projects/${id}/repository/branches/topic`, check: `/api/v4/projects/${id}/repository/branches/topic` };
  });
  cases.set('DELETE /projects/:id/milestones/:milestone_id', async () => {
    const id = await project();
    const milestone = await created('POST', `/api/v4/projects/${id}/milestones`, { title: 'm' });
    return { path: `/api/v4/projects/${id}/milestones/${milestone.id}`, check: `/api/v4/projects/${id}/milestones/${milestone.id}` };
  });
  cases.set('DELETE /projects/:id/issues/:issue_iid', async () => {
    const id = await project();
    const issue = await created('POST', `/api/v4/projects/${id}/issues`, { title: 'i' });
    return { path: `/api/v4/projects/${id}/issues/${issue.iid}`, check: `/api/v4/projects/${id}/issues/${issue.iid}` };
  });
  cases.set('DELETE /projects/:id/alert_management/http_integrations/:integration_id', async () => {
    const id = await project();
    const integration = await created('POST', `/api/v4/projects/${id}/alert_management/http_integrations`, { name: 'i' });
    return {
      path: `/api/v4/projects/${id}/alert_management/http_integrations/${integration.id}`,
      check: `/api/v4/projects/${id}/alert_management/http_integrations/${integration.id}`,
    };
  });
  cases.set('DELETE /projects/:id', async () => {
    const id = await project();
    return { path: `/api/v4/projects/${id}`, check: `/api/v4/projects/${id}` };
  });
  cases.set('DELETE /groups/:id', async () => {
    const id = await group();
    return { path: `/api/v4/groups/${id}`, check: `/api/v4/groups/${id}` };
  });

  cases.set('DELETE /projects/:id/issues/:issue_iid/notes/:note_id', async () => {
    const id = await project();
    const issue = await created('POST', `/api/v4/projects/${id}/issues`, { title: 'i' });
    const note = await created('POST', `/api/v4/projects/${id}/issues/${issue.iid}/notes`, { body: 'n' });
    return { path: `/api/v4/projects/${id}/issues/${issue.iid}/notes/${note.id}`, check: `/api/v4/projects/${id}/issues/${issue.iid}/notes/${note.id}` };
  });
  cases.set('DELETE /projects/:id/merge_requests/:merge_request_iid/notes/:note_id', async () => {
    const id = await project();
    await created('POST', `/api/v4/projects/${id}/repository/branches`, { branch: 'topic', ref: 'main' });
    const mr = await created('POST', `/api/v4/projects/${id}/merge_requests`, { title: 'm', source_branch: 'topic', target_branch: 'main' });
    const note = await created('POST', `/api/v4/projects/${id}/merge_requests/${mr.iid}/notes`, { body: 'n' });
    return {
      path: `/api/v4/projects/${id}/merge_requests/${mr.iid}/notes/${note.id}`,
      check: `/api/v4/projects/${id}/merge_requests/${mr.iid}/notes/${note.id}`,
    };
  });
  cases.set('DELETE /projects/:id/snippets/:snippet_id', async () => {
    const id = await project();
    const snippet = await created('POST', `/api/v4/projects/${id}/snippets`, { title: 's', file_name: 'a.txt', content: 'A', visibility: 'private' });
    return { path: `/api/v4/projects/${id}/snippets/${snippet.id}`, check: `/api/v4/projects/${id}/snippets/${snippet.id}` };
  });
  cases.set('DELETE /projects/:id/snippets/:snippet_id/notes/:note_id', async () => {
    const id = await project();
    const snippet = await created('POST', `/api/v4/projects/${id}/snippets`, { title: 's', file_name: 'a.txt', content: 'A', visibility: 'private' });
    const note = await created('POST', `/api/v4/projects/${id}/snippets/${snippet.id}/notes`, { body: 'n' });
    return { path: `/api/v4/projects/${id}/snippets/${snippet.id}/notes/${note.id}`, check: `/api/v4/projects/${id}/snippets/${snippet.id}/notes/${note.id}` };
  });
  cases.set('DELETE /groups/:id/epics/:epic_iid', async () => {
    const id = await group();
    const epic = await created('POST', `/api/v4/groups/${id}/epics`, { title: 'e' });
    return { path: `/api/v4/groups/${id}/epics/${epic.iid}`, check: `/api/v4/groups/${id}/epics/${epic.iid}` };
  });
  cases.set('DELETE /groups/:id/epics/:epic_id/notes/:note_id', async () => {
    const id = await group();
    const epic = await created('POST', `/api/v4/groups/${id}/epics`, { title: 'e' });
    const note = await created('POST', `/api/v4/groups/${id}/epics/${epic.id}/notes`, { body: 'n' });
    return { path: `/api/v4/groups/${id}/epics/${epic.id}/notes/${note.id}`, check: `/api/v4/groups/${id}/epics/${epic.id}/notes/${note.id}` };
  });
  cases.set('DELETE /projects/:id/approval_rules/:approval_rule_id', async () => {
    const id = await project();
    const rule = await created('POST', `/api/v4/projects/${id}/approval_rules`, { name: 'r', approvals_required: 1 });
    return { path: `/api/v4/projects/${id}/approval_rules/${rule.id}`, check: `/api/v4/projects/${id}/approval_rules/${rule.id}` };
  });
  cases.set('DELETE /projects/:id/merge_requests/:merge_request_iid/approval_rules/:approval_rule_id', async () => {
    const id = await project();
    await created('POST', `/api/v4/projects/${id}/repository/branches`, { branch: 'topic', ref: 'main' });
    const mr = await created('POST', `/api/v4/projects/${id}/merge_requests`, { title: 'm', source_branch: 'topic', target_branch: 'main' });
    const rule = await created('POST', `/api/v4/projects/${id}/merge_requests/${mr.iid}/approval_rules`, { name: 'r', approvals_required: 1 });
    const path = `/api/v4/projects/${id}/merge_requests/${mr.iid}/approval_rules/${rule.id}`;
    return { path, check: path };
  });
  cases.set('DELETE /projects/:id/labels/:label_id', async () => {
    const id = await project();
    const label = await created('POST', `/api/v4/projects/${id}/labels`, { name: 'l', color: '#FF0000' });
    return { path: `/api/v4/projects/${id}/labels/${label.id}`, check: `/api/v4/projects/${id}/labels/${label.id}` };
  });
  cases.set('DELETE /groups/:id/labels/:label_id', async () => {
    const id = await group();
    const label = await created('POST', `/api/v4/groups/${id}/labels`, { name: 'l', color: '#FF0000' });
    return { path: `/api/v4/groups/${id}/labels/${label.id}`, check: `/api/v4/groups/${id}/labels/${label.id}` };
  });
  const awardable = async (kind: 'issues' | 'merge_requests' | 'snippets', onNote: boolean): Promise<DeleteCase> => {
    const id = await project();
    let base: string;
    if (kind === 'issues') base = `/api/v4/projects/${id}/issues/${(await created('POST', `/api/v4/projects/${id}/issues`, { title: 'i' })).iid}`;
    else if (kind === 'snippets')
      base = `/api/v4/projects/${id}/snippets/${(await created('POST', `/api/v4/projects/${id}/snippets`, { title: 's', file_name: 'a.txt', content: 'A' })).id}`;
    else {
      await created('POST', `/api/v4/projects/${id}/repository/branches`, { branch: 'topic', ref: 'main' });
      base = `/api/v4/projects/${id}/merge_requests/${(await created('POST', `/api/v4/projects/${id}/merge_requests`, { title: 'm', source_branch: 'topic', target_branch: 'main' })).iid}`;
    }
    if (onNote) base = `${base}/notes/${(await created('POST', `${base}/notes`, { body: 'n' })).id}`;
    const award = await created('POST', `${base}/award_emoji`, { name: 'thumbsup' });
    return { path: `${base}/award_emoji/${award.id}`, check: `${base}/award_emoji/${award.id}` };
  };
  cases.set('DELETE /projects/:id/issues/:issue_iid/award_emoji/:award_id', () => awardable('issues', false));
  cases.set('DELETE /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji/:award_id', () => awardable('issues', true));
  cases.set('DELETE /projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id', () => awardable('merge_requests', false));
  cases.set('DELETE /projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji/:award_id', () => awardable('merge_requests', true));
  cases.set('DELETE /projects/:id/snippets/:snippet_id/award_emoji/:award_id', () => awardable('snippets', false));
  cases.set('DELETE /projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji/:award_id', () => awardable('snippets', true));
  const threadNote = async (base: string): Promise<DeleteCase> => {
    const thread = await created('POST', `${base}/discussions`, { body: 'd' });
    const path = `${base}/discussions/${thread.id}/notes/${thread.notes[0].id}`;
    return { path, check: path };
  };
  cases.set('DELETE /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id', async () => {
    const id = await project();
    return threadNote(`/api/v4/projects/${id}/issues/${(await created('POST', `/api/v4/projects/${id}/issues`, { title: 'i' })).iid}`);
  });
  cases.set('DELETE /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes/:note_id', async () => {
    const id = await project();
    await created('POST', `/api/v4/projects/${id}/repository/branches`, { branch: 'topic', ref: 'main' });
    return threadNote(
      `/api/v4/projects/${id}/merge_requests/${(await created('POST', `/api/v4/projects/${id}/merge_requests`, { title: 'm', source_branch: 'topic', target_branch: 'main' })).iid}`,
    );
  });
  cases.set('DELETE /projects/:id/snippets/:snippet_id/discussions/:discussion_id/notes/:note_id', async () => {
    const id = await project();
    return threadNote(
      `/api/v4/projects/${id}/snippets/${(await created('POST', `/api/v4/projects/${id}/snippets`, { title: 's', file_name: 'a.txt', content: 'A' })).id}`,
    );
  });
  cases.set('DELETE /groups/:id/epics/:epic_id/discussions/:discussion_id/notes/:note_id', async () => {
    const id = await group();
    return threadNote(`/api/v4/groups/${id}/epics/${(await created('POST', `/api/v4/groups/${id}/epics`, { title: 'e' })).id}`);
  });
  cases.set('DELETE /runners/:id', async () => {
    const runner = await created('POST', '/api/v4/user/runners', { runner_type: 'instance_type' });
    return { path: `/api/v4/runners/${runner.id}`, check: `/api/v4/runners/${runner.id}` };
  });
  cases.set('DELETE /runners', async () => {
    const runner = await created('POST', '/api/v4/user/runners', { runner_type: 'instance_type' });
    return { path: '/api/v4/runners', token: '', body: { token: runner.token }, check: `/api/v4/runners/${runner.id}` };
  });

  cases.set('DELETE /projects/:id/pipelines/:pipeline_id', async () => {
    const id = await project();
    // A pipeline row as a push with an invalid configuration leaves it (no repository file needed).
    const [row] = (await gw.dataSource.query(
      `INSERT INTO ci_pipelines (iid, project_id, status, source, ref, sha, before_sha, yaml_errors) VALUES (1, $1, 'failed', 'push', 'main', $2, $2, 'broken') RETURNING id`,
      [id, '0'.repeat(40)],
    )) as { id: number }[];
    return { path: `/api/v4/projects/${id}/pipelines/${row.id}`, check: `/api/v4/projects/${id}/pipelines/${row.id}` };
  });

  it('every DELETE route declares how it honours the header, and every dated one has a case here', () => {
    const routes = listDeleteRoutes(gw.app.get(ModulesContainer));
    expect(routes.length).toBeGreaterThanOrEqual(23);
    expect(routes.filter((route) => route.declaration === undefined)).toEqual([]);
    const dated = routes
      .filter((route) => route.declaration?.kind !== 'not-applicable')
      .map((route) => route.route)
      .sort();
    expect(dated).toEqual([...cases.keys()].sort());
    const exempt = routes
      .filter((route) => route.declaration?.kind === 'not-applicable')
      .map((route) => route.route)
      .sort();
    expect(exempt).toEqual(['DELETE /projects/:id/repository/merged_branches', 'DELETE /users/sign_out']);
  });

  it.each([...cases.keys()])('%s: 412 for a time before the last change, and the resource stays; removed with a later time', async (route) => {
    const { path, token = gw.rootToken, body, check } = await cases.get(route)!();
    const before = new Date(Date.now() - 86_400_000).toUTCString();
    const refused = await api(gw.baseUrl, 'DELETE', path, { token, body, headers: { 'If-Unmodified-Since': before } });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 412, body: { message: '412 Precondition Failed' } });
    expect((await api(gw.baseUrl, 'GET', check, { token: gw.rootToken })).status).toBe(200);
    const later = new Date(Date.now() + 60_000).toUTCString();
    const accepted = await api(gw.baseUrl, 'DELETE', path, { token, body, headers: { 'If-Unmodified-Since': later } });
    expect([202, 204]).toContain(accepted.status);
  });
});
