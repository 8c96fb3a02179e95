import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@app/testing';
import { cloneUrl, GitClient } from './support/git-client';
import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

const CONFIG = `
stages: [build, test, deploy]
variables:
  GREETING: hello
build:
  stage: build
  image: node:24
  before_script: [echo before]
  script: [make]
  after_script: [echo after]
  tags: [linux]
  artifacts:
    paths: [dist/]
    expire_in: 1 week
    reports:
      junit: junit.xml
unit:
  stage: test
  script: [npm test]
  retry: { max: 1, when: [script_failure] }
deploy:
  stage: deploy
  script: [deploy]
  when: manual
`;

/** A protocol-level runner (what gitlab-runner sends and reads) against the real gateway. */
class TestRunner {
  constructor(
    private readonly baseUrl: string,
    readonly token: string,
  ) {}

  request(lastUpdate?: string) {
    return api(this.baseUrl, 'POST', '/api/v4/jobs/request', {
      body: {
        token: this.token,
        last_update: lastUpdate,
        info: {
          name: 'gitlab-runner',
          version: '17.5.0',
          revision: 'abc',
          platform: 'linux',
          architecture: 'amd64',
          executor: 'shell',
          features: { trace_sections: true },
        },
      },
    });
  }

  update(jobId: number, jobToken: string, state: string, extra: Record<string, unknown> = {}) {
    return api(this.baseUrl, 'PUT', `/api/v4/jobs/${jobId}`, { body: { token: jobToken, state, ...extra } });
  }

  async upload(jobId: number, jobToken: string, content: Buffer, query: string, filename = 'artifacts.zip') {
    const form = new FormData();
    form.append('file', new Blob([content]), filename);
    const response = await fetch(`${this.baseUrl}/api/v4/jobs/${jobId}/artifacts?${query}`, { method: 'POST', headers: { 'JOB-TOKEN': jobToken }, body: form });
    return { status: response.status, text: await response.text() };
  }

  async appendTrace(jobId: number, jobToken: string, offset: number, chunk: string) {
    const bytes = Buffer.from(chunk);
    const response = await fetch(`${this.baseUrl}/api/v4/jobs/${jobId}/trace`, {
      method: 'PATCH',
      headers: { 'JOB-TOKEN': jobToken, 'Content-Type': 'text/plain', 'Content-Range': `${offset}-${offset + bytes.length - 1}` },
      body: bytes,
    });
    return { status: response.status, range: response.headers.get('range'), jobStatus: response.headers.get('job-status') };
  }
}

describe('CI runner protocol', () => {
  let gw: TestGateway;
  let git: GitClient;
  let owner: { id: number; username: string; token: string };
  let project: { id: number; path_with_namespace: string };
  let runner: TestRunner;
  let work: string;

  async function pushConfig(config: string, ref = 'main'): Promise<string> {
    writeFileSync(join(work, '.gitlab-ci.yml'), config);
    await git.ok(['add', '.gitlab-ci.yml'], { cwd: work });
    await git.ok(['commit', '-q', '--allow-empty', '-m', `CI for ${ref}`], { cwd: work });
    await git.ok(['push', '-q', 'origin', `HEAD:refs/heads/${ref}`], { cwd: work });
    return git.ok(['rev-parse', 'HEAD'], { cwd: work });
  }

  const jobsOf = (pipelineId: number) =>
    gw.dataSource.query('SELECT id, name, status, failure_reason, retried FROM ci_jobs WHERE pipeline_id = $1 ORDER BY id', [pipelineId]) as Promise<
      { id: number; name: string; status: string; failure_reason: string | null; retried: boolean }[]
    >;
  const pipelineOf = (id: number) => api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/pipelines/${id}`, { token: owner.token });

  beforeAll(async () => {
    gw = await startTestGateway('ci-runner-protocol', { CI_LONG_POLL_SECONDS: '2' });
    git = new GitClient();
    owner = await createUserWithToken(gw, 'runa');
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: owner.token, body: { name: 'Shipper', initialize_with_readme: true } });
    if (created.status !== 201) throw new Error(created.text);
    project = created.body;
    work = git.dir('shipper');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, project.path_with_namespace, owner), work]);
  }, 60_000);
  afterAll(async () => {
    git?.cleanup();
    await gw?.close();
  });

  it('creates runners with a glrt- token shown once, verifies and manages them', async () => {
    const created = await api(gw.baseUrl, 'POST', '/api/v4/user/runners', {
      token: owner.token,
      body: { runner_type: 'project_type', project_id: project.id, description: 'shell', tag_list: 'linux, docker' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), token: expect.stringMatching(/^glrt-[A-Za-z0-9_-]{20,}$/), token_expires_at: null });
    runner = new TestRunner(gw.baseUrl, created.body.token);
    const stored = await gw.dataSource.query('SELECT token_digest FROM ci_runners WHERE id = $1', [created.body.id]);
    expect(stored[0].token_digest).not.toContain(created.body.token);

    expect(await api(gw.baseUrl, 'POST', '/api/v4/runners/verify', { body: { token: runner.token, system_id: 's_1' } })).toMatchObject({
      status: 200,
      body: { id: created.body.id },
    });
    expect((await api(gw.baseUrl, 'POST', '/api/v4/runners/verify', { body: { token: 'glrt-wrong' } })).status).toBe(403);
    const instance = await api(gw.baseUrl, 'POST', '/api/v4/user/runners', { token: owner.token, body: { runner_type: 'instance_type' } });
    expect(instance.status).toBe(403);

    const detail = await api(gw.baseUrl, 'GET', `/api/v4/runners/${created.body.id}`, { token: owner.token });
    expect(detail.body).toMatchObject({
      id: created.body.id,
      description: 'shell',
      runner_type: 'project_type',
      is_shared: false,
      tag_list: ['linux', 'docker'],
      run_untagged: true,
      locked: true,
      paused: false,
      online: false,
      status: 'never_contacted',
      projects: [{ id: project.id }],
    });
    const listed = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/runners`, { token: owner.token });
    expect(listed.body.map((r: { id: number }) => r.id)).toEqual([created.body.id]);
    const stranger = await createUserWithToken(gw, 'stranger-ci');
    expect((await api(gw.baseUrl, 'GET', `/api/v4/runners/${created.body.id}`, { token: stranger.token })).status).toBe(403);
    expect((await api(gw.baseUrl, 'GET', '/api/v4/runners/all', { token: owner.token })).status).toBe(403);
    expect((await api(gw.baseUrl, 'GET', '/api/v4/runners/all', { token: gw.rootToken })).body.map((r: { id: number }) => r.id)).toEqual([created.body.id]);

    const throwaway = await api(gw.baseUrl, 'POST', '/api/v4/user/runners', {
      token: owner.token,
      body: { runner_type: 'project_type', project_id: project.id },
    });
    expect((await api(gw.baseUrl, 'DELETE', '/api/v4/runners', { body: { token: throwaway.body.token } })).status).toBe(204);
    expect((await api(gw.baseUrl, 'POST', '/api/v4/runners/verify', { body: { token: throwaway.body.token } })).status).toBe(403);
  }, 60_000);

  it('long-polls: 204 with X-GitLab-Last-Update when there is no job, woken at once by a new job', async () => {
    const started = Date.now();
    const none = await runner.request();
    expect(none.status).toBe(204);
    const lastUpdate = none.headers.get('x-gitlab-last-update');
    expect(lastUpdate).toEqual(expect.any(String));
    // The poll was held (2 s configured), not answered at once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    const contacted = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/runners`, { token: owner.token });
    expect(contacted.body[0]).toMatchObject({ online: true, status: 'online' });

    // API pipelines only on this branch: the push itself creates none.
    await pushConfig('workflow: { rules: [{ if: \'$CI_PIPELINE_SOURCE == "api"\' }] }\nping: { script: [ping] }', 'wake');
    const waiting = runner.request(lastUpdate ?? undefined);
    const created = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'wake' } });
    expect(created.status).toBe(201);
    const woken = await waiting;
    expect(woken.status).toBe(201);
    expect(woken.body.job_info.name).toBe('ping');
    expect((await runner.update(woken.body.id, woken.body.token, 'success')).status).toBe(200);
    expect((await pipelineOf(created.body.id)).body.status).toBe('success');
  }, 60_000);

  it('runs a pipeline: job payload, clone with the job token, trace in chunks, states, next stage, token lifetime', async () => {
    const sha = await pushConfig(CONFIG);
    // The push pipeline comes through the event stream: poll as a runner does until the job is there.
    const job = await eventually(
      async () => {
        const answer = await runner.request();
        return answer.status === 201 ? answer.body : undefined;
      },
      'the build job',
      60_000,
    );
    expect(job).toMatchObject({
      id: expect.any(Number),
      token: expect.stringMatching(/^glcbt-/),
      allow_git_fetch: true,
      job_info: { name: 'build', stage: 'build', project_id: project.id, project_name: 'Shipper' },
      git_info: { ref: 'main', sha, ref_type: 'branch', refspecs: ['+refs/heads/main:refs/remotes/origin/main'], depth: 20 },
      runner_info: { timeout: 3600 },
      steps: [
        { name: 'script', script: ['echo before', 'make'], timeout: 3600, when: 'on_success', allow_failure: false },
        { name: 'after_script', script: ['echo after'], timeout: 3600, when: 'always', allow_failure: true },
      ],
      image: { name: 'node:24' },
      services: [],
      artifacts: [
        { paths: ['dist/'], when: 'on_success', expire_in: '1 week', artifact_type: 'archive', artifact_format: 'zip' },
        { name: 'junit', paths: ['junit.xml'], when: 'always', artifact_type: 'junit', artifact_format: 'gzip' },
      ],
      dependencies: [],
      features: { trace_sections: true },
    });
    const variables = Object.fromEntries(job.variables.map((v: { key: string; value: string }) => [v.key, v.value]));
    expect(variables).toMatchObject({
      CI: 'true',
      CI_JOB_ID: String(job.id),
      CI_JOB_TOKEN: job.token,
      CI_COMMIT_SHA: sha,
      CI_COMMIT_BRANCH: 'main',
      CI_COMMIT_REF_NAME: 'main',
      CI_PROJECT_ID: String(project.id),
      CI_PROJECT_PATH: project.path_with_namespace,
      CI_PIPELINE_SOURCE: 'push',
      CI_API_V4_URL: `${gw.baseUrl}/api/v4`,
      CI_SERVER_URL: gw.baseUrl,
      GREETING: 'hello',
    });
    expect(variables.CI_REPOSITORY_URL).toBe(job.git_info.repo_url);
    expect(job.variables.find((v: { key: string }) => v.key === 'CI_JOB_TOKEN')).toMatchObject({ masked: true, public: false });
    const pipelineId = Number(variables.CI_PIPELINE_ID);
    expect((await pipelineOf(pipelineId)).body.status).toBe('running');

    // Clone as the runner does, with the job token in the URL.
    const build = git.dir(`build-${job.id}`);
    mkdirSync(build);
    await git.ok(['init', '-q'], { cwd: build });
    await git.ok(['fetch', '-q', '--depth', '20', job.git_info.repo_url, ...job.git_info.refspecs], { cwd: build });
    expect(await git.ok(['rev-parse', 'refs/remotes/origin/main'], { cwd: build })).toBe(sha);
    // Read-only: pushing with the job token is refused.
    const pushAttempt = await git.run(['push', job.git_info.repo_url, `${sha}:refs/heads/other`], { cwd: build });
    expect(pushAttempt.code).not.toBe(0);
    const jobApi = await api(gw.baseUrl, 'GET', '/api/v4/job', { headers: { 'JOB-TOKEN': job.token } });
    expect(jobApi).toMatchObject({ status: 200, body: { id: job.id, name: 'build', status: 'running' } });
    expect((await api(gw.baseUrl, 'GET', `/api/v4/job?job_token=${job.token}`)).status).toBe(200);
    expect((await api(gw.baseUrl, 'GET', '/api/v4/job', { headers: { Authorization: `Bearer ${job.token}` } })).status).toBe(200);

    // Trace chunks at the right offsets; a wrong offset is 416 with the current range.
    expect(await runner.appendTrace(job.id, job.token, 0, 'Running with gitlab-runner\n')).toMatchObject({ status: 202, range: '0-27', jobStatus: 'running' });
    expect(await runner.appendTrace(job.id, job.token, 10, 'overlap')).toMatchObject({ status: 416, range: '0-27' });
    expect(await runner.appendTrace(job.id, job.token, 27, '$ make\nok ✓\n')).toMatchObject({
      status: 202,
      range: `0-${27 + Buffer.byteLength('$ make\nok ✓\n')}`,
    });
    expect((await runner.appendTrace(job.id, 'glcbt-wrong', 0, 'x')).status).toBe(403);
    expect((await runner.update(job.id, job.token, 'running')).status).toBe(200);

    // Artifacts: the archive and a JUnit report, streamed; too large is 413 and stores nothing.
    const archive = Buffer.alloc(300_000, 7);
    expect(await runner.upload(job.id, job.token, archive, 'artifact_type=archive&artifact_format=zip')).toEqual({ status: 201, text: '201' });
    expect((await runner.upload(job.id, job.token, Buffer.from('<testsuites/>'), 'artifact_type=junit&artifact_format=gzip', 'junit.xml.gz')).status).toBe(201);
    expect((await runner.upload(job.id, job.token, archive, 'artifact_type=bogus')).status).toBe(400);
    expect((await api(gw.baseUrl, 'PUT', '/api/v4/application/settings', { token: gw.rootToken, body: { max_artifacts_size: 1 } })).status).toBe(200);
    expect((await runner.upload(job.id, job.token, Buffer.alloc(1_200_000, 1), 'artifact_type=dotenv&artifact_format=gzip')).status).toBe(413);
    const artifacts = await gw.dataSource.query(
      'SELECT file_type, file_format, filename, size::int AS size, storage_key LIKE $$artifacts/%$$ AS stored, expire_at IS NOT NULL AS expires FROM ci_job_artifacts WHERE job_id = $1 ORDER BY id',
      [job.id],
    );
    expect(artifacts).toEqual([
      { file_type: 'archive', file_format: 'zip', filename: 'artifacts.zip', size: 300_000, stored: true, expires: true },
      { file_type: 'junit', file_format: 'gzip', filename: 'junit.xml.gz', size: 13, stored: true, expires: true },
    ]);

    expect((await runner.update(job.id, job.token, 'success', { exit_code: 0 })).status).toBe(200);
    expect((await runner.upload(job.id, job.token, archive, 'artifact_type=archive')).status).toBe(403);
    // The token dies with the job.
    expect((await api(gw.baseUrl, 'GET', '/api/v4/job', { headers: { 'JOB-TOKEN': job.token } })).status).toBe(401);
    expect((await runner.update(job.id, job.token, 'success')).status).toBe(403);
    expect((await runner.appendTrace(job.id, job.token, 0, 'late')).status).toBe(403);
    expect((await git.run(['fetch', '-q', job.git_info.repo_url, ...job.git_info.refspecs], { cwd: build })).code).not.toBe(0);
    const stored = await gw.dataSource.query('SELECT size FROM ci_job_traces WHERE job_id = $1', [job.id]);
    expect(Number(stored[0].size)).toBe(27 + Buffer.byteLength('$ make\nok ✓\n'));

    // Next stage: the untagged test job; a script failure is retried once automatically.
    const unit = (await runner.request()).body;
    expect(unit.job_info.name).toBe('unit');
    expect(unit.dependencies).toEqual([{ id: job.id, name: 'build', token: unit.token, artifacts_file: { filename: 'artifacts.zip', size: 300_000 } }]);
    // The dependent job downloads the archive with its own token.
    const download = await fetch(`${gw.baseUrl}/api/v4/jobs/${job.id}/artifacts`, { headers: { 'JOB-TOKEN': unit.token } });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(archive)).toBe(true);
    expect((await fetch(`${gw.baseUrl}/api/v4/jobs/${job.id}/artifacts`, { headers: { 'JOB-TOKEN': 'glcbt-nope' } })).status).toBe(403);
    expect((await runner.update(unit.id, unit.token, 'failed', { failure_reason: 'script_failure', exit_code: 1 })).status).toBe(200);
    const again = (await runner.request()).body;
    expect(again.job_info.name).toBe('unit');
    expect(again.id).not.toBe(unit.id);
    expect((await runner.update(again.id, again.token, 'failed', { failure_reason: 'script_failure', exit_code: 1 })).status).toBe(200);
    expect(await jobsOf(pipelineId)).toEqual([
      { id: job.id, name: 'build', status: 'success', failure_reason: null, retried: false },
      { id: unit.id, name: 'unit', status: 'failed', failure_reason: 'script_failure', retried: true },
      { id: expect.any(Number), name: 'deploy', status: 'skipped', failure_reason: null, retried: false },
      { id: again.id, name: 'unit', status: 'failed', failure_reason: 'script_failure', retried: false },
    ]);
    const finished = (await pipelineOf(pipelineId)).body;
    expect(finished).toMatchObject({ status: 'failed', started_at: expect.any(String), finished_at: expect.any(String), duration: expect.any(Number) });
    expect((await runner.request()).status).toBe(204);
  }, 90_000);

  it('never gives one job to two runners polling at once', async () => {
    const second = await api(gw.baseUrl, 'POST', '/api/v4/user/runners', {
      token: owner.token,
      body: { runner_type: 'project_type', project_id: project.id, tag_list: ['linux'] },
    });
    const other = new TestRunner(gw.baseUrl, second.body.token);
    const many = ['stages: [a]', ...Array.from({ length: 8 }, (_, i) => `job${i}: { stage: a, script: [x] }`)].join('\n');
    const sha = await pushConfig(many, 'parallel');
    await eventually(
      async () => {
        const rows = await gw.dataSource.query(
          `SELECT count(*)::int AS n FROM ci_jobs j JOIN ci_pipelines p ON p.id = j.pipeline_id WHERE p.sha = $1 AND j.status = 'pending'`,
          [sha],
        );
        return rows[0].n === 8 ? true : undefined;
      },
      'eight pending jobs',
      40_000,
    );
    const answers = await Promise.all([...Array(6).fill(runner), ...Array(6).fill(other)].map((r: TestRunner) => r.request()));
    const ids = answers.filter((a) => a.status === 201).map((a) => a.body.id);
    expect(ids).toHaveLength(8);
    expect(new Set(ids).size).toBe(8);
    expect(answers.filter((a) => a.status === 204)).toHaveLength(4);
  }, 90_000);

  it('gives instance runners no job of a project that turned shared runners off', async () => {
    const created = await api(gw.baseUrl, 'POST', '/api/v4/user/runners', { token: gw.rootToken, body: { runner_type: 'instance_type' } });
    const shared = new TestRunner(gw.baseUrl, created.body.token);
    expect((await api(gw.baseUrl, 'PUT', `/api/v4/projects/${project.id}`, { token: owner.token, body: { shared_runners_enabled: false } })).status).toBe(200);
    const pipeline = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'parallel' } });
    expect(pipeline.status).toBe(201);
    expect((await shared.request()).status).toBe(204);
    expect((await api(gw.baseUrl, 'PUT', `/api/v4/projects/${project.id}`, { token: owner.token, body: { shared_runners_enabled: true } })).status).toBe(200);
    const taken = await shared.request();
    expect(taken.status).toBe(201);
    expect(taken.body.job_info).toMatchObject({ project_id: project.id });
    expect((await jobsOf(pipeline.body.id)).find((job) => job.id === taken.body.id)).toMatchObject({ status: 'running' });
  }, 60_000);
});
