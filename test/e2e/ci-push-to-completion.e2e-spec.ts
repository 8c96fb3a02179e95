import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { eventually } from '@app/testing';
import { cloneUrl, GitClient } from './support/git-client';
import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

/**
 * The "done when" scenario in one flow: a real `git push` of a multi-stage configuration
 * (needs, rules, a manual job, allow_failure, a child pipeline through `trigger:include`, JUnit and
 * SAST reports) is run to completion by a protocol-level runner (register, long-poll, clone over
 * smart HTTP with the job token, trace in chunks, artifacts, states), on an ULTIMATE instance so
 * that the SAST report of the default branch becomes vulnerability findings.
 */
const CONFIG = `
stages: [build, test, deploy]
build:
  stage: build
  script: [make]
  artifacts:
    paths: [dist/]
    reports:
      junit: build.xml
unit:
  stage: test
  script: [npm test]
  artifacts:
    reports:
      junit: unit.xml
sast:
  stage: test
  script: [semgrep --json > gl-sast-report.json]
  artifacts:
    reports:
      sast: gl-sast-report.json
lint:
  stage: test
  script: [lint]
  allow_failure: true
docs:
  stage: test
  script: [docs]
  rules:
    - if: '$CI_COMMIT_BRANCH == "release"'
children:
  stage: test
  trigger:
    include: child.yml
    strategy: depend
package:
  stage: deploy
  needs: [unit]
  script: [pack]
deploy:
  stage: deploy
  script: [deploy]
  when: manual
`;

const CHILD = `
child-test:
  script: [echo child]
  artifacts:
    reports:
      junit: child.xml
`;

const BUILD_XML =
  '<testsuites><testsuite name="build"><testcase classname="B" name="compiles" time="0.5"/><testcase classname="B" name="links" time="0.25"><skipped/></testcase></testsuite></testsuites>';
const UNIT_XML =
  '<testsuite name="unit"><testcase classname="M" name="adds" time="1"/><testcase classname="M" name="divides" time="2"><failure message="division by zero">at m.ts:4</failure></testcase><testcase classname="M" name="rounds" time="0.25"/></testsuite>';
const CHILD_XML = '<testsuite><testcase classname="C" name="child" time="1.5"/></testsuite>';
const SAST_REPORT = JSON.stringify({
  version: '15.0.7',
  vulnerabilities: [
    {
      id: 'sqli-1',
      name: 'SQL injection in app/db.py',
      description: 'user input in a query',
      severity: 'High',
      confidence: 'Medium',
      location: { file: 'app/db.py', start_line: 10, end_line: 10 },
      identifiers: [{ type: 'semgrep_id', name: 'python.sqli', value: 'python.sqli' }],
    },
  ],
  scan: {
    type: 'sast',
    status: 'success',
    start_time: '2026-11-25T00:00:00',
    end_time: '2026-11-25T00:00:10',
    scanner: { id: 'semgrep', name: 'Semgrep', version: '1.2', vendor: { name: 'GitLab' } },
    analyzer: { id: 'semgrep', name: 'Semgrep', version: '1.2', vendor: { name: 'GitLab' } },
  },
});

interface JobPayload {
  id: number;
  token: string;
  job_info: { name: string; stage: string };
  git_info: { repo_url: string; refspecs: string[]; sha: string };
  artifacts: { artifact_type: string; artifact_format: string; paths: string[] }[];
  dependencies: { id: number; name: string }[];
  variables: { key: string; value: string }[];
}

describe('CI: a push run to completion by a runner', () => {
  let gw: TestGateway;
  let git: GitClient;
  let owner: { id: number; username: string; token: string };
  let project: { id: number; path_with_namespace: string };
  let runnerToken: string;
  let work: string;
  let sha: string;
  const taken: Record<string, JobPayload> = {};
  const call = (method: string, path: string) => api(gw.baseUrl, method, `/api/v4/projects/${project.id}${path}`, { token: owner.token });
  const statuses = async (pipelineId: number) =>
    Object.fromEntries(
      (
        (await gw.dataSource.query('SELECT name, status FROM ci_jobs WHERE pipeline_id = $1 AND retried = false', [pipelineId])) as {
          name: string;
          status: string;
        }[]
      ).map((row) => [row.name, row.status]),
    );

  const request = () =>
    api(gw.baseUrl, 'POST', '/api/v4/jobs/request', {
      body: { token: runnerToken, info: { name: 'gitlab-runner', version: '17.5.0', platform: 'linux', architecture: 'amd64', executor: 'shell' } },
    });
  const update = (job: JobPayload, state: string, extra: Record<string, unknown> = {}) =>
    api(gw.baseUrl, 'PUT', `/api/v4/jobs/${job.id}`, { body: { token: job.token, state, ...extra } });
  const upload = async (job: JobPayload, content: Buffer, query: string, filename: string) => {
    const form = new FormData();
    form.append('file', new Blob([content]), filename);
    return (await fetch(`${gw.baseUrl}/api/v4/jobs/${job.id}/artifacts?${query}`, { method: 'POST', headers: { 'JOB-TOKEN': job.token }, body: form })).status;
  };
  /** Sends the log in chunks at the offsets the service answers, as the runner does. */
  const trace = async (job: JobPayload, lines: string[]) => {
    let offset = 0;
    for (const line of lines) {
      const bytes = Buffer.from(line);
      const response = await fetch(`${gw.baseUrl}/api/v4/jobs/${job.id}/trace`, {
        method: 'PATCH',
        headers: { 'JOB-TOKEN': job.token, 'Content-Range': `${offset}-${offset + bytes.length - 1}` },
        body: bytes,
      });
      expect(response.status).toBe(202);
      offset += bytes.length;
      expect(response.headers.get('range')).toBe(`0-${offset}`);
    }
  };

  /** What the runner does with each job of this configuration. */
  async function run(job: JobPayload): Promise<void> {
    const name = job.job_info.name;
    taken[name] = job;
    await trace(job, [`Running ${name} on gitlab-runner\n`, `$ ${name}\n`, 'Job succeeded\n']);
    switch (name) {
      case 'build': {
        // Clone over smart HTTP with the job token, as the runner does.
        const dir = git.dir(`build-${job.id}`);
        mkdirSync(dir);
        await git.ok(['init', '-q'], { cwd: dir });
        await git.ok(['fetch', '-q', '--depth', '20', job.git_info.repo_url, ...job.git_info.refspecs], { cwd: dir });
        expect(await git.ok(['rev-parse', 'refs/remotes/origin/main'], { cwd: dir })).toBe(sha);
        expect(await upload(job, Buffer.alloc(1000, 3), 'artifact_type=archive&artifact_format=zip', 'artifacts.zip')).toBe(201);
        expect(await upload(job, gzipSync(BUILD_XML), 'artifact_type=junit&artifact_format=gzip', 'junit.xml.gz')).toBe(201);
        break;
      }
      case 'unit':
        expect(await upload(job, gzipSync(UNIT_XML), 'artifact_type=junit&artifact_format=gzip', 'junit.xml.gz')).toBe(201);
        break;
      case 'sast':
        expect(await upload(job, Buffer.from(SAST_REPORT), 'artifact_type=sast&artifact_format=raw', 'gl-sast-report.json')).toBe(201);
        break;
      case 'child-test':
        expect(await upload(job, Buffer.from(CHILD_XML), 'artifact_type=junit&artifact_format=raw', 'child.xml')).toBe(201);
        break;
    }
    const outcome =
      name === 'lint' ? await update(job, 'failed', { failure_reason: 'script_failure', exit_code: 1 }) : await update(job, 'success', { exit_code: 0 });
    expect(outcome.status).toBe(200);
  }

  /** Long-polls and runs jobs until every name given was run. */
  async function runUntil(names: string[]): Promise<void> {
    await eventually(
      async () => {
        const answer = await request();
        if (answer.status === 201) await run(answer.body as JobPayload);
        return names.every((name) => taken[name]) ? true : undefined;
      },
      `jobs ${names.join(', ')}`,
      90_000,
    );
  }

  beforeAll(async () => {
    gw = await startTestGateway('ci-push-to-completion', { CI_LONG_POLL_SECONDS: '1', SERVICE_TIER: 'ultimate' });
    git = new GitClient();
    owner = await createUserWithToken(gw, 'completer');
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: owner.token, body: { name: 'Complete', initialize_with_readme: true } });
    if (created.status !== 201) throw new Error(created.text);
    project = created.body;
    const runner = await api(gw.baseUrl, 'POST', '/api/v4/user/runners', {
      token: owner.token,
      body: { runner_type: 'project_type', project_id: project.id, description: 'protocol runner' },
    });
    runnerToken = runner.body.token;
    expect((await api(gw.baseUrl, 'POST', '/api/v4/runners/verify', { body: { token: runnerToken } })).status).toBe(200);
    work = git.dir('complete');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, project.path_with_namespace, owner), work]);
  }, 90_000);
  afterAll(async () => {
    git?.cleanup();
    await gw?.close();
  });

  it('runs every stage, the DAG, the child pipeline and the manual job; reports tests and vulnerabilities', async () => {
    writeFileSync(join(work, '.gitlab-ci.yml'), CONFIG);
    writeFileSync(join(work, 'child.yml'), CHILD);
    await git.ok(['add', '.'], { cwd: work });
    await git.ok(['commit', '-q', '-m', 'CI'], { cwd: work });
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/main'], { cwd: work });
    sha = await git.ok(['rev-parse', 'HEAD'], { cwd: work });

    // The push pipeline; only `build` may run first.
    await runUntil(['build']);
    const pipelineId = Number(taken.build.variables.find((v) => v.key === 'CI_PIPELINE_ID')!.value);
    const pipeline = (await call('GET', `/pipelines/${pipelineId}`)).body;
    expect(pipeline).toMatchObject({ id: pipelineId, iid: 1, source: 'push', ref: 'main', sha, yaml_errors: null });
    // `rules` left `docs` out on main; the others wait for their turn.
    expect(await statuses(pipelineId)).toEqual({
      build: 'success',
      unit: 'pending',
      sast: 'pending',
      lint: 'pending',
      children: 'pending',
      package: 'created',
      deploy: 'created',
    });

    // `package` needs only `unit`: it is enqueued while the rest of the test stage still waits.
    await runUntil(['unit']);
    expect(taken.unit.dependencies.map((d) => d.name)).toEqual(['build']);
    const afterUnit = await statuses(pipelineId);
    expect(afterUnit.package).toBe('pending');
    expect(afterUnit.deploy).toBe('created');
    expect(['pending', 'running']).toContain(afterUnit.sast);

    // The rest, with the child pipeline's job (started by the bridge).
    await runUntil(['sast', 'lint', 'package', 'child-test']);
    const childId = Number(taken['child-test'].variables.find((v) => v.key === 'CI_PIPELINE_ID')!.value);
    expect(childId).not.toBe(pipelineId);
    expect((await call('GET', `/pipelines/${childId}`)).body).toMatchObject({ source: 'parent_pipeline', status: 'success' });
    // The bridge follows the child (`strategy: depend`); the manual job (allowed to fail) and the
    // allowed failure leave the pipeline `success`.
    await eventually(
      async () => ((await call('GET', `/pipelines/${pipelineId}`)).body.status === 'success' ? true : undefined),
      'the pipeline to succeed',
      60_000,
    );
    expect(await statuses(pipelineId)).toEqual({
      build: 'success',
      unit: 'success',
      sast: 'success',
      lint: 'failed',
      children: 'success',
      package: 'success',
      deploy: 'manual',
    });
    expect((await call('GET', `/pipelines/${pipelineId}/bridges`)).body).toEqual([
      expect.objectContaining({ name: 'children', status: 'success', downstream_pipeline: expect.objectContaining({ id: childId, status: 'success' }) }),
    ]);
    const lint = (await call('GET', `/jobs/${taken.lint.id}`)).body;
    expect(lint).toMatchObject({ status: 'failed', allow_failure: true, failure_reason: 'script_failure' });
    const log = await fetch(`${gw.baseUrl}/api/v4/projects/${project.id}/jobs/${taken.build.id}/trace`, { headers: { 'PRIVATE-TOKEN': owner.token } });
    expect(await log.text()).toBe('Running build on gitlab-runner\n$ build\nJob succeeded\n');

    // The manual job, played, runs last.
    const played = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.id}/jobs/${(await statusesWithIds(pipelineId)).deploy}/play`, {
      token: owner.token,
    });
    expect(played).toMatchObject({ status: 200, body: { status: 'pending' } });
    await runUntil(['deploy']);
    const finished = (await call('GET', `/pipelines/${pipelineId}`)).body;
    expect(finished).toMatchObject({ status: 'success', started_at: expect.any(String), finished_at: expect.any(String), duration: expect.any(Number) });
    expect(
      (await call('GET', `/pipelines/${pipelineId}/jobs?per_page=100`)).body.map((job: { name: string; status: string }) => `${job.name}:${job.status}`).sort(),
    ).toEqual(['build:success', 'deploy:success', 'lint:failed', 'package:success', 'sast:success', 'unit:success'].sort());

    // Test report: the parent's and the child's JUnit reports, one suite per job name.
    const report = (await call('GET', `/pipelines/${pipelineId}/test_report`)).body;
    expect(report).toMatchObject({ total_count: 6, success_count: 4, failed_count: 1, skipped_count: 1, error_count: 0, total_time: 5.5 });
    expect(report.test_suites.map((suite: { name: string; total_count: number }) => [suite.name, suite.total_count])).toEqual([
      ['build', 2],
      ['child-test', 1],
      ['unit', 3],
    ]);
    expect(report.test_suites[2].test_cases.find((c: { name: string }) => c.name === 'divides')).toMatchObject({
      status: 'failed',
      system_output: 'division by zero',
      stack_trace: 'at m.ts:4',
    });
    const summary = (await call('GET', `/pipelines/${pipelineId}/test_report_summary`)).body;
    expect(summary.total).toMatchObject({ count: 6, success: 4, failed: 1, skipped: 1, error: 0, time: 5.5 });

    // The SAST report is stored as the job's artifact, and the default branch's findings are listed (ULTIMATE).
    expect(await gw.dataSource.query('SELECT file_type, file_format, filename FROM ci_job_artifacts WHERE job_id = $1', [taken.sast.id])).toEqual([
      { file_type: 'sast', file_format: 'raw', filename: 'gl-sast-report.json' },
    ]);
    const findings = await eventually(
      async () => {
        const listed = await call('GET', '/vulnerability_findings');
        return listed.status === 200 && listed.body.length > 0 ? listed.body : undefined;
      },
      'the SAST findings',
      60_000,
    );
    expect(findings).toEqual([
      expect.objectContaining({
        name: 'SQL injection in app/db.py',
        report_type: 'sast',
        severity: 'high',
        scanner: expect.objectContaining({ external_id: 'semgrep' }),
      }),
    ]);

    // Nothing is left for the runner, and every job token died with its job.
    expect((await request()).status).toBe(204);
    expect((await api(gw.baseUrl, 'GET', '/api/v4/job', { headers: { 'JOB-TOKEN': taken.build.token } })).status).toBe(401);
  }, 300_000);

  const statusesWithIds = async (pipelineId: number) =>
    Object.fromEntries(
      (
        (await gw.dataSource.query('SELECT name, id FROM ci_jobs WHERE pipeline_id = $1 AND retried = false', [pipelineId])) as { name: string; id: number }[]
      ).map((row) => [row.name, row.id]),
    );
});
