import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Gitlab } from '@gitbeaker/rest';
import { cloneUrl, GitClient } from './support/git-client';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

type Client = InstanceType<typeof Gitlab>;
const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: { cause?: { response?: { status?: number } } }) => error.cause?.response?.status,
  );
const bodyOf = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
    return undefined;
  } catch (error) {
    const description = (error as { cause?: { description?: unknown } }).cause?.description;
    return description;
  }
};

/** The branches API (through @gitbeaker/rest), protection on push, merged-branch cleanup, languages. */
describe('repository branches', () => {
  let gw: TestGateway;
  let git: GitClient;
  let owner: { id: number; username: string; token: string };
  let developer: { id: number; username: string; token: string };
  let ownerApi: Client;
  let devApi: Client;
  let projectId: number;
  let work: string;

  beforeAll(async () => {
    gw = await startTestGateway('repo-branches');
    git = new GitClient();
    owner = await createUserWithToken(gw, 'maria');
    developer = await createUserWithToken(gw, 'devon');
    ownerApi = new Gitlab({ host: gw.baseUrl, token: owner.token, rateLimits: {} });
    devApi = new Gitlab({ host: gw.baseUrl, token: developer.token, rateLimits: {} });
    const project = await ownerApi.Projects.create({ name: 'Lib', visibility: 'public', initializeWithReadme: true } as never);
    projectId = project.id as number;
    await addProjectMember(gw, projectId, developer.id, 30);
    work = git.dir('lib');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, 'maria/lib', developer), work]);
  }, 60_000);
  afterAll(async () => {
    git?.cleanup();
    await gw?.close();
  });

  it('creates a branch in an empty repository as GitLab does: an empty README.md on the default branch first, recorded as pushes', async () => {
    const empty = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: owner.token, body: { name: 'Bare start' } });
    expect(empty.status).toBe(201);
    const id = empty.body.id as number;
    // What python-gitlab sends: a form with branch and ref.
    const created = await api(gw.baseUrl, 'POST', `/api/v4/projects/${id}/repository/branches`, { token: owner.token, form: { branch: 'x', ref: 'main' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'x',
      default: false,
      commit: { title: 'Add README.md', message: 'Add README.md', author_name: 'maria name', author_email: 'maria@example.com', parent_ids: [] },
    });
    const main = await api(gw.baseUrl, 'GET', `/api/v4/projects/${id}/repository/branches/main`, { token: owner.token });
    expect(main.body).toMatchObject({ name: 'main', default: true, commit: { id: created.body.commit.id } });
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${id}`, { token: owner.token })).body.default_branch).toBe('main');
    const checkout = git.dir('empty');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, 'maria/bare-start', owner), checkout]);
    expect(readFileSync(join(checkout, 'README.md'), 'utf8')).toBe('');
    // Both ref creations are pushes: the events (and so the system hooks) of any push.
    const pushes = (await gw.dataSource.query(
      `SELECT payload FROM outbox_events WHERE payload->>'project_id' = $1 AND payload->>'type' = 'push' ORDER BY seq`,
      [String(id)],
    )) as Array<{
      payload: { data: Record<string, any> };
    }>;
    expect(pushes.map((p) => [p.payload.data.ref, p.payload.data.before, p.payload.data.after])).toEqual([
      ['refs/heads/main', '0'.repeat(40), created.body.commit.id],
      ['refs/heads/x', '0'.repeat(40), created.body.commit.id],
    ]);
    // A second branch finds the repository no longer empty: no new README commit.
    const again = await api(gw.baseUrl, 'POST', `/api/v4/projects/${id}/repository/branches`, { token: owner.token, form: { branch: 'y', ref: 'main' } });
    expect(again.body.commit.id).toBe(created.body.commit.id);
  }, 60_000);

  it('creates branches from a branch name and from a SHA, with GitLab errors for bad input', async () => {
    const main = await devApi.Branches.show(projectId, 'main');
    const fromName = await devApi.Branches.create(projectId, 'feature/a', 'main');
    expect(fromName).toMatchObject({ name: 'feature/a', merged: true, protected: false, default: false, can_push: true });
    expect((fromName.commit as { id: string }).id).toBe((main.commit as { id: string }).id);
    const fromSha = await devApi.Branches.create(projectId, 'fix-a', (main.commit as { id: string }).id);
    expect((fromSha.commit as { short_id: string }).short_id).toBe((main.commit as { id: string }).id.slice(0, 8));
    await devApi.Branches.create(projectId, 'feature/b', 'feature/a');
    await devApi.Branches.create(projectId, 'release', 'main');

    expect(await statusOf(devApi.Branches.create(projectId, 'bad..name', 'main'))).toBe(400);
    expect(await bodyOf(devApi.Branches.create(projectId, 'bad..name', 'main'))).toBe('Branch name is invalid');
    expect(await bodyOf(devApi.Branches.create(projectId, 'other', 'nope'))).toBe('Invalid reference name: nope');
    expect(await bodyOf(devApi.Branches.create(projectId, 'release', 'main'))).toBe('Branch already exists');
    const missing = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/repository/branches`, { token: developer.token, body: { branch: 'x' } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/ref/);
  }, 60_000);

  it('lists alphabetically with the three search forms and pagination; anonymous on a public project', async () => {
    const names = async (search?: string) => (await devApi.Branches.all(projectId, search ? { search } : {})).map((b) => b.name);
    expect(await names()).toEqual(['feature/a', 'feature/b', 'fix-a', 'main', 'release']);
    expect(await names('^feature')).toEqual(['feature/a', 'feature/b']);
    expect(await names('a$')).toEqual(['feature/a', 'fix-a']);
    expect(await names('EA')).toEqual(['feature/a', 'feature/b', 'release']);
    const page = await api(gw.baseUrl, 'GET', `/api/v4/projects/${projectId}/repository/branches?per_page=2&page=2`);
    expect(page.status).toBe(200);
    expect(page.body.map((b: { name: string }) => b.name)).toEqual(['fix-a', 'main']);
    expect(page.headers.get('x-total')).toBe('5');
    expect(page.body[1]).toMatchObject({ default: true, can_push: false, web_url: `${gw.baseUrl}/maria/lib/-/tree/main` });
    const encoded = await api(gw.baseUrl, 'GET', `/api/v4/projects/${projectId}/repository/branches/feature%2Fa`);
    expect(encoded.status).toBe(200);
    expect(encoded.body.commit).toMatchObject({ title: 'Initial commit', trailers: {}, extended_trailers: {} });
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${projectId}/repository/branches/none`)).status).toBe(404);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${projectId}/repository/branches/${encodeURIComponent('main^{tree}')}`)).status).toBe(404);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${projectId}/repository/branches/${encodeURIComponent('--help')}`)).status).toBe(404);
  }, 60_000);

  it('enforces protection on push: push level, force push, and the branch flags', async () => {
    const protectedRelease = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/protected_branches`, {
      token: owner.token,
      body: { name: 'release', push_access_level: 40 },
    });
    expect(protectedRelease.status).toBe(201);
    // The default branch was protected at creation (default_branch_protection 2: maintainers only);
    // the owner replaces that rule with one letting developers push and merge.
    expect(await devApi.Branches.show(projectId, 'main')).toMatchObject({
      protected: true,
      can_push: false,
      developers_can_push: false,
      developers_can_merge: false,
    });
    expect((await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${projectId}/protected_branches/main`, { token: owner.token })).status).toBe(204);
    const protectedMain = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/protected_branches`, {
      token: owner.token,
      body: { name: 'main', push_access_level: 30, merge_access_level: 30 },
    });
    expect(protectedMain.status).toBe(201);
    const release = await devApi.Branches.show(projectId, 'release');
    expect(release).toMatchObject({ protected: true, can_push: false, developers_can_push: false });
    expect(await devApi.Branches.show(projectId, 'main')).toMatchObject({
      protected: true,
      can_push: true,
      developers_can_push: true,
      developers_can_merge: true,
    });

    await git.ok(['fetch', '-q', 'origin'], { cwd: work });
    await git.ok(['checkout', '-q', '-b', 'release', 'origin/release'], { cwd: work });
    await git.commitFile(work, 'r.txt', 'r\n', 'Release change');
    const refused = await git.run(['push', 'origin', 'release'], { cwd: work });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('You are not allowed to push code to protected branches on this project.');

    await git.ok(['checkout', '-q', 'main'], { cwd: work });
    const base = await git.ok(['rev-parse', 'HEAD'], { cwd: work });
    const first = await git.commitFile(work, 'index.ts', 'export const one = 1;\n'.repeat(100), 'Add index');
    await git.ok(['push', '-q', 'origin', 'main'], { cwd: work });
    await git.ok(['reset', '-q', '--hard', base], { cwd: work });
    await git.commitFile(work, 'other.ts', 'export const two = 2;\n', 'Rewrite history');
    const forced = await git.run(['push', '--force', 'origin', 'main'], { cwd: work });
    expect(forced.code).not.toBe(0);
    expect(forced.stderr).toContain('You are not allowed to force push code to a protected branch on this project.');
    expect(((await devApi.Branches.show(projectId, 'main')).commit as { id: string }).id).toBe(first);
    await git.ok(['reset', '-q', '--hard', first], { cwd: work });

    // A wildcard rule with allow_force_push lets developers rewrite matching branches.
    const hotfix = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/protected_branches`, {
      token: owner.token,
      body: { name: 'hotfix/*', push_access_level: 30, allow_force_push: true },
    });
    expect(hotfix.status).toBe(201);
    await git.ok(['checkout', '-q', '-b', 'hotfix/1'], { cwd: work });
    await git.commitFile(work, 'h.txt', 'h1\n', 'Hotfix one');
    await git.ok(['push', '-q', 'origin', 'hotfix/1'], { cwd: work });
    await git.ok(['reset', '-q', '--hard', first], { cwd: work });
    const rewritten = await git.commitFile(work, 'h.txt', 'h2\n', 'Hotfix rewritten');
    const allowed = await git.run(['push', '--force', 'origin', 'hotfix/1'], { cwd: work });
    expect(allowed.code).toBe(0);
    expect(await devApi.Branches.show(projectId, 'hotfix/1')).toMatchObject({ protected: true, commit: { id: rewritten } });
    const deleteByPush = await git.run(['push', 'origin', '--delete', 'hotfix/1'], { cwd: work });
    expect(deleteByPush.stderr).toContain('You can only delete protected branches using the web interface.');
    await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${projectId}/protected_branches/${encodeURIComponent('hotfix/*')}`, { token: owner.token });
    await devApi.Branches.remove(projectId, 'hotfix/1');
    await git.ok(['checkout', '-q', 'main'], { cwd: work });
  }, 60_000);

  it('deletes branches (not the default, not protected for developers) and merged branches keeping protected ones', async () => {
    expect(await bodyOf(devApi.Branches.remove(projectId, 'main'))).toBe('Cannot remove HEAD branch');
    expect(await statusOf(devApi.Branches.remove(projectId, 'main'))).toBe(405);
    expect(await bodyOf(devApi.Branches.remove(projectId, 'release'))).toBe('Protected branch cant be removed');
    await devApi.Branches.remove(projectId, 'fix-a');
    expect(await statusOf(devApi.Branches.show(projectId, 'fix-a'))).toBe(404);

    // An unmerged branch survives the cleanup.
    await git.ok(['checkout', '-q', '-b', 'wip'], { cwd: work });
    await git.commitFile(work, 'wip.txt', 'wip\n', 'Work in progress');
    await git.ok(['push', '-q', 'origin', 'wip'], { cwd: work });
    await git.ok(['checkout', '-q', 'main'], { cwd: work });
    expect((await devApi.Branches.show(projectId, 'wip')).merged).toBe(false);

    const res = await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${projectId}/repository/merged_branches`, { token: developer.token });
    expect(res.status).toBe(202);
    expect((await devApi.Branches.all(projectId)).map((b) => b.name)).toEqual(['main', 'release', 'wip']);
  }, 60_000);

  it('computes languages by bytes from the default branch', async () => {
    await git.commitFile(work, 'app.js', 'x'.repeat(700), 'Add js');
    await git.commitFile(work, 'style.css', 'y'.repeat(100), 'Add css');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(`${work}/node_modules/dep`, { recursive: true });
    writeFileSync(`${work}/node_modules/dep/index.js`, 'z'.repeat(5000));
    await git.ok(['add', '-f', 'node_modules'], { cwd: work });
    await git.ok(['commit', '-q', '-m', 'Vendor'], { cwd: work });
    await git.ok(['push', '-q', 'origin', 'main'], { cwd: work });
    const ts = 'export const one = 1;\n'.length * 100;
    const total = ts + 700 + 100;
    const languages = await ownerApi.Projects.showLanguages(projectId);
    expect(languages).toEqual({
      TypeScript: Math.round((ts / total) * 10000) / 100,
      JavaScript: Math.round((700 / total) * 10000) / 100,
      CSS: Math.round((100 / total) * 10000) / 100,
    });
    const [cached] = await gw.dataSource.query('SELECT commit_sha, languages FROM project_languages WHERE project_id = $1', [projectId]);
    expect(cached.commit_sha).toBe(await git.ok(['rev-parse', 'HEAD'], { cwd: work }));
    expect(Object.keys(cached.languages).sort()).toEqual(['CSS', 'JavaScript', 'TypeScript']);
  }, 60_000);

  it('merges a merge request with a merge commit, checks the sha and removes the source branch', async () => {
    await git.ok(['checkout', '-q', '-b', 'topic'], { cwd: work });
    const topic = await git.commitFile(work, 'topic.ts', 'export const topic = true;\n', 'Topic work');
    await git.ok(['push', '-q', 'origin', 'topic'], { cwd: work });
    await git.ok(['checkout', '-q', 'main'], { cwd: work });
    const mr = await devApi.MergeRequests.create(projectId, 'topic', 'main', 'Add topic');
    expect(mr).toMatchObject({ sha: topic, merge_status: 'can_be_merged', detailed_merge_status: 'mergeable', has_conflicts: false });
    const mainHead = ((await devApi.Branches.show(projectId, 'main')).commit as { id: string }).id;
    expect(mr.diff_refs).toEqual({ base_sha: mainHead, head_sha: topic, start_sha: mainHead });
    expect(await statusOf(devApi.MergeRequests.accept(projectId, mr.iid, { sha: '0'.repeat(40) }))).toBe(409);
    expect(await bodyOf(devApi.MergeRequests.accept(projectId, mr.iid, { sha: '0'.repeat(40) }))).toBe(`SHA does not match HEAD of source branch: ${topic}`);
    const mainBefore = ((await devApi.Branches.show(projectId, 'main')).commit as { id: string }).id;
    const merged = await devApi.MergeRequests.accept(projectId, mr.iid, { sha: topic, shouldRemoveSourceBranch: true });
    expect(merged).toMatchObject({ state: 'merged', merged_by: { username: 'devon' }, detailed_merge_status: 'not_open' });
    // The source head and the diff refs outlive the removed source branch (GitLab keeps them in the merge request diff).
    const diffRefs = { base_sha: mainBefore, head_sha: topic, start_sha: mainBefore };
    expect(merged).toMatchObject({ sha: topic, diff_refs: diffRefs });
    expect(await devApi.MergeRequests.show(projectId, mr.iid)).toMatchObject({ sha: topic, diff_refs: diffRefs });
    const main = await devApi.Branches.show(projectId, 'main');
    expect((main.commit as { id: string }).id).toBe(merged.merge_commit_sha);
    expect((main.commit as { parent_ids: string[] }).parent_ids).toEqual([mainBefore, topic]);
    expect((main.commit as { title: string }).title).toBe("Merge branch 'topic' into 'main'");
    expect(await statusOf(devApi.Branches.show(projectId, 'topic'))).toBe(404);
    expect(await statusOf(devApi.MergeRequests.accept(projectId, mr.iid))).toBe(405);

    const events = (await gw.dataSource.query(
      `SELECT payload FROM outbox_events WHERE payload->>'project_id' = $1 AND payload->>'type' IN ('merge_request.merged', 'push') ORDER BY seq DESC LIMIT 3`,
      [String(projectId)],
    )) as Array<{ payload: { type: string; data: Record<string, any> } }>;
    expect(events.map((e) => e.payload.type)).toEqual(['push', 'push', 'merge_request.merged']);
    expect(events[1].payload.data).toMatchObject({ ref: 'refs/heads/main', before: mainBefore, after: merged.merge_commit_sha });
    expect(events[0].payload.data).toMatchObject({ ref: 'refs/heads/topic', after: '0'.repeat(40) });
  }, 60_000);

  it('refuses conflicting merges (406) and merges by reporters (401)', async () => {
    await git.ok(['fetch', '-q', 'origin'], { cwd: work });
    await git.ok(['checkout', '-q', '-B', 'main', 'origin/main'], { cwd: work });
    await git.ok(['checkout', '-q', '-b', 'clash'], { cwd: work });
    await git.commitFile(work, 'app.js', 'clash\n', 'Clash');
    await git.ok(['push', '-q', 'origin', 'clash'], { cwd: work });
    await git.ok(['checkout', '-q', 'main'], { cwd: work });
    await git.commitFile(work, 'app.js', 'main\n', 'Main side');
    await git.ok(['push', '-q', 'origin', 'main'], { cwd: work });
    const mr = await devApi.MergeRequests.create(projectId, 'clash', 'main', 'Clash');
    expect(await statusOf(devApi.MergeRequests.accept(projectId, mr.iid))).toBe(406);
    expect(await devApi.MergeRequests.show(projectId, mr.iid)).toMatchObject({
      state: 'opened',
      merge_status: 'cannot_be_merged',
      detailed_merge_status: 'conflict',
      has_conflicts: true,
    });
    const listed = await devApi.MergeRequests.all({ projectId, state: 'opened' });
    expect(listed.find((m) => m.iid === mr.iid)).toMatchObject({ merge_status: 'cannot_be_merged', detailed_merge_status: 'conflict', has_conflicts: true });

    const reporter = await createUserWithToken(gw, 'rory');
    await addProjectMember(gw, projectId, reporter.id, 20);
    const reporterApi = new Gitlab({ host: gw.baseUrl, token: reporter.token, rateLimits: {} });
    expect(await statusOf(reporterApi.MergeRequests.accept(projectId, mr.iid))).toBe(401);

    // A draft title comes first in `detailed_merge_status`; `merge_status` still tells the git outcome.
    const draft = await devApi.MergeRequests.edit(projectId, mr.iid, { title: 'Draft: Clash' });
    expect(draft).toMatchObject({ detailed_merge_status: 'draft_status', merge_status: 'cannot_be_merged' });
  }, 60_000);

  it('refuses merges the merge method does not allow (ff: 406) and merges fast-forward when possible', async () => {
    const edited = await api(gw.baseUrl, 'PUT', `/api/v4/projects/${projectId}`, { token: owner.token, body: { merge_method: 'ff' } });
    expect(edited.body.merge_method).toBe('ff');
    // `wip` branched before main moved on: no fast-forward.
    const diverged = await devApi.MergeRequests.create(projectId, 'wip', 'main', 'WIP work');
    expect(diverged).toMatchObject({ merge_status: 'can_be_merged', detailed_merge_status: 'need_rebase', has_conflicts: false });
    expect(await statusOf(devApi.MergeRequests.accept(projectId, diverged.iid))).toBe(406);
    expect(await bodyOf(devApi.MergeRequests.accept(projectId, diverged.iid))).toBe('Branch cannot be merged');

    await git.ok(['fetch', '-q', 'origin'], { cwd: work });
    await git.ok(['checkout', '-q', '-b', 'linear', 'origin/main'], { cwd: work });
    const head = await git.commitFile(work, 'linear.ts', 'export const l = 1;\n', 'Linear');
    await git.ok(['push', '-q', 'origin', 'linear'], { cwd: work });
    const mr = await devApi.MergeRequests.create(projectId, 'linear', 'main', 'Linear work');
    const merged = await devApi.MergeRequests.accept(projectId, mr.iid);
    expect(merged.merge_commit_sha).toBe(head);
    expect(((await devApi.Branches.show(projectId, 'main')).commit as { id: string }).id).toBe(head);

    // Squash: one commit with the source tree on top of the target, then fast-forward.
    await git.ok(['checkout', '-q', '-b', 'squashed', head], { cwd: work });
    await git.commitFile(work, 's1.ts', 'export const s1 = 1;\n', 'Step one');
    await git.commitFile(work, 's2.ts', 'export const s2 = 2;\n', 'Step two');
    await git.ok(['push', '-q', 'origin', 'squashed'], { cwd: work });
    const squashMr = await devApi.MergeRequests.create(projectId, 'squashed', 'main', 'Two steps');
    const squashed = await devApi.MergeRequests.accept(projectId, squashMr.iid, { squash: true });
    expect(squashed.squash_commit_sha).toBe(squashed.merge_commit_sha);
    const main = await devApi.Branches.show(projectId, 'main');
    expect(main.commit).toMatchObject({ id: squashed.squash_commit_sha, parent_ids: [head], title: 'Two steps' });
  }, 60_000);

  it('opens merge requests only between two different existing branches, as GitLab answers', async () => {
    const missing = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/merge_requests`, {
      token: developer.token,
      body: { title: 'x', source_branch: 'nope', target_branch: 'main' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: { source_branch: ['does not exist'] } });
    const both = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/merge_requests`, {
      token: developer.token,
      body: { title: 'x', source_branch: 'nope', target_branch: 'gone' },
    });
    expect(both.body).toEqual({ message: { source_branch: ['does not exist'], target_branch: ['does not exist'] } });
    const same = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/merge_requests`, {
      token: developer.token,
      body: { title: 'x', source_branch: 'main', target_branch: 'main' },
    });
    expect(same.status).toBe(400);

    // A project without commits has no branches at all.
    const empty = await ownerApi.Projects.create({ name: 'Empty' } as never);
    const refused = await api(gw.baseUrl, 'POST', `/api/v4/projects/${empty.id}/merge_requests`, {
      token: owner.token,
      body: { title: 'x', source_branch: 'feature', target_branch: 'main' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { source_branch: ['does not exist'], target_branch: ['does not exist'] } });
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${empty.id}/merge_requests`, { token: owner.token })).body).toEqual([]);
  }, 60_000);

  it('shows a deleted source branch as broken, without a sha', async () => {
    await devApi.Branches.create(projectId, 'short-lived', 'main');
    const mr = await devApi.MergeRequests.create(projectId, 'short-lived', 'release', 'Short lived');
    expect(mr.sha).toBe(((await devApi.Branches.show(projectId, 'short-lived')).commit as { id: string }).id);
    await devApi.Branches.remove(projectId, 'short-lived');
    expect(await devApi.MergeRequests.show(projectId, mr.iid)).toMatchObject({
      sha: null,
      diff_refs: null,
      merge_status: 'cannot_be_merged',
      detailed_merge_status: 'broken_status',
      has_conflicts: false,
    });
  }, 60_000);
});
