import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { Gitlab } from '@gitbeaker/rest';
import { SystemNotesWriter } from '@app/notes';
import { eventually } from '@app/testing';
import { startProjector } from '../../apps/projector/src/main';
import { cloneUrl, GitClient } from './support/git-client';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

/**
 * A real `git push` becomes system notes through the outbox, Kafka and the `system-notes.v1`
 * consumer: the commits pushed to an open merge request's source branch, and the issues and merge
 * requests the commit messages mention.
 */
describe('git push → system notes', () => {
  let gw: TestGateway;
  let projector: INestApplicationContext;
  let git: GitClient;
  let pia: { id: number; username: string; token: string };
  let ada: { id: number; username: string; token: string };
  let projectId: number;
  let work: string;
  const call = (token: string, method: string, path: string, body?: unknown) => api(gw.baseUrl, method, `/api/v4${path}`, { token, body });
  const systemNotes = async (path: string, count: number): Promise<any[]> =>
    eventually(
      async () => {
        const notes = ((await call(pia.token, 'GET', `/projects/${projectId}${path}/notes?sort=asc&per_page=100`)).body as any[]).filter((n) => n.system);
        return notes.length >= count ? notes : undefined;
      },
      `${count} system notes on ${path}`,
      40_000,
    );
  const commit = async (file: string, message: string, authorEmail = 'someone@example.com'): Promise<string> => {
    writeFileSync(join(work, file), `${file}\n`);
    await git.ok(['add', file], { cwd: work });
    await git.ok(['commit', '-q', '-m', message], { cwd: work, env: { GIT_AUTHOR_EMAIL: authorEmail } });
    return git.ok(['rev-parse', 'HEAD'], { cwd: work });
  };

  beforeAll(async () => {
    gw = await startTestGateway('notes-push');
    projector = await startProjector(gw.config);
    await projector.get(SystemNotesWriter).start();
    git = new GitClient();
    pia = await createUserWithToken(gw, 'pia');
    ada = await createUserWithToken(gw, 'ada');
    const created = await call(pia.token, 'POST', '/projects', { name: 'Pusher', initialize_with_readme: true });
    expect(created.status).toBe(201);
    projectId = created.body.id;
    await addProjectMember(gw, projectId, ada.id, 30);
    expect((await call(pia.token, 'POST', `/projects/${projectId}/issues`, { title: 'Disk check is slow' })).body.iid).toBe(1);
    work = git.dir('pusher');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, 'pia/pusher', pia), work]);
    await git.ok(['checkout', '-q', '-b', 'fix'], { cwd: work });
    await commit('start.txt', 'Start the fix');
    await git.ok(['push', '-q', 'origin', 'fix'], { cwd: work });
    expect(
      (await call(pia.token, 'POST', `/projects/${projectId}/merge_requests`, { title: 'Fix disk check', source_branch: 'fix', target_branch: 'main' })).body
        .iid,
    ).toBe(1);
  }, 90_000);
  afterAll(async () => {
    git?.cleanup();
    await projector?.close();
    await gw?.close();
  });

  it("notes the commits pushed to an open merge request's source branch, newest first", async () => {
    const first = await commit('a.txt', 'Measure the check');
    const second = await commit('b.txt', 'Cache <results>');
    await git.ok(['push', '-q', 'origin', 'fix'], { cwd: work });
    const [note] = await systemNotes('/merge_requests/1', 1);
    expect(note).toMatchObject({
      system: true,
      noteable_type: 'MergeRequest',
      noteable_iid: 1,
      author: { username: 'pia' },
      body: `added 2 commits\n\n<ul><li>${second.slice(0, 8)} - Cache &lt;results&gt;</li><li>${first.slice(0, 8)} - Measure the check</li></ul>`,
    });
    // Through a real client too; and system notes cannot be edited.
    const client = new Gitlab({ host: gw.baseUrl, token: pia.token, rateLimits: {} });
    expect((await client.MergeRequestNotes.all(projectId, 1)).filter((n) => n.system).map((n) => n.id)).toEqual([note.id]);
    expect((await call(pia.token, 'PUT', `/projects/${projectId}/merge_requests/1/notes/${note.id}`, { body: 'x' })).status).toBe(403);
  }, 60_000);

  it('notes "mentioned in commit" on the issues and merge requests a pushed commit mentions, once, by the commit author when a user has that email', async () => {
    const byAda = await commit('c.txt', 'Speed up the disk check (#1, see !1)', 'ada@example.com');
    const byStranger = await commit('d.txt', 'Follow-up for #1, and #99 which does not exist');
    await git.ok(['push', '-q', 'origin', 'fix'], { cwd: work });
    const onIssue = await systemNotes('/issues/1', 2);
    expect(onIssue.map((n) => [n.body, n.author.username])).toEqual([
      [`mentioned in commit ${byAda}`, 'ada'],
      [`mentioned in commit ${byStranger}`, 'pia'],
    ]);
    const onMergeRequest = await systemNotes('/merge_requests/1', 3);
    expect(onMergeRequest.map((n) => n.body)).toContain(`mentioned in commit ${byAda}`);

    // The same commits pushed to another branch mention nothing twice.
    await git.ok(['push', '-q', 'origin', 'fix:refs/heads/copy'], { cwd: work });
    const marker = await commit('e.txt', 'Mention #1 once more');
    await git.ok(['push', '-q', 'origin', 'fix'], { cwd: work });
    const after = await systemNotes('/issues/1', 3);
    expect(after.map((n) => n.body)).toEqual([`mentioned in commit ${byAda}`, `mentioned in commit ${byStranger}`, `mentioned in commit ${marker}`]);
  }, 90_000);
});
