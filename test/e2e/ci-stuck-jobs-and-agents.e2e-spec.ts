import { AppConfig, type ServiceTier } from '@app/config';
import { cloneUrl, GitClient } from './support/git-client';
import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

const CONFIG = `
workflow:
  rules:
    - if: $CI_PIPELINE_SOURCE == "api"
plain:
  script: [plain]
tagged:
  script: [tagged]
  tags: [gpu, linux]
`;

const NO_ACTIVE_RUNNER = "This job is stuck because you don't have any active runners that can run this job.";
const NO_ONLINE_RUNNER = "This job is stuck because the project doesn't have any runners online assigned to it.";
const NO_RUNNER_WITH_TAGS =
  "This job is stuck because you don't have any active runners online or available with any of these tags assigned to them: gpu, linux";

interface JobView {
  id: number;
  name: string;
  status: string;
  stuck: boolean;
  stuck_reason: string | null;
}

/** Stuck pending jobs (`stuck`, `stuck_reason`) and `GET /job/allowed_agents`, with protocol-level runners. */
describe('CI stuck jobs and allowed agents', () => {
  let gw: TestGateway;
  let git: GitClient;
  let owner: { id: number; username: string; token: string };
  let groups: { outer: number; inner: number };
  let project: { id: number; name: string; path: string; path_with_namespace: string; created_at: string };
  /** The running job a runner took, and its token. */
  let running: { id: number; token: string; pipelineId: number; runnerToken: string };

  const call = (method: string, path: string, body?: unknown) => api(gw.baseUrl, method, `/api/v4${path}`, { token: owner.token, body });
  const createRunner = async (attributes: Record<string, unknown>): Promise<{ id: number; token: string }> => {
    const created = await call('POST', '/user/runners', { runner_type: 'project_type', project_id: project.id, ...attributes });
    if (created.status !== 201) throw new Error(created.text);
    return created.body;
  };
  const poll = (token: string) => api(gw.baseUrl, 'POST', '/api/v4/jobs/request', { body: { token, info: { name: 'gitlab-runner', version: '17.5.0' } } });
  const createPipeline = async (): Promise<number> => {
    const created = await call('POST', `/projects/${project.id}/pipeline`, { ref: 'main' });
    if (created.status !== 201) throw new Error(created.text);
    return created.body.id;
  };
  /** The pipeline's jobs by name, as the list shows them; each checked against its single view. */
  const jobsOf = async (pipelineId: number): Promise<Record<string, JobView>> => {
    const listed = await call('GET', `/projects/${project.id}/pipelines/${pipelineId}/jobs`);
    expect(listed.status).toBe(200);
    const byName: Record<string, JobView> = {};
    for (const job of listed.body as JobView[]) {
      const single = await call('GET', `/projects/${project.id}/jobs/${job.id}`);
      expect(single.body).toMatchObject({ id: job.id, status: job.status, stuck: job.stuck, stuck_reason: job.stuck_reason });
      byName[job.name] = job;
    }
    return byName;
  };
  const allowedAgents = (options: { headers?: Record<string, string>; query?: string } = {}) =>
    api(gw.baseUrl, 'GET', `/api/v4/job/allowed_agents${options.query ?? ''}`, { headers: options.headers });

  beforeAll(async () => {
    gw = await startTestGateway('ci-stuck-agents', { CI_LONG_POLL_SECONDS: '1' });
    git = new GitClient();
    owner = await createUserWithToken(gw, 'stuckowner');
    const outer = await call('POST', '/groups', { name: 'Outer', path: 'outer' });
    const inner = await call('POST', '/groups', { name: 'Inner', path: 'inner', parent_id: outer.body.id });
    groups = { outer: outer.body.id, inner: inner.body.id };
    const created = await call('POST', '/projects', { name: 'Waiting', namespace_id: groups.inner, initialize_with_readme: true });
    if (created.status !== 201) throw new Error(created.text);
    project = created.body;
    const work = git.dir('waiting');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, project.path_with_namespace, owner), work]);
    await git.commitFile(work, '.gitlab-ci.yml', CONFIG, 'CI');
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/main'], { cwd: work });
  }, 60_000);
  afterAll(async () => {
    git?.cleanup();
    await gw?.close();
  });

  it("marks pending jobs stuck, with GitLab's reasons, until a runner that can take them is online", async () => {
    const first = await createPipeline();
    let jobs = await jobsOf(first);
    expect(jobs.plain).toMatchObject({ status: 'pending', stuck: true, stuck_reason: NO_ACTIVE_RUNNER });
    expect(jobs.tagged).toMatchObject({ status: 'pending', stuck: true, stuck_reason: NO_RUNNER_WITH_TAGS });

    // A runner that never asked for jobs is not online; it lacks `gpu` and takes no untagged job.
    const linux = await createRunner({ tag_list: 'linux', run_untagged: false });
    jobs = await jobsOf(first);
    expect(jobs.plain).toMatchObject({ stuck: true, stuck_reason: NO_ONLINE_RUNNER });
    expect(jobs.tagged).toMatchObject({ stuck: true, stuck_reason: NO_RUNNER_WITH_TAGS });

    // Online now (it asked), but still unable to take either job.
    expect((await poll(linux.token)).status).toBe(204);
    expect((await call('GET', `/runners/${linux.id}`)).body).toMatchObject({ status: 'online' });
    jobs = await jobsOf(first);
    expect(jobs.plain).toMatchObject({ status: 'pending', stuck: true, stuck_reason: NO_ONLINE_RUNNER });
    expect(jobs.tagged).toMatchObject({ status: 'pending', stuck: true, stuck_reason: NO_RUNNER_WITH_TAGS });

    // A runner with every tag asks, and takes the tagged job.
    const gpu = await createRunner({ tag_list: ['gpu', 'linux', 'docker'], run_untagged: false });
    const taken = await poll(gpu.token);
    expect(taken.status).toBe(201);
    expect(taken.body.job_info.name).toBe('tagged');
    running = { id: taken.body.id, token: taken.body.token, pipelineId: first, runnerToken: gpu.token };
    jobs = await jobsOf(first);
    expect(jobs.tagged).toMatchObject({ status: 'running', stuck: false, stuck_reason: null });

    // The same job again, while that runner is busy: pending, but an online runner can take it.
    const second = await createPipeline();
    jobs = await jobsOf(second);
    expect(jobs.tagged).toMatchObject({ status: 'pending', stuck: false, stuck_reason: null });
    expect(jobs.plain).toMatchObject({ status: 'pending', stuck: true, stuck_reason: NO_ONLINE_RUNNER });

    // The online runner that lacked nothing but `run_untagged` now takes untagged jobs.
    expect((await call('PUT', `/runners/${linux.id}`, { run_untagged: true })).status).toBe(200);
    jobs = await jobsOf(second);
    expect(jobs.plain).toMatchObject({ status: 'pending', stuck: false, stuck_reason: null });

    // A paused runner is not active: the job is stuck again (the project's other runner is active, not suitable).
    expect((await call('PUT', `/runners/${linux.id}`, { paused: true })).status).toBe(200);
    jobs = await jobsOf(second);
    expect(jobs.plain).toMatchObject({ stuck: true, stuck_reason: NO_ONLINE_RUNNER });
  }, 60_000);

  it('answers GET /job/allowed_agents to the token of a running job: no agents, the job, pipeline, project with its groups, user', async () => {
    const answer = await allowedAgents({ headers: { 'JOB-TOKEN': running.token } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      allowed_agents: [],
      job: { id: running.id, name: 'tagged', stage: 'test', project_id: project.id, project_name: 'Waiting' },
      pipeline: {
        id: running.pipelineId,
        iid: expect.any(Number),
        project_id: project.id,
        sha: expect.stringMatching(/^[0-9a-f]{40}$/),
        ref: 'main',
        status: 'running',
        source: 'api',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        web_url: `${gw.baseUrl}/outer/inner/${project.path}/-/pipelines/${running.pipelineId}`,
      },
      project: {
        id: project.id,
        description: null,
        name: 'Waiting',
        name_with_namespace: 'Outer / Inner / Waiting',
        path: project.path,
        path_with_namespace: `outer/inner/${project.path}`,
        created_at: project.created_at,
        groups: [{ id: groups.outer }, { id: groups.inner }],
      },
      user: {
        id: owner.id,
        username: 'stuckowner',
        name: 'stuckowner name',
        state: 'active',
        locked: false,
        avatar_url: expect.any(String),
        web_url: `${gw.baseUrl}/stuckowner`,
      },
    });
    // The other places a job token goes.
    expect((await allowedAgents({ query: `?job_token=${running.token}` })).body).toEqual(answer.body);
    expect((await allowedAgents({ headers: { Authorization: `Bearer ${running.token}` } })).body).toEqual(answer.body);

    expect(await allowedAgents()).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await allowedAgents({ headers: { 'JOB-TOKEN': 'glcbt-unknown' } })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });

    const config = gw.app.get(AppConfig);
    const tier: ServiceTier = config.tier;
    Object.assign(config, { tier: 'free' });
    try {
      expect(await allowedAgents({ headers: { 'JOB-TOKEN': running.token } })).toMatchObject({
        status: 403,
        body: { message: '403 Forbidden - This feature requires the PREMIUM tier' },
      });
    } finally {
      Object.assign(config, { tier });
    }

    // The token dies with the job.
    expect((await api(gw.baseUrl, 'PUT', `/api/v4/jobs/${running.id}`, { body: { token: running.token, state: 'success' } })).status).toBe(200);
    expect(await allowedAgents({ headers: { 'JOB-TOKEN': running.token } })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  }, 60_000);

  it('describes GET /job/allowed_agents in the OpenAPI document, with its tier', async () => {
    const document = await api(gw.baseUrl, 'GET', '/api/v4/openapi.json');
    const operation = document.body.paths['/api/v4/job/allowed_agents']?.get;
    expect(operation).toMatchObject({ summary: expect.any(String) });
    expect(operation.description).toContain('Tier: PREMIUM or higher (403 below).');
  });
});
