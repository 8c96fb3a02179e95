import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { cloneUrl, GitClient } from './support/git-client';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

const ZERO = '0000000000000000000000000000000000000000';
const pkt = (line: string): string => (line.length + 4).toString(16).padStart(4, '0') + line;

/** Git smart HTTP with the real git client: clone, push, visibility and roles, push events. */
describe('git over smart HTTP', () => {
  let gw: TestGateway;
  let git: GitClient;
  let owner: { id: number; username: string; token: string };
  let developer: { id: number; username: string; token: string };
  let reporter: { id: number; username: string; token: string };
  let outsider: { id: number; username: string; token: string };
  let project: { id: number; path_with_namespace: string; http_url_to_repo: string };

  const pushEvents = async (projectId: number) =>
    (await gw.dataSource.query(
      `SELECT payload FROM outbox_events WHERE payload->>'type' IN ('push', 'tag_push', 'repository_update') AND payload->>'project_id' = $1 ORDER BY seq`,
      [String(projectId)],
    )) as Array<{ payload: { type: string; actor: number; project_id: number; target: Record<string, unknown>; data: Record<string, any> } }>;

  beforeAll(async () => {
    gw = await startTestGateway('git-http');
    git = new GitClient();
    owner = await createUserWithToken(gw, 'olive');
    developer = await createUserWithToken(gw, 'dev');
    reporter = await createUserWithToken(gw, 'rita');
    outsider = await createUserWithToken(gw, 'otto');
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', {
      token: owner.token,
      body: { name: 'App', description: 'The app', visibility: 'private', initialize_with_readme: true },
    });
    expect(created.status).toBe(201);
    project = created.body;
    await addProjectMember(gw, project.id, developer.id, 30);
    await addProjectMember(gw, project.id, reporter.id, 20);
  }, 60_000);
  afterAll(async () => {
    git?.cleanup();
    await gw?.close();
  });

  it('creates the default branch with a README commit authored by the creator, recorded as a push', async () => {
    expect(project.http_url_to_repo).toBe(`${gw.baseUrl}/olive/app.git`);
    const branch = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/repository/branches/main`, { token: owner.token });
    expect(branch.status).toBe(200);
    expect(branch.body).toMatchObject({ name: 'main', default: true, protected: true, merged: false, can_push: true });
    expect(branch.body.commit).toMatchObject({ title: 'Initial commit', author_name: 'olive name', author_email: 'olive@example.com', parent_ids: [] });
    const events = await pushEvents(project.id);
    expect(events.map((e) => e.payload.type)).toEqual(['push', 'repository_update']);
    expect(events[0].payload.data).toMatchObject({
      ref: 'refs/heads/main',
      before: ZERO,
      after: branch.body.commit.id,
      total_commits_count: 1,
      user_username: 'olive',
    });
    expect(events[0].payload.data.commits[0]).toMatchObject({
      id: branch.body.commit.id,
      title: 'Initial commit',
      added: ['README.md'],
      modified: [],
      removed: [],
    });
    // The tests below are about the transport and roles, not branch protection (see
    // git-default-branch-protection.e2e-spec.ts): the owner lifts the default branch's protection.
    expect((await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${project.id}/protected_branches/main`, { token: owner.token })).status).toBe(204);
  }, 60_000);

  it('challenges anonymous callers of a private project with 401 Basic, and hides it from outsiders (404)', async () => {
    const anonymous = await fetch(`${gw.baseUrl}/olive/app.git/info/refs?service=git-upload-pack`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm="/);
    const stranger = await fetch(`${gw.baseUrl}/olive/app.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: `Basic ${Buffer.from(`otto:${outsider.token}`).toString('base64')}` },
    });
    expect(stranger.status).toBe(404);
    const badToken = await fetch(`${gw.baseUrl}/olive/app.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: `Basic ${Buffer.from('olive:nope').toString('base64')}` },
    });
    expect(badToken.status).toBe(401);

    const clone = await git.run(['clone', '-q', cloneUrl(gw.baseUrl, 'olive/app'), git.dir('anon')]);
    expect(clone.code).not.toBe(0);
    const outsiderClone = await git.run(['clone', '-q', cloneUrl(gw.baseUrl, 'olive/app', outsider), git.dir('outsider')]);
    expect(outsiderClone.code).not.toBe(0);
    expect(outsiderClone.stderr).toMatch(/not found|404/i);
  }, 60_000);

  it('clones with a personal access token (with and without .git) and pushes as a developer', async () => {
    const work = git.dir('dev-clone');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, 'olive/app', developer), work]);
    expect(readFileSync(join(work, 'README.md'), 'utf8')).toBe('# App\n\nThe app\n');
    const noSuffix = await git.run(['ls-remote', `${cloneUrl(gw.baseUrl, 'olive/app', reporter).replace(/\.git$/, '')}`]);
    expect(noSuffix.code).toBe(0);
    expect(noSuffix.stdout).toMatch(/refs\/heads\/main/);
    for (const version of ['0', '1', '2']) {
      const listed = await git.run(['-c', `protocol.version=${version}`, 'ls-remote', cloneUrl(gw.baseUrl, 'olive/app', reporter)]);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(/^[0-9a-f]{40}\tHEAD$/m);
    }

    const before = await git.ok(['rev-parse', 'HEAD'], { cwd: work });
    const first = await git.commitFile(work, 'index.ts', 'export const a = 1;\n', 'Add index');
    const second = await git.commitFile(work, 'README.md', '# App\n\nChanged\n', 'Edit readme');
    const push = await git.run(['push', 'origin', 'main'], { cwd: work });
    expect(push.code).toBe(0);

    const branch = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/repository/branches/main`, { token: developer.token });
    expect(branch.body.commit.id).toBe(second);
    const events = (await pushEvents(project.id)).slice(2);
    expect(events.map((e) => e.payload.type)).toEqual(['push', 'repository_update']);
    const [pushEvent, update] = events;
    expect(pushEvent.payload).toMatchObject({ actor: developer.id, project_id: project.id, target: { type: 'project', id: project.id, title: 'App' } });
    expect(pushEvent.payload.data).toMatchObject({
      ref: 'refs/heads/main',
      before,
      after: second,
      checkout_sha: second,
      message: null,
      user_id: developer.id,
      user_username: 'dev',
      user_email: 'dev@example.com',
      project_id: project.id,
      total_commits_count: 2,
      project: { id: project.id, path_with_namespace: 'olive/app', default_branch: 'main', visibility_level: 0, git_http_url: `${gw.baseUrl}/olive/app.git` },
    });
    expect(pushEvent.payload.data.commits.map((c: { id: string }) => c.id)).toEqual([first, second]);
    expect(pushEvent.payload.data.commits[0]).toMatchObject({
      title: 'Add index',
      added: ['index.ts'],
      author: { name: 'Test Author', email: 'author@example.com' },
    });
    expect(pushEvent.payload.data.commits[1]).toMatchObject({ modified: ['README.md'] });
    expect(update.payload.data).toMatchObject({
      changes: [{ before, after: second, ref: 'refs/heads/main' }],
      refs: ['refs/heads/main'],
      user_id: developer.id,
    });
  }, 60_000);

  it('records tags, new and deleted branches', async () => {
    const work = git.dir('dev-clone');
    const head = await git.ok(['rev-parse', 'HEAD'], { cwd: work });
    await git.ok(['tag', '-a', 'v1.0', '-m', 'Release 1.0'], { cwd: work });
    await git.ok(['push', 'origin', 'v1.0', 'HEAD:refs/heads/feature/x'], { cwd: work });
    const events = (await pushEvents(project.id)).slice(4);
    expect(events.map((e) => e.payload.type).sort()).toEqual(['push', 'repository_update', 'tag_push']);
    const tag = events.find((e) => e.payload.type === 'tag_push')!;
    expect(tag.payload.data).toMatchObject({
      ref: 'refs/tags/v1.0',
      before: ZERO,
      checkout_sha: head,
      message: 'Release 1.0',
      commits: [],
      total_commits_count: 0,
    });
    const created = events.find((e) => e.payload.type === 'push')!;
    // Every commit of the new branch is already on main: none is new.
    expect(created.payload.data).toMatchObject({ ref: 'refs/heads/feature/x', before: ZERO, after: head, total_commits_count: 0 });

    await git.ok(['push', 'origin', '--delete', 'feature/x'], { cwd: work });
    const deleted = (await pushEvents(project.id)).slice(7);
    expect(deleted.map((e) => e.payload.type)).toEqual(['push', 'repository_update']);
    expect(deleted[0].payload.data).toMatchObject({ ref: 'refs/heads/feature/x', before: head, after: ZERO, checkout_sha: null, commits: [] });
  }, 60_000);

  it('streams pushes far larger than the API body limit', async () => {
    const { randomBytes } = await import('node:crypto');
    const work = git.dir('dev-clone');
    const big = randomBytes(3 * 1024 * 1024).toString('base64');
    const sha = await git.commitFile(work, 'big.txt', big, 'Big file');
    const push = await git.run(['push', 'origin', 'main'], { cwd: work });
    expect(push.code).toBe(0);
    const branch = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/repository/branches/main`, { token: developer.token });
    expect(branch.body.commit.id).toBe(sha);
    const copy = git.dir('big-clone');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, 'olive/app', reporter), copy]);
    expect(readFileSync(join(copy, 'big.txt'), 'utf8')).toBe(big);
  }, 60_000);

  it('refuses pushes from a reporter and changes nothing', async () => {
    const work = git.dir('reporter-clone');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, 'olive/app', reporter), work]);
    const head = await git.ok(['rev-parse', 'HEAD'], { cwd: work });
    await git.commitFile(work, 'x.txt', 'x\n', 'Reporter change');
    const push = await git.run(['push', 'origin', 'main'], { cwd: work });
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain('You are not allowed to push code to this project.');
    const branch = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/repository/branches/main`, { token: owner.token });
    expect(branch.body.commit.id).toBe(head);
  }, 60_000);

  it('refuses deleting the default branch by push', async () => {
    const work = git.dir('dev-clone');
    const push = await git.run(['push', 'origin', '--delete', 'main'], { cwd: work });
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain('The default branch of a project cannot be deleted.');
  }, 60_000);

  it('clones public projects anonymously but never lets anonymous callers push', async () => {
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', {
      token: owner.token,
      body: { name: 'Open', visibility: 'public', initialize_with_readme: true },
    });
    expect(created.status).toBe(201);
    const work = git.dir('anon-public');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, 'olive/open'), work]);
    expect(readFileSync(join(work, 'README.md'), 'utf8')).toBe('# Open\n');
    await git.commitFile(work, 'a.txt', 'a\n', 'Anonymous change');
    const push = await git.run(['push', 'origin', 'main'], { cwd: work });
    expect(push.code).not.toBe(0);
    const receive = await fetch(`${gw.baseUrl}/olive/open.git/info/refs?service=git-receive-pack`);
    expect(receive.status).toBe(401);
    expect(receive.headers.get('www-authenticate')).toMatch(/^Basic/);
  }, 60_000);

  it('lets any signed-in user clone internal projects, and honours token scopes', async () => {
    const internal = await api(gw.baseUrl, 'POST', '/api/v4/projects', {
      token: owner.token,
      body: { name: 'Inside', visibility: 'internal', initialize_with_readme: true },
    });
    expect(internal.status).toBe(201);
    expect((await git.run(['ls-remote', cloneUrl(gw.baseUrl, 'olive/inside', outsider)])).code).toBe(0);
    expect((await fetch(`${gw.baseUrl}/olive/inside.git/info/refs?service=git-upload-pack`)).status).toBe(401);

    const readOnly = await createUserWithToken(gw, 'reed', { scopes: ['read_repository'] });
    await addProjectMember(gw, project.id, readOnly.id, 30);
    const work = git.dir('scoped');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, 'olive/app', readOnly), work]);
    await git.commitFile(work, 'scoped.txt', 's\n', 'Scoped change');
    const push = await git.run(['push', 'origin', 'main'], { cwd: work });
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/scope/);
    const readUser = await createUserWithToken(gw, 'ursula', { scopes: ['read_user'] });
    await addProjectMember(gw, project.id, readUser.id, 30);
    expect((await git.run(['ls-remote', cloneUrl(gw.baseUrl, 'olive/app', readUser)])).code).not.toBe(0);
  }, 60_000);

  it('sets the default branch on the first push to an empty repository', async () => {
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: owner.token, body: { name: 'Empty', visibility: 'private' } });
    expect(created.status).toBe(201);
    expect(created.body.default_branch).toBeNull();
    const work = git.dir('empty');
    await git.ok(['init', '-q', '-b', 'trunk', work]);
    await git.commitFile(work, 'main.go', 'package main\n', 'Start');
    await git.ok(['push', cloneUrl(gw.baseUrl, 'olive/empty', owner), 'trunk'], { cwd: work });
    const after = await api(gw.baseUrl, 'GET', `/api/v4/projects/${created.body.id}`, { token: owner.token });
    expect(after.body.default_branch).toBe('trunk');
    const clone = git.dir('empty-clone');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, 'olive/empty', owner), clone]);
    expect(await git.ok(['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: clone })).toBe('trunk');
  }, 60_000);

  it('accepts gzip-encoded upload-pack requests', async () => {
    const refs = await fetch(`${gw.baseUrl}/olive/app.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: `Basic ${Buffer.from(`x:${owner.token}`).toString('base64')}` },
    });
    expect(refs.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    const advertisement = await refs.text();
    expect(advertisement.startsWith('001e# service=git-upload-pack\n0000')).toBe(true);
    const head = /([0-9a-f]{40}) refs\/heads\/main/.exec(advertisement)![1];
    const body = gzipSync(Buffer.from(pkt(`want ${head}\n`) + '0000' + pkt('done\n')));
    const res = await fetch(`${gw.baseUrl}/olive/app.git/git-upload-pack`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`x:${owner.token}`).toString('base64')}`,
        'content-type': 'application/x-git-upload-pack-request',
        'content-encoding': 'gzip',
      },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-git-upload-pack-result');
    const pack = Buffer.from(await res.arrayBuffer());
    expect(pack.includes(Buffer.from('PACK'))).toBe(true);
  }, 60_000);

  it('removes the repository with the project', async () => {
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: owner.token, body: { name: 'Gone', initialize_with_readme: true } });
    const removed = await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${created.body.id}`, { token: owner.token });
    expect([202, 204]).toContain(removed.status);
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(gw.config.repositoriesDir, `${created.body.id}.git`))).toBe(false);
  }, 60_000);

  it("removes the repositories of a deleted group's projects, subgroups' included", async () => {
    const { existsSync } = await import('node:fs');
    const top = await api(gw.baseUrl, 'POST', '/api/v4/groups', { token: owner.token, body: { name: 'Doomed', path: 'doomed' } });
    expect(top.status).toBe(201);
    const sub = await api(gw.baseUrl, 'POST', '/api/v4/groups', { token: owner.token, body: { name: 'Sub', path: 'sub', parent_id: top.body.id } });
    expect(sub.status).toBe(201);
    const ids: number[] = [];
    for (const [name, namespaceId] of [
      ['One', top.body.id],
      ['Two', sub.body.id],
      ['Three', sub.body.id],
    ] as const) {
      const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', {
        token: owner.token,
        body: { name, namespace_id: namespaceId, initialize_with_readme: name !== 'Three' },
      });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    const survivor = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: owner.token, body: { name: 'Survivor', initialize_with_readme: true } });
    const pathOf = (id: number) => join(gw.config.repositoriesDir, `${id}.git`);
    for (const id of [...ids, survivor.body.id]) expect(existsSync(pathOf(id))).toBe(true);

    const removed = await api(gw.baseUrl, 'DELETE', `/api/v4/groups/${top.body.id}`, { token: owner.token });
    expect(removed.status).toBe(202);
    for (const id of ids) expect(existsSync(pathOf(id))).toBe(false);
    expect(existsSync(pathOf(survivor.body.id))).toBe(true);
    expect((await git.run(['ls-remote', cloneUrl(gw.baseUrl, 'doomed/sub/two', owner)])).code).not.toBe(0);
  }, 60_000);
});
