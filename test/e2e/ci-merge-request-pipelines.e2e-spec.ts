import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CataloguedEvent } from '@app/messaging';
import { eventually } from '@app/testing';
import { CiPushConsumer } from '@app/ci';
import { cloneUrl, GitClient } from './support/git-client';
import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

const CONFIG = `
build:
  script: [make]
mr-check:
  script: [check]
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
mr-child:
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
  trigger:
    include: child.yml
`;

const CHILD = `
child-job:
  script: [child]
`;

/** No merge request rules: merge requests get no pipeline of their own. */
const PLAIN_CONFIG = `
build:
  script: [make]
`;

interface JobPayload {
  id: number;
  token: string;
  job_info: { name: string };
  git_info: { repo_url: string; ref: string; sha: string; refspecs: string[] };
  variables: { key: string; value: string }[];
}

interface Pipeline {
  id: number;
  iid: number;
  source: string;
  ref: string;
  sha: string;
  status: string;
}

/** Merge request pipelines (source `merge_request_event`): opened merge requests and pushes to their source branch. */
describe('CI merge request pipelines', () => {
  let gw: TestGateway;
  let git: GitClient;
  let owner: { id: number; username: string; token: string };
  let project: { id: number; path_with_namespace: string };
  let runnerToken: string;
  let work: string;
  let featureSha: string;
  let mrIid: number;

  const call = (method: string, path: string, body?: unknown) => api(gw.baseUrl, method, `/api/v4/projects/${project.id}${path}`, { token: owner.token, body });
  /** Commits on `branch` (created from the current commit when new) and pushes it. */
  const commitAndPush = async (branch: string, file: string, content: string, create = true): Promise<string> => {
    await git.ok(create ? ['checkout', '-q', '-B', branch] : ['checkout', '-q', branch], { cwd: work });
    writeFileSync(join(work, file), content);
    await git.ok(['add', file], { cwd: work });
    await git.ok(['commit', '-q', '-m', `${branch}: ${file}`], { cwd: work });
    await git.ok(['push', '-q', 'origin', `HEAD:refs/heads/${branch}`], { cwd: work });
    return git.ok(['rev-parse', 'HEAD'], { cwd: work });
  };
  const mergeRequestPipelines = async (): Promise<Pipeline[]> => (await call('GET', '/pipelines?source=merge_request_event&sort=asc')).body;
  /** Takes jobs until every one of `names` came (left running), finishing the others (push pipelines run too). */
  const takeJobs = async (...names: string[]): Promise<Record<string, JobPayload>> => {
    const taken: Record<string, JobPayload> = {};
    await eventually(
      async () => {
        const answer = await api(gw.baseUrl, 'POST', '/api/v4/jobs/request', {
          body: { token: runnerToken, info: { name: 'gitlab-runner', version: '17.5.0' } },
        });
        if (answer.status === 201) {
          const job = answer.body as JobPayload;
          if (names.includes(job.job_info.name)) taken[job.job_info.name] = job;
          else await api(gw.baseUrl, 'PUT', `/api/v4/jobs/${job.id}`, { body: { token: job.token, state: 'success' } });
        }
        return names.every((name) => taken[name]) ? true : undefined;
      },
      `jobs ${names.join(', ')}`,
    );
    return taken;
  };

  beforeAll(async () => {
    gw = await startTestGateway('ci-mr-pipelines', { CI_LONG_POLL_SECONDS: '1' });
    git = new GitClient();
    owner = await createUserWithToken(gw, 'mrpipeowner');
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: owner.token, body: { name: 'MR pipelines', initialize_with_readme: true } });
    if (created.status !== 201) throw new Error(created.text);
    project = created.body;
    work = git.dir('mr-pipelines');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, project.path_with_namespace, owner), work]);
    writeFileSync(join(work, 'child.yml'), CHILD);
    await git.ok(['add', 'child.yml'], { cwd: work });
    await commitAndPush('main', '.gitlab-ci.yml', CONFIG);
    featureSha = await commitAndPush('feature', 'feature.txt', 'one\n');
    await git.ok(['checkout', '-q', 'main'], { cwd: work });
    await commitAndPush('plain', '.gitlab-ci.yml', PLAIN_CONFIG);
    const registered = await api(gw.baseUrl, 'POST', '/api/v4/user/runners', {
      token: owner.token,
      body: { runner_type: 'project_type', project_id: project.id },
    });
    runnerToken = registered.body.token;
  }, 60_000);
  afterAll(async () => {
    git?.cleanup();
    await gw?.close();
  });

  it('creates a merge request pipeline when a merge request is opened, with its ref, variables and jobs', async () => {
    // Push pipelines exist for the branches, none for merge requests yet.
    await eventually(async () => ((await call('GET', '/pipelines?ref=feature')).body.length === 1 ? true : undefined), 'the push pipeline of feature');
    expect(await mergeRequestPipelines()).toEqual([]);

    const mr = await call('POST', '/merge_requests', { source_branch: 'feature', target_branch: 'main', title: 'Add feature', labels: 'ci,review' });
    expect(mr.status).toBe(201);
    mrIid = mr.body.iid;
    const [pipeline] = await eventually(async () => {
      const found = await mergeRequestPipelines();
      return found.length > 0 ? found : undefined;
    }, 'the merge request pipeline');
    expect(pipeline).toMatchObject({ source: 'merge_request_event', ref: `refs/merge-requests/${mrIid}/head`, sha: featureSha });
    const jobs = await call('GET', `/pipelines/${pipeline.id}/jobs`);
    expect(jobs.body.map((job: { name: string }) => job.name)).toEqual(['mr-check']);
    // Its child pipeline runs at the merge request's ref too.
    const bridge = await eventually(async () => {
      const [found] = (await call('GET', `/pipelines/${pipeline.id}/bridges`)).body;
      return found?.downstream_pipeline && found.status === 'success' ? found : undefined;
    }, 'the child pipeline');
    expect(bridge).toMatchObject({ name: 'mr-child', status: 'success', downstream_pipeline: { ref: `refs/merge-requests/${mrIid}/head`, sha: featureSha } });
    const { 'child-job': child, 'mr-check': job } = await takeJobs('child-job', 'mr-check');
    expect(child.git_info.refspecs).toEqual([`+refs/merge-requests/${mrIid}/head:refs/remotes/origin/merge-requests/${mrIid}/head`]);
    expect(child.variables).not.toContainEqual(expect.objectContaining({ key: 'CI_COMMIT_BRANCH' }));
    expect((await api(gw.baseUrl, 'PUT', `/api/v4/jobs/${child.id}`, { body: { token: child.token, state: 'success' } })).status).toBe(200);
    // The push pipeline of the branch runs `build` alone.
    const pushed = (await call('GET', '/pipelines?ref=feature')).body[0];
    expect((await call('GET', `/pipelines/${pushed.id}/jobs`)).body.map((job: { name: string }) => job.name)).toEqual(['build']);

    const variables = Object.fromEntries(job.variables.map((v) => [v.key, v.value]));
    expect(variables).toMatchObject({
      CI_PIPELINE_SOURCE: 'merge_request_event',
      CI_COMMIT_REF_NAME: 'feature',
      CI_COMMIT_SHA: featureSha,
      CI_MERGE_REQUEST_ID: String(mr.body.id),
      CI_MERGE_REQUEST_IID: String(mrIid),
      CI_MERGE_REQUEST_PROJECT_ID: String(project.id),
      CI_MERGE_REQUEST_PROJECT_PATH: project.path_with_namespace,
      CI_MERGE_REQUEST_REF_PATH: `refs/merge-requests/${mrIid}/head`,
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
      CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
      // The default branch gets its protected branch rule when it is created.
      CI_MERGE_REQUEST_TARGET_BRANCH_PROTECTED: 'true',
      CI_MERGE_REQUEST_TITLE: 'Add feature',
      CI_MERGE_REQUEST_EVENT_TYPE: 'detached',
      CI_MERGE_REQUEST_DIFF_BASE_SHA: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    expect(variables.CI_MERGE_REQUEST_LABELS.split(',').sort()).toEqual(['ci', 'review']);
    expect(variables).not.toHaveProperty('CI_COMMIT_BRANCH');
    // The runner fetches the merge request's head ref over smart HTTP with the job token.
    expect(job.git_info).toMatchObject({ ref: `refs/merge-requests/${mrIid}/head`, sha: featureSha });
    const dir = git.dir(`mr-job-${job.id}`);
    mkdirSync(dir);
    await git.ok(['init', '-q'], { cwd: dir });
    await git.ok(['fetch', '-q', '--depth', '20', job.git_info.repo_url, ...job.git_info.refspecs], { cwd: dir });
    expect(await git.ok(['rev-parse', `refs/remotes/origin/merge-requests/${mrIid}/head`], { cwd: dir })).toBe(featureSha);
    expect((await api(gw.baseUrl, 'PUT', `/api/v4/jobs/${job.id}`, { body: { token: job.token, state: 'success' } })).status).toBe(200);
    await eventually(
      async () => ((await call('GET', `/pipelines/${pipeline.id}`)).body.status === 'success' ? true : undefined),
      'the merge request pipeline to succeed',
    );
  }, 60_000);

  it('creates a new merge request pipeline when the source branch is pushed', async () => {
    const next = await commitAndPush('feature', 'feature.txt', 'two\n', false);
    const pipelines = await eventually(async () => {
      const found = await mergeRequestPipelines();
      return found.length === 2 ? found : undefined;
    }, 'a second merge request pipeline');
    expect(pipelines[1]).toMatchObject({ source: 'merge_request_event', ref: `refs/merge-requests/${mrIid}/head`, sha: next });
    expect(pipelines[1].iid).toBeGreaterThan(pipelines[0].iid);
    const { 'mr-check': job } = await takeJobs('mr-check');
    expect(job.git_info.sha).toBe(next);
    expect(job.variables).toContainEqual(expect.objectContaining({ key: 'CI_COMMIT_SHA', value: next }));
  }, 60_000);

  it("lists a merge request's pipelines (its own and its source branch's at its commits) and creates one on demand", async () => {
    const all: Pipeline[] = (await call('GET', '/pipelines?per_page=100')).body;
    const expected = all.filter(
      (p) => (p.source === 'merge_request_event' && p.ref === `refs/merge-requests/${mrIid}/head`) || (p.source === 'push' && p.ref === 'feature'),
    );
    // Two merge request pipelines and the push pipelines of its two commits; not those of main or of another branch.
    expect(expected.map((p) => p.source).sort()).toEqual(['merge_request_event', 'merge_request_event', 'push', 'push']);
    const listed = await call('GET', `/merge_requests/${mrIid}/pipelines`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((p: Pipeline) => p.id)).toEqual(expected.map((p) => p.id).sort((a, b) => b - a));
    expect(listed.body[0]).toEqual({
      id: expect.any(Number),
      iid: expect.any(Number),
      project_id: project.id,
      sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      ref: expect.any(String),
      status: expect.any(String),
      source: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      web_url: expect.stringContaining(`/${project.path_with_namespace}/-/pipelines/`),
    });
    const page = await call('GET', `/merge_requests/${mrIid}/pipelines?per_page=1&page=2`);
    expect(page.body.map((p: Pipeline) => p.id)).toEqual([listed.body[1].id]);
    expect(page.headers.get('x-total')).toBe('4');

    // A new merge request pipeline at the source head, even though one exists for it: 200, as GitLab answers.
    const created = await call('POST', `/merge_requests/${mrIid}/pipelines`);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      source: 'merge_request_event',
      ref: `refs/merge-requests/${mrIid}/head`,
      sha: listed.body[0].sha,
      user: { username: owner.username },
    });
    expect((await call('GET', `/pipelines/${created.body.id}/jobs`)).body.map((job: { name: string }) => job.name)).toEqual(['mr-check']);
    expect((await call('GET', `/merge_requests/${mrIid}/pipelines`)).body[0].id).toBe(created.body.id);
    await takeJobs('mr-check');

    expect((await call('GET', '/merge_requests/999/pipelines')).body).toEqual({ message: '404 Merge Request Not Found' });
    expect((await call('POST', '/merge_requests/999/pipelines')).status).toBe(404);
    const stranger = await createUserWithToken(gw, 'mrpipestranger');
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/merge_requests/${mrIid}/pipelines`, { token: stranger.token })).status).toBe(404);
  }, 60_000);

  it('creates no merge request pipeline when the configuration has no merge request rules', async () => {
    const mr = await call('POST', '/merge_requests', { source_branch: 'plain', target_branch: 'main', title: 'Plain' });
    expect(mr.status).toBe(201);
    // Handled here, to completion, as the consumer does with the event.
    const event = {
      id: randomUUID(),
      type: 'merge_request.opened',
      actor: owner.id,
      project_id: project.id,
      group_id: null,
      data: { merge_request: { id: mr.body.id } },
    } as unknown as CataloguedEvent<'merge_request.opened'>;
    await gw.app.get(CiPushConsumer, { strict: false }).onMergeRequest(event);
    expect((await mergeRequestPipelines()).map((pipeline) => pipeline.ref)).not.toContain(`refs/merge-requests/${mr.body.iid}/head`);
    // Asked for through the API, it is refused with the configuration's reason.
    const refused = await call('POST', `/merge_requests/${mr.body.iid}/pipelines`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { base: ['No stages / jobs for this pipeline.'] } });
    expect((await mergeRequestPipelines()).map((pipeline) => pipeline.ref)).not.toContain(`refs/merge-requests/${mr.body.iid}/head`);
  }, 30_000);
});
