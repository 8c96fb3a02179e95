import { cloneUrl, GitClient } from './support/git-client';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

type User = { id: number; username: string; token: string };

/** Read paths of merge requests, repository content and CI, per project feature (GitLab's `read_merge_request`, `read_code`, `read_pipeline`). */
const MERGE_REQUEST_PATHS = [
  '/merge_requests',
  '/merge_requests/1',
  '/merge_requests/1/notes',
  '/merge_requests/1/discussions',
  '/merge_requests/1/award_emoji',
  '/merge_requests/1/approvals',
  '/merge_requests/1/approval_state',
  '/merge_requests/1/approval_rules',
  '/merge_requests/1/resource_state_events',
];
const REPOSITORY_PATHS = ['/repository/branches', '/repository/branches/main', '/languages'];
const CI_PATHS = ['/pipelines', '/jobs'];
const SIGNED_IN_ONLY = [
  '/merge_requests/1/notes',
  '/merge_requests/1/discussions',
  '/merge_requests/1/approvals',
  '/merge_requests/1/approval_state',
  '/merge_requests/1/approval_rules',
];

/**
 * Who reads merge requests, code and pipelines: a Guest of a private project sees the project
 * but not its merge requests nor its code (403), a Reporter does, a non-member gets 404; in a
 * public project whose merge requests are members-only, non-members and guests get 403 there
 * while the code and pipelines stay open.
 */
describe('Guest access to merge requests, repository and CI', () => {
  let gw: TestGateway;
  let git: GitClient;
  const users: Record<string, User> = {};
  const projects: Record<string, { id: number; path_with_namespace: string }> = {};
  const root = () => ({ token: gw.rootToken });

  async function project(name: string, visibility: string): Promise<{ id: number; path_with_namespace: string }> {
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...root(), body: { name, visibility, initialize_with_readme: true } });
    if (created.status !== 201) throw new Error(`project not created: ${created.text}`);
    const id = created.body.id;
    await api(gw.baseUrl, 'POST', `/api/v4/projects/${id}/repository/branches`, { ...root(), body: { branch: 'topic', ref: 'main' } });
    const mr = await api(gw.baseUrl, 'POST', `/api/v4/projects/${id}/merge_requests`, {
      ...root(),
      body: { title: 'Secret change', source_branch: 'topic', target_branch: 'main' },
    });
    if (mr.status !== 201) throw new Error(`merge request not created: ${mr.text}`);
    await api(gw.baseUrl, 'POST', `/api/v4/projects/${id}/merge_requests/1/notes`, { ...root(), body: { body: 'review comment' } });
    return created.body;
  }

  beforeAll(async () => {
    gw = await startTestGateway('guest-access', { SERVICE_TIER: 'premium' });
    git = new GitClient();
    for (const name of ['gus', 'rita', 'olga']) users[name] = await createUserWithToken(gw, name);
    projects.priv = await project('Private app', 'private');
    projects.pub = await project('Public app', 'public');
    const updated = await api(gw.baseUrl, 'PUT', `/api/v4/projects/${projects.pub.id}`, { ...root(), body: { merge_requests_access_level: 'private' } });
    if (updated.status !== 200) throw new Error(`project not updated: ${updated.text}`);
    await addProjectMember(gw, projects.priv.id, users.gus.id, 10);
    await addProjectMember(gw, projects.priv.id, users.rita.id, 20);
    await addProjectMember(gw, projects.pub.id, users.gus.id, 10);
  }, 120_000);
  afterAll(async () => {
    git?.cleanup();
    await gw?.close();
  });

  const status = async (who: string | null, projectName: string, path: string): Promise<number> =>
    (await api(gw.baseUrl, 'GET', `/api/v4/projects/${projects[projectName].id}${path}`, who ? { token: users[who].token } : {})).status;

  const table: Array<{ caller: string; who: string | null; project: string; mr: number; code: number; ci: number }> = [
    { caller: 'guest of a private project', who: 'gus', project: 'priv', mr: 403, code: 403, ci: 200 },
    { caller: 'reporter of a private project', who: 'rita', project: 'priv', mr: 200, code: 200, ci: 200 },
    { caller: 'non-member of a private project', who: 'olga', project: 'priv', mr: 404, code: 404, ci: 404 },
    { caller: 'non-member of a public project, merge requests members-only', who: 'olga', project: 'pub', mr: 403, code: 200, ci: 200 },
    { caller: 'guest of a public project, merge requests members-only', who: 'gus', project: 'pub', mr: 403, code: 200, ci: 200 },
    { caller: 'anonymous caller of a public project, merge requests members-only', who: null, project: 'pub', mr: 403, code: 200, ci: 200 },
  ];

  it.each(table)(
    '$caller: merge requests $mr, code $code, pipelines $ci',
    async ({ who, project: name, mr, code, ci }) => {
      const seen: Record<string, number> = {};
      const expected: Record<string, number> = {};
      for (const [paths, want] of [
        [MERGE_REQUEST_PATHS, mr],
        [REPOSITORY_PATHS, code],
        [CI_PATHS, ci],
      ] as const) {
        for (const path of paths) {
          seen[path] = await status(who, name, path);
          // Routes that take a signed-in caller answer 401 before any project check.
          expected[path] = who === null && SIGNED_IN_ONLY.includes(path) ? 401 : want;
        }
      }
      expect(seen).toEqual(expected);
    },
    60_000,
  );

  it('guests of a private project cannot comment on or award its merge requests either', async () => {
    const base = `/api/v4/projects/${projects.priv.id}/merge_requests/1`;
    expect((await api(gw.baseUrl, 'POST', `${base}/notes`, { token: users.gus.token, body: { body: 'hi' } })).status).toBe(403);
    expect((await api(gw.baseUrl, 'POST', `${base}/award_emoji`, { token: users.gus.token, body: { name: 'thumbsup' } })).status).toBe(403);
    expect(
      (await api(gw.baseUrl, 'POST', `/api/v4/projects/${projects.priv.id}/merge_requests/1/notes`, { token: users.rita.token, body: { body: 'hi' } })).status,
    ).toBe(201);
  }, 30_000);

  it('a disabled feature is closed to everyone, administrators included (403)', async () => {
    await api(gw.baseUrl, 'PUT', `/api/v4/projects/${projects.pub.id}`, {
      ...root(),
      body: { merge_requests_access_level: 'disabled', builds_access_level: 'disabled' },
    });
    try {
      expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${projects.pub.id}/merge_requests`, root())).status).toBe(403);
      expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${projects.pub.id}/pipelines`, root())).status).toBe(403);
      expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${projects.pub.id}/repository/branches`, root())).status).toBe(200);
    } finally {
      await api(gw.baseUrl, 'PUT', `/api/v4/projects/${projects.pub.id}`, {
        ...root(),
        body: { merge_requests_access_level: 'private', builds_access_level: 'enabled' },
      });
    }
  }, 30_000);

  it('git clone over smart HTTP follows the same rule', async () => {
    const clone = (who: string, name: string) =>
      git.run(['clone', '-q', cloneUrl(gw.baseUrl, projects[name].path_with_namespace, users[who]), git.dir(`${who}-${name}`)]);
    const byGuest = await clone('gus', 'priv');
    expect(byGuest.code).not.toBe(0);
    expect(byGuest.stderr).toContain('You are not allowed to download code from this project.');
    expect((await clone('rita', 'priv')).code).toBe(0);
    expect((await clone('olga', 'pub')).code).toBe(0);
    await api(gw.baseUrl, 'PUT', `/api/v4/projects/${projects.pub.id}`, { ...root(), body: { repository_access_level: 'private' } });
    expect((await clone('olga', 'pub')).code).not.toBe(0);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${projects.pub.id}/repository/branches`, { token: users.olga.token })).status).toBe(403);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${projects.pub.id}/repository/branches`, { token: users.gus.token })).status).toBe(200);
  }, 60_000);
});
