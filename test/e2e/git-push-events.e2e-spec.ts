import type { INestApplicationContext } from '@nestjs/common';
import { EventsProjector } from '@app/events';
import { eventually } from '@app/testing';
import { startProjector } from '../../apps/projector/src/main';
import { cloneUrl, GitClient } from './support/git-client';
import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

/** A real `git push` becomes contribution events ("pushed new", "pushed to", "deleted") through the outbox, Kafka and the projector. */
describe('git push → contribution events', () => {
  let gw: TestGateway;
  let projector: INestApplicationContext;
  let git: GitClient;
  let user: { id: number; username: string; token: string };
  let projectId: number;

  beforeAll(async () => {
    gw = await startTestGateway('git-push-events');
    projector = await startProjector(gw.config);
    await projector.get(EventsProjector).start();
    git = new GitClient();
    user = await createUserWithToken(gw, 'pia');
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: user.token, body: { name: 'Pusher', initialize_with_readme: true } });
    expect(created.status).toBe(201);
    projectId = created.body.id;
  }, 60_000);
  afterAll(async () => {
    git?.cleanup();
    await projector?.close();
    await gw?.close();
  });

  it('shows the README commit, a push, a new branch and a deletion as GitLab push events', async () => {
    const work = git.dir('pusher');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, 'pia/pusher', user), work]);
    const before = await git.ok(['rev-parse', 'HEAD'], { cwd: work });
    await git.commitFile(work, 'a.txt', 'a\n', 'First change');
    const after = await git.commitFile(work, 'b.txt', 'b\n', 'Second change');
    await git.ok(['push', '-q', 'origin', 'main'], { cwd: work });
    await git.ok(['push', '-q', 'origin', 'main:refs/heads/topic'], { cwd: work });
    await git.ok(['push', '-q', 'origin', '--delete', 'topic'], { cwd: work });

    const listed = await eventually(
      async () => {
        const res = await api(gw.baseUrl, 'GET', `/api/v4/projects/${projectId}/events?action=pushed&sort=asc`, { token: user.token });
        return res.body.length >= 4 ? res : undefined;
      },
      'four push events',
      40_000,
    );
    const pushes = listed.body.map((e: { action_name: string; push_data: Record<string, unknown> }) => [e.action_name, e.push_data.ref, e.push_data.action]);
    expect(pushes).toEqual([
      ['pushed new', 'main', 'created'],
      ['pushed to', 'main', 'pushed'],
      ['pushed new', 'topic', 'created'],
      ['deleted', 'topic', 'removed'],
    ]);
    expect(listed.body[1].push_data).toMatchObject({
      commit_count: 2,
      commit_from: before,
      commit_to: after,
      commit_title: 'Second change',
      ref_type: 'branch',
    });
    expect(listed.body[1].author.username).toBe('pia');
  }, 60_000);
});
