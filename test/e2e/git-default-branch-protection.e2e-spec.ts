import { cloneUrl, GitClient } from './support/git-client';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

type User = { id: number; username: string; token: string };

const PROTECTED = 'You are not allowed to push code to protected branches on this project.';

/**
 * The default branch is protected when it is first created (`initialize_with_readme` or the
 * first push), as `default_branch_protection` says: the group's own setting, else the instance's.
 */
describe('default branch protection on creation', () => {
  let gw: TestGateway;
  let git: GitClient;
  let owner: User;
  let developer: User;
  let maintainer: User;

  const createProject = async (body: Record<string, unknown>): Promise<{ id: number; path_with_namespace: string }> => {
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: owner.token, body });
    expect(created.status).toBe(201);
    await addProjectMember(gw, created.body.id, developer.id, 30);
    await addProjectMember(gw, created.body.id, maintainer.id, 40);
    return created.body;
  };
  const protectedBranches = async (projectId: number) => {
    const res = await api(gw.baseUrl, 'GET', `/api/v4/projects/${projectId}/protected_branches`, { token: owner.token });
    expect(res.status).toBe(200);
    return res.body as Array<Record<string, any>>;
  };
  const levels = (grants: Array<{ access_level: number | null }>) => grants.map((g) => g.access_level);
  /** Clones as `user`, commits a file on `branch` (new when `create`) and pushes it. */
  const pushAs = async (user: User, fullPath: string, branch: string, name: string, create = false) => {
    const work = git.dir(`${user.username}-${fullPath.replace(/\//g, '-')}-${name}`);
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, fullPath, user), work]);
    if (create) await git.ok(['checkout', '-q', '-b', branch], { cwd: work });
    const sha = await git.commitFile(work, `${name}.txt`, `${name}\n`, `Add ${name}`);
    return { sha, push: await git.run(['push', 'origin', `HEAD:refs/heads/${branch}`], { cwd: work }) };
  };
  /** Pushes a new history to an empty project as `user`, creating `branches` from one commit. */
  const firstPush = async (user: User, fullPath: string, branches: string[]) => {
    const work = git.dir(`first-${fullPath.replace(/\//g, '-')}`);
    await git.ok(['init', '-q', '-b', branches[0], work]);
    const sha = await git.commitFile(work, 'start.txt', 'start\n', 'Start');
    return { sha, push: await git.run(['push', cloneUrl(gw.baseUrl, fullPath, user), ...branches.map((b) => `HEAD:refs/heads/${b}`)], { cwd: work }) };
  };
  const branchHead = async (projectId: number, branch: string) =>
    (await api(gw.baseUrl, 'GET', `/api/v4/projects/${projectId}/repository/branches/${encodeURIComponent(branch)}`, { token: owner.token })).body.commit?.id;

  beforeAll(async () => {
    gw = await startTestGateway('default-branch-protection');
    git = new GitClient();
    owner = await createUserWithToken(gw, 'petra');
    developer = await createUserWithToken(gw, 'dora');
    maintainer = await createUserWithToken(gw, 'mike');
  }, 60_000);
  afterAll(async () => {
    git?.cleanup();
    await gw?.close();
  });

  it('protects the branch made by initialize_with_readme (instance default 2): developers are refused, maintainers push', async () => {
    const settings = await api(gw.baseUrl, 'GET', '/api/v4/application/settings', { token: gw.rootToken });
    expect(settings.body.default_branch_protection).toBe(2);
    const project = await createProject({ name: 'Readme', initialize_with_readme: true });
    const rules = await protectedBranches(project.id);
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({ name: 'main', allow_force_push: false });
    expect(levels(rules[0].push_access_levels)).toEqual([40]);
    expect(levels(rules[0].merge_access_levels)).toEqual([40]);
    expect(levels(rules[0].unprotect_access_levels)).toEqual([40]);
    const events = await gw.dataSource.query(
      `SELECT payload FROM outbox_events WHERE payload->>'type' = 'protected_branch.created' AND payload->>'project_id' = $1`,
      [String(project.id)],
    );
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({ actor: owner.id, target: { type: 'protected_branch', id: rules[0].id, title: 'main' } });
    const asDeveloper = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/repository/branches/main`, { token: developer.token });
    expect(asDeveloper.body).toMatchObject({ protected: true, can_push: false, developers_can_push: false, developers_can_merge: false });

    const before = await branchHead(project.id, 'main');
    const refused = await pushAs(developer, project.path_with_namespace, 'main', 'dev');
    expect(refused.push.code).not.toBe(0);
    expect(refused.push.stderr).toContain(PROTECTED);
    expect(await branchHead(project.id, 'main')).toBe(before);

    const accepted = await pushAs(maintainer, project.path_with_namespace, 'main', 'maint');
    expect(accepted.push.code).toBe(0);
    expect(await branchHead(project.id, 'main')).toBe(accepted.sha);

    // Other branches stay open to developers.
    const feature = await pushAs(developer, project.path_with_namespace, 'feature', 'feat', true);
    expect(feature.push.code).toBe(0);
    expect(await protectedBranches(project.id)).toHaveLength(1);
  }, 90_000);

  it('protects the default branch created by the first push, not before it exists', async () => {
    const project = await createProject({ name: 'Empty' });
    expect(await protectedBranches(project.id)).toEqual([]);
    // The branch does not exist yet, so nothing protects it: a developer may create it.
    const first = await firstPush(developer, project.path_with_namespace, ['trunk']);
    expect(first.push.code).toBe(0);
    const after = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}`, { token: owner.token });
    expect(after.body.default_branch).toBe('trunk');
    const rules = await protectedBranches(project.id);
    expect(rules.map((r) => r.name)).toEqual(['trunk']);
    expect(levels(rules[0].push_access_levels)).toEqual([40]);
    const [event] = await gw.dataSource.query(
      `SELECT payload FROM outbox_events WHERE payload->>'type' = 'protected_branch.created' AND payload->>'project_id' = $1`,
      [String(project.id)],
    );
    expect(event.payload).toMatchObject({ actor: developer.id, target: { title: 'trunk' } });

    const refused = await pushAs(developer, project.path_with_namespace, 'trunk', 'dev');
    expect(refused.push.code).not.toBe(0);
    expect(refused.push.stderr).toContain(PROTECTED);
    expect(await branchHead(project.id, 'trunk')).toBe(first.sha);
    const accepted = await pushAs(maintainer, project.path_with_namespace, 'trunk', 'maint');
    expect(accepted.push.code).toBe(0);
    expect(await branchHead(project.id, 'trunk')).toBe(accepted.sha);
  }, 90_000);

  it('takes and protects the configured default branch when the first push creates several branches', async () => {
    const project = await createProject({ name: 'Configured', default_branch: 'develop' });
    const first = await firstPush(maintainer, project.path_with_namespace, ['alpha', 'develop']);
    expect(first.push.code).toBe(0);
    const after = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}`, { token: owner.token });
    expect(after.body.default_branch).toBe('develop');
    expect((await protectedBranches(project.id)).map((r) => r.name)).toEqual(['develop']);
    const alpha = await pushAs(developer, project.path_with_namespace, 'alpha', 'dev');
    expect(alpha.push.code).toBe(0);
  }, 90_000);

  it("follows the group's own setting: 0 protects nothing, 1 lets developers push", async () => {
    const open = await api(gw.baseUrl, 'POST', '/api/v4/groups', { token: owner.token, body: { name: 'Open', path: 'open', default_branch_protection: 0 } });
    expect(open.status).toBe(201);
    expect(open.body.default_branch_protection).toBe(0);
    const unprotected = await createProject({ name: 'Free', namespace_id: open.body.id, initialize_with_readme: true });
    expect(await protectedBranches(unprotected.id)).toEqual([]);
    const pushed = await pushAs(developer, unprotected.path_with_namespace, 'main', 'dev');
    expect(pushed.push.code).toBe(0);
    expect(await branchHead(unprotected.id, 'main')).toBe(pushed.sha);

    const partial = await api(gw.baseUrl, 'POST', '/api/v4/groups', {
      token: owner.token,
      body: { name: 'Partial', path: 'partial', default_branch_protection: 1 },
    });
    expect(partial.status).toBe(201);
    const project = await createProject({ name: 'Shared', namespace_id: partial.body.id, initialize_with_readme: true });
    const rules = await protectedBranches(project.id);
    expect(rules.map((r) => r.name)).toEqual(['main']);
    expect(levels(rules[0].push_access_levels)).toEqual([30]);
    expect(levels(rules[0].merge_access_levels)).toEqual([40]);
    const asDeveloper = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/repository/branches/main`, { token: developer.token });
    expect(asDeveloper.body).toMatchObject({ protected: true, can_push: true, developers_can_push: true, developers_can_merge: false });
    const devPush = await pushAs(developer, project.path_with_namespace, 'main', 'dev');
    expect(devPush.push.code).toBe(0);
  }, 90_000);

  it('protects nothing with the instance setting default_branch_protection=0', async () => {
    const put = await api(gw.baseUrl, 'PUT', '/api/v4/application/settings', { token: gw.rootToken, body: { default_branch_protection: 0 } });
    expect(put.status).toBe(200);
    expect(put.body.default_branch_protection).toBe(0);
    try {
      const readme = await createProject({ name: 'Loose', initialize_with_readme: true });
      expect(await protectedBranches(readme.id)).toEqual([]);
      const devPush = await pushAs(developer, readme.path_with_namespace, 'main', 'dev');
      expect(devPush.push.code).toBe(0);
      expect(await branchHead(readme.id, 'main')).toBe(devPush.sha);

      const empty = await createProject({ name: 'Loose empty' });
      const first = await firstPush(developer, empty.path_with_namespace, ['main']);
      expect(first.push.code).toBe(0);
      expect(await protectedBranches(empty.id)).toEqual([]);
      const again = await pushAs(developer, empty.path_with_namespace, 'main', 'again');
      expect(again.push.code).toBe(0);
    } finally {
      await api(gw.baseUrl, 'PUT', '/api/v4/application/settings', { token: gw.rootToken, body: { default_branch_protection: 2 } });
    }
  }, 90_000);
});
