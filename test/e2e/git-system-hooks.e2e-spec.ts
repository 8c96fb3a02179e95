import { eventually } from '@app/testing';
import { cloneUrl, GitClient } from './support/git-client';
import { HookReceiver, startHookReceiver } from './support/hook-receiver';
import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

const ZERO = '0000000000000000000000000000000000000000';

/** A real `git push` reaches system hook receivers as GitLab's push, tag push and repository update hooks. */
describe('git push → system hooks', () => {
  let gw: TestGateway;
  let receiver: HookReceiver;
  let git: GitClient;

  beforeAll(async () => {
    gw = await startTestGateway('git-system-hooks', { HOOK_RETRY_SCHEDULE: '100ms,200ms,300ms' });
    receiver = await startHookReceiver();
    git = new GitClient();
  });
  afterAll(async () => {
    git?.cleanup();
    await receiver?.close();
    await gw?.close();
  });

  it('delivers push, tag_push and repository_update for one push', async () => {
    const hook = await api(gw.baseUrl, 'POST', '/api/v4/hooks', {
      token: gw.rootToken,
      body: { url: `${receiver.url}/git`, push_events: true, tag_push_events: true, repository_update_events: true },
    });
    expect(hook.status).toBe(201);
    const user = await createUserWithToken(gw, 'hana');
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: user.token, body: { name: 'Hooked', initialize_with_readme: true } });
    expect(created.status).toBe(201);
    const work = git.dir('hooked');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, 'hana/hooked', user), work]);
    const before = await git.ok(['rev-parse', 'HEAD'], { cwd: work });
    const after = await git.commitFile(work, 'hooks.ts', 'export {};\n', 'Add hooks');
    await git.ok(['tag', 'v2'], { cwd: work });
    await git.ok(['push', '-q', 'origin', 'main', 'v2'], { cwd: work });

    const kinds = (d: { json: Record<string, any> }) => d.json.event_name as string;
    const received = await eventually(
      () => {
        const mine = receiver.received.filter((d) => d.json.project_id === created.body.id);
        const names = mine.map(kinds);
        // The README commit of the creation and the push: two repository updates.
        return names.includes('tag_push') && names.filter((n) => n === 'repository_update').length >= 2 ? mine : undefined;
      },
      'push hooks',
      90_000,
    );
    const push = received.find((d) => kinds(d) === 'push' && d.json.before === before)!;
    expect(push.json).toMatchObject({
      object_kind: 'push',
      ref: 'refs/heads/main',
      before,
      after,
      checkout_sha: after,
      user_username: 'hana',
      total_commits_count: 1,
      project: { path_with_namespace: 'hana/hooked', default_branch: 'main', git_http_url: `${gw.baseUrl}/hana/hooked.git` },
      repository: { name: 'Hooked' },
    });
    expect(push.json.commits).toMatchObject([{ id: after, title: 'Add hooks', added: ['hooks.ts'] }]);
    const tag = received.find((d) => kinds(d) === 'tag_push')!;
    expect(tag.json).toMatchObject({ object_kind: 'tag_push', ref: 'refs/tags/v2', before: ZERO, after, checkout_sha: after });
    const update = received.filter((d) => kinds(d) === 'repository_update').find((d) => (d.json.refs as string[]).includes('refs/tags/v2'))!;
    expect(update.json.changes).toEqual(
      expect.arrayContaining([
        { before, after, ref: 'refs/heads/main' },
        { before: ZERO, after, ref: 'refs/tags/v2' },
      ]),
    );
  });
});
