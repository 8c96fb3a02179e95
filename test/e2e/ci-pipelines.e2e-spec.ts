import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@app/testing';
import { cloneUrl, GitClient } from './support/git-client';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

const CONFIG = `
stages: [build, test, deploy]
variables:
  GLOBAL: "1"
build:
  stage: build
  script: [make]
lint:
  stage: build
  script: [lint]
  allow_failure: true
  rules:
    - changes: ["src/**/*"]
unit:
  stage: test
  needs: [build]
  script: [test]
deploy:
  stage: deploy
  script: [deploy]
  rules:
    - if: $CI_COMMIT_BRANCH == "main"
      when: manual
    - when: never
api-only:
  script: [x]
  rules:
    - if: $CI_PIPELINE_SOURCE == "api"
`;

/** Pipelines from the repository's `.gitlab-ci.yml`: on push (through the domain event stream) and through the API. */
describe('CI pipelines', () => {
  let gw: TestGateway;
  let git: GitClient;
  let owner: { id: number; username: string; token: string };
  let project: { id: number; path_with_namespace: string };
  let work: string;

  const get = (path: string, token = owner.token) => api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}${path}`, { token });

  async function push(files: Record<string, string>, message: string, ref = 'main'): Promise<string> {
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(join(work, name, '..'), { recursive: true });
      writeFileSync(join(work, name), content);
      await git.ok(['add', name], { cwd: work });
    }
    await git.ok(['commit', '-q', '-m', message], { cwd: work });
    await git.ok(['push', '-q', 'origin', `HEAD:refs/heads/${ref}`], { cwd: work });
    return git.ok(['rev-parse', 'HEAD'], { cwd: work });
  }

  const pipelineFor = (sha: string) =>
    eventually(
      async () => {
        const res = await get(`/pipelines?sha=${sha}`);
        return res.body.length > 0 ? res.body[0] : undefined;
      },
      `pipeline of ${sha}`,
      40_000,
    );

  beforeAll(async () => {
    gw = await startTestGateway('ci-pipelines');
    git = new GitClient();
    owner = await createUserWithToken(gw, 'cia');
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: owner.token, body: { name: 'Widget', initialize_with_readme: true } });
    if (created.status !== 201) throw new Error(`project not created: ${created.text}`);
    project = created.body;
    work = git.dir('widget');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, project.path_with_namespace, owner), work]);
  }, 60_000);
  afterAll(async () => {
    git?.cleanup();
    await gw?.close();
  });

  it('creates a push pipeline with the jobs its rules keep, the first ones pending', async () => {
    const sha = await push({ '.gitlab-ci.yml': CONFIG, 'src/app.ts': 'x' }, 'Add CI');
    const listed = await pipelineFor(sha);
    expect(listed).toEqual({
      id: expect.any(Number),
      iid: 1,
      project_id: project.id,
      sha,
      ref: 'main',
      status: 'pending',
      source: 'push',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      web_url: `${gw.baseUrl}/${project.path_with_namespace}/-/pipelines/${listed.id}`,
    });
    const full = await get(`/pipelines/${listed.id}`);
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({
      id: listed.id,
      iid: 1,
      tag: false,
      yaml_errors: null,
      before_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      user: { username: 'cia' },
      started_at: null,
      finished_at: null,
      coverage: null,
    });
    const jobs = (await gw.dataSource.query('SELECT name, status, stage_idx, "when", allow_failure, needs FROM ci_jobs WHERE pipeline_id = $1 ORDER BY id', [
      listed.id,
    ])) as Record<string, unknown>[];
    expect(jobs).toEqual([
      { name: 'build', status: 'pending', stage_idx: 1, when: 'on_success', allow_failure: false, needs: null },
      { name: 'lint', status: 'pending', stage_idx: 1, when: 'on_success', allow_failure: true, needs: null },
      { name: 'unit', status: 'created', stage_idx: 2, when: 'on_success', allow_failure: false, needs: ['build'] },
      { name: 'deploy', status: 'created', stage_idx: 3, when: 'manual', allow_failure: false, needs: null },
    ]);
  }, 60_000);

  it('creates API pipelines (source api, variables kept) with the next iid', async () => {
    const created = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.id}/pipeline`, {
      token: owner.token,
      body: {
        ref: 'main',
        variables: [
          { key: 'DEPLOY_TO', value: 'staging' },
          { key: 'CONF', value: 'a=b', variable_type: 'file' },
        ],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ iid: 2, ref: 'main', source: 'api', status: 'pending', tag: false, yaml_errors: null, user: { id: owner.id } });
    const names = (await gw.dataSource.query('SELECT name FROM ci_jobs WHERE pipeline_id = $1 ORDER BY id', [created.body.id])).map(
      (r: { name: string }) => r.name,
    );
    // No push: `changes` holds, the API-only job runs.
    expect(names).toEqual(['build', 'lint', 'unit', 'deploy', 'api-only']);
    const variables = await get(`/pipelines/${created.body.id}/variables`);
    expect(variables.body).toEqual([
      { key: 'DEPLOY_TO', variable_type: 'env_var', value: 'staging' },
      { key: 'CONF', variable_type: 'file', value: 'a=b' },
    ]);
  }, 60_000);

  it('refuses API pipelines for unknown refs, without configuration, or filtered out, saving nothing', async () => {
    const unknown = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'nope' } });
    expect(unknown).toMatchObject({ status: 400, body: { message: { base: ['Reference not found'] } } });
    const missing = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.id}/pipeline`, { token: owner.token, body: {} });
    expect(missing.status).toBe(400);
    await git.ok(['push', '-q', 'origin', 'HEAD~1:refs/heads/no-ci'], { cwd: work });
    const noConfig = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'no-ci' } });
    expect(noConfig).toMatchObject({ status: 400, body: { message: { base: ['Missing CI config file'] } } });
    const count = await gw.dataSource.query('SELECT count(*)::int AS n FROM ci_pipelines WHERE project_id = $1', [project.id]);
    expect(count[0].n).toBe(2);
  }, 60_000);

  it('keeps iids gap-free under concurrent creation', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => api(gw.baseUrl, 'POST', `/api/v4/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'main' } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(results.map((r) => r.body.iid).sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 7, 8]);
  }, 60_000);

  it('saves a failed pipeline with yaml_errors for a pushed invalid configuration', async () => {
    const sha = await push({ '.gitlab-ci.yml': 'job:\n  script: [a]\n  scrip: [b]\n' }, 'Break CI', 'broken');
    const listed = await pipelineFor(sha);
    expect(listed.status).toBe('failed');
    const full = await get(`/pipelines/${listed.id}`);
    expect(full.body).toMatchObject({ status: 'failed', yaml_errors: 'jobs:job config contains unknown keys: scrip', ref: 'broken' });
    const withErrors = await get('/pipelines?yaml_errors=true');
    expect(withErrors.body.map((p: { id: number }) => p.id)).toEqual([listed.id]);
    const api400 = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'broken' } });
    expect(api400).toMatchObject({ status: 400, body: { message: { base: ['jobs:job config contains unknown keys: scrip'] } } });
  }, 60_000);

  it('filters and orders the pipeline list, 404 for unknown ids, reporters read and guests of private projects only with public pipelines', async () => {
    const all = await get('/pipelines?per_page=100');
    expect(all.body.map((p: { iid: number }) => p.iid)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect((await get('/pipelines?source=push')).body.map((p: { iid: number }) => p.iid)).toEqual([9, 1]);
    expect((await get('/pipelines?ref=broken')).body.map((p: { iid: number }) => p.iid)).toEqual([9]);
    expect((await get('/pipelines?scope=branches')).body.map((p: { ref: string }) => p.ref).sort()).toEqual(['broken', 'main']);
    expect((await get('/pipelines?order_by=id&sort=asc&per_page=2')).body.map((p: { iid: number }) => p.iid)).toEqual([1, 2]);
    expect((await get('/pipelines?username=cia&status=failed')).body.map((p: { iid: number }) => p.iid)).toEqual([9]);
    expect((await get('/pipelines?status=bogus')).status).toBe(400);
    expect((await get('/pipelines/999999')).status).toBe(404);
    expect((await get('/pipelines/abc')).status).toBe(400);

    const guest = await createUserWithToken(gw, 'guest-ci');
    const reporter = await createUserWithToken(gw, 'reporter-ci');
    await addProjectMember(gw, project.id, guest.id, 10);
    await addProjectMember(gw, project.id, reporter.id, 20);
    // GitLab's `read_pipeline`: a guest of a private project reads pipelines while "Public pipelines" is on.
    expect((await get('/pipelines', guest.token)).status).toBe(200);
    await api(gw.baseUrl, 'PUT', `/api/v4/projects/${project.id}`, { token: owner.token, body: { public_jobs: false } });
    expect((await get('/pipelines', guest.token)).status).toBe(403);
    expect((await get('/pipelines', reporter.token)).status).toBe(200);
    const byReporter = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.id}/pipeline`, { token: reporter.token, body: { ref: 'main' } });
    expect(byReporter.status).toBe(403);
  }, 60_000);
});
