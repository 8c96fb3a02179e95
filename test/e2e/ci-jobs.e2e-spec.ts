import { gzipSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Gitlab } from '@gitbeaker/rest';
import { eventually } from '@app/testing';
import { cloneUrl, GitClient } from './support/git-client';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';
import { CI_MAINTENANCE, DropStuckJobsUseCase, ExpireArtifactsUseCase, PipelineProcessingLine } from '@app/ci';
import { JobScheduleKeeper } from '@app/queue';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';

const CONFIG = `
workflow:
  rules:
    - if: $CI_PIPELINE_SOURCE == "api"
stages: [build, test, deploy]
build:
  stage: build
  script: [make]
  artifacts:
    paths: [dist/]
    reports:
      junit: junit.xml
flaky:
  stage: build
  script: [flaky]
  allow_failure: true
unit:
  stage: test
  script: [test]
  coverage: '/Coverage: \\d+\\.\\d+%/'
  artifacts:
    reports:
      junit: unit.xml
deploy:
  stage: deploy
  script: [deploy]
  when: manual
`;

const JUNIT = `<?xml version="1.0"?>
<testsuites>
  <testsuite name="a">
    <testcase classname="A" name="one" time="0.5"/>
    <testcase classname="A" name="two" time="1.25"><failure message="expected 1">at a.ts:3</failure></testcase>
    <testcase classname="A" name="three"><skipped/></testcase>
  </testsuite>
</testsuites>`;

/** A protocol-level runner: what gitlab-runner sends and reads. */
class TestRunner {
  constructor(
    private readonly baseUrl: string,
    readonly token: string,
  ) {}

  async take(): Promise<{ id: number; token: string; job_info: { name: string } }> {
    const answer = await api(this.baseUrl, 'POST', '/api/v4/jobs/request', { body: { token: this.token, info: { name: 'gitlab-runner', version: '17.5.0' } } });
    if (answer.status !== 201) throw new Error(`no job: ${answer.status}`);
    return answer.body;
  }

  update(jobId: number, jobToken: string, state: string, extra: Record<string, unknown> = {}) {
    return api(this.baseUrl, 'PUT', `/api/v4/jobs/${jobId}`, { body: { token: jobToken, state, ...extra } });
  }

  async trace(jobId: number, jobToken: string, offset: number, chunk: string): Promise<number> {
    const bytes = Buffer.from(chunk);
    const response = await fetch(`${this.baseUrl}/api/v4/jobs/${jobId}/trace`, {
      method: 'PATCH',
      headers: { 'JOB-TOKEN': jobToken, 'Content-Type': 'text/plain', 'Content-Range': `${offset}-${offset + bytes.length - 1}` },
      body: bytes,
    });
    return response.status;
  }

  async upload(jobId: number, jobToken: string, content: Buffer, query: string, filename: string): Promise<number> {
    const form = new FormData();
    form.append('file', new Blob([content]), filename);
    const response = await fetch(`${this.baseUrl}/api/v4/jobs/${jobId}/artifacts?${query}`, { method: 'POST', headers: { 'JOB-TOKEN': jobToken }, body: form });
    return response.status;
  }
}

/** The job and pipeline endpoints of document 3 over HTTP, with jobs run by a protocol-level runner. */
describe('CI jobs and pipeline actions', () => {
  let gw: TestGateway;
  let git: GitClient;
  let owner: { id: number; username: string; token: string };
  let developer: { id: number; username: string; token: string };
  let project: { id: number; path_with_namespace: string };
  let runner: TestRunner;
  let pipelineId: number;
  let work: string;
  const ids: Record<string, number> = {};

  const call = (method: string, path: string, token = owner.token, body?: unknown) =>
    api(gw.baseUrl, method, `/api/v4/projects/${project.id}${path}`, { token, body });

  beforeAll(async () => {
    gw = await startTestGateway('ci-jobs', { CI_LONG_POLL_SECONDS: '1' });
    git = new GitClient();
    owner = await createUserWithToken(gw, 'jobowner');
    developer = await createUserWithToken(gw, 'jobdev');
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: owner.token, body: { name: 'Jobs', initialize_with_readme: true } });
    if (created.status !== 201) throw new Error(created.text);
    project = created.body;
    await addProjectMember(gw, project.id, developer.id, 30);
    work = git.dir('jobs');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, project.path_with_namespace, owner), work]);
    writeFileSync(join(work, '.gitlab-ci.yml'), CONFIG);
    await git.ok(['add', '.gitlab-ci.yml'], { cwd: work });
    await git.ok(['commit', '-q', '-m', 'CI'], { cwd: work });
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/main'], { cwd: work });
    const registered = await api(gw.baseUrl, 'POST', '/api/v4/user/runners', {
      token: owner.token,
      body: { runner_type: 'project_type', project_id: project.id },
    });
    runner = new TestRunner(gw.baseUrl, registered.body.token);
  }, 60_000);
  afterAll(async () => {
    git?.cleanup();
    await gw?.close();
  });

  it('runs a pipeline and lists, reads and filters its jobs', async () => {
    const created = await call('POST', '/pipeline', owner.token, { ref: 'main', variables: [{ key: 'SECRET_TOKEN', value: 's3cr3t-value' }] });
    expect(created.status).toBe(201);
    pipelineId = created.body.id;
    // Pipeline variables are kept encrypted, and given back by the variables endpoint only.
    const stored = await gw.dataSource.query('SELECT value, encrypted_value FROM ci_pipeline_variables WHERE pipeline_id = $1', [pipelineId]);
    expect(stored).toEqual([{ value: null, encrypted_value: expect.not.stringContaining('s3cr3t') }]);
    expect((await call('GET', `/pipelines/${pipelineId}/variables`)).body).toEqual([{ key: 'SECRET_TOKEN', variable_type: 'env_var', value: 's3cr3t-value' }]);

    const build = await runner.take();
    expect(build.job_info.name).toBe('build');
    expect((build as unknown as { variables: { key: string; value: string }[] }).variables).toContainEqual(
      expect.objectContaining({ key: 'SECRET_TOKEN', value: 's3cr3t-value' }),
    );
    ids.build = build.id;
    expect(await runner.trace(build.id, build.token, 0, 'Running\n$ make\n')).toBe(202);
    expect(await runner.upload(build.id, build.token, Buffer.alloc(1000, 1), 'artifact_type=archive&artifact_format=zip', 'artifacts.zip')).toBe(201);
    expect(await runner.upload(build.id, build.token, gzipSync(JUNIT), 'artifact_type=junit&artifact_format=gzip', 'junit.xml.gz')).toBe(201);
    expect((await runner.update(build.id, build.token, 'success', { exit_code: 0 })).status).toBe(200);
    const flaky = await runner.take();
    ids.flaky = flaky.id;
    expect((await runner.update(flaky.id, flaky.token, 'failed', { failure_reason: 'script_failure', exit_code: 1 })).status).toBe(200);

    const unit = await runner.take();
    ids.unit = unit.id;
    expect(await runner.trace(unit.id, unit.token, 0, 'Coverage: 10.00%\nCoverage: \x1b[1m87.50%\x1b[0m total\n')).toBe(202);
    // A malformed report: its suite shows the error, the others are read.
    expect(
      await runner.upload(unit.id, unit.token, gzipSync('<testsuite><testcase name="x">'), 'artifact_type=junit&artifact_format=gzip', 'unit.xml.gz'),
    ).toBe(201);
    expect((await runner.update(unit.id, unit.token, 'success', { exit_code: 0 })).status).toBe(200);

    const all = await call('GET', '/jobs');
    expect(all.status).toBe(200);
    expect(all.body.map((job: { name: string }) => job.name)).toEqual(['deploy', 'unit', 'flaky', 'build']);
    const got = await call('GET', `/jobs/${ids.build}`);
    expect(got.body).toMatchObject({
      id: ids.build,
      name: 'build',
      stage: 'build',
      status: 'success',
      ref: 'main',
      tag: false,
      allow_failure: false,
      coverage: null,
      started_at: expect.any(String),
      finished_at: expect.any(String),
      duration: expect.any(Number),
      queued_duration: expect.any(Number),
      user: { id: owner.id, username: 'jobowner' },
      commit: {
        id: expect.stringMatching(/^[0-9a-f]{40}$/),
        short_id: expect.any(String),
        title: 'CI',
        message: expect.stringContaining('CI'),
        author_name: expect.any(String),
        author_email: expect.any(String),
        created_at: expect.any(String),
      },
      pipeline: { id: pipelineId, project_id: project.id, ref: 'main', sha: expect.any(String), status: 'success' },
      artifacts_file: { filename: 'artifacts.zip', size: 1000 },
      artifacts: [
        { file_type: 'archive', size: 1000, filename: 'artifacts.zip', file_format: 'zip' },
        { file_type: 'junit', size: expect.any(Number), filename: 'junit.xml.gz', file_format: 'gzip' },
      ],
      runner: { id: expect.any(Number), runner_type: 'project_type', is_shared: false },
      artifacts_expire_at: expect.any(String),
      tag_list: [],
      web_url: `${gw.baseUrl}/${project.path_with_namespace}/-/jobs/${ids.build}`,
    });
    expect(got.body).not.toHaveProperty('failure_reason');
    expect((await call('GET', `/jobs/${ids.flaky}`)).body).toMatchObject({ status: 'failed', failure_reason: 'script_failure', allow_failure: true });
    expect((await call('GET', `/jobs/${ids.unit}`)).body.coverage).toBe(87.5);
    expect((await call('GET', `/pipelines/${pipelineId}`)).body.coverage).toBe('87.50');

    expect((await call('GET', '/jobs?scope=failed')).body.map((job: { id: number }) => job.id)).toEqual([ids.flaky]);
    expect((await call('GET', '/jobs?scope[]=success&scope[]=manual')).body.map((job: { name: string }) => job.name)).toEqual(['deploy', 'unit', 'build']);
    expect((await call('GET', '/jobs?scope=bogus')).status).toBe(400);
    expect((await call('GET', '/jobs/999999')).status).toBe(404);
    // Keyset pagination on the id.
    const page = await call('GET', '/jobs?pagination=keyset&per_page=2&order_by=id&sort=desc');
    expect(page.body.map((job: { name: string }) => job.name)).toEqual(['deploy', 'unit']);
    expect(page.headers.get('link')).toContain('rel="next"');

    const trace = await fetch(`${gw.baseUrl}/api/v4/projects/${project.id}/jobs/${ids.build}/trace`, { headers: { 'PRIVATE-TOKEN': owner.token } });
    expect(trace.status).toBe(200);
    expect(trace.headers.get('content-type')).toContain('text/plain');
    expect(await trace.text()).toBe('Running\n$ make\n');
    expect((await call('GET', `/jobs/${ids.flaky}/trace`)).status).toBe(404);
    expect((await call('GET', '/jobs/999999/trace')).status).toBe(404);

    const client = new Gitlab({ host: gw.baseUrl, token: owner.token, rateLimits: {} });
    const viaClient = await client.Jobs.all(project.id, { pipelineId, scope: ['success'] } as never);
    expect((viaClient as unknown as { name: string }[]).map((job) => job.name)).toEqual(['unit', 'build']);
  }, 120_000);

  it('gives the test report and its summary from the junit artifacts', async () => {
    const report = await call('GET', `/pipelines/${pipelineId}/test_report`);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ total_time: 1.75, total_count: 3, success_count: 1, failed_count: 1, skipped_count: 1, error_count: 0 });
    expect(report.body.test_suites).toEqual([
      {
        name: 'build',
        total_time: 1.75,
        total_count: 3,
        success_count: 1,
        failed_count: 1,
        skipped_count: 1,
        error_count: 0,
        suite_error: null,
        test_cases: [
          {
            status: 'success',
            name: 'one',
            classname: 'A',
            file: null,
            execution_time: 0.5,
            system_output: null,
            stack_trace: null,
            attachment_url: null,
            recent_failures: null,
          },
          {
            status: 'failed',
            name: 'two',
            classname: 'A',
            file: null,
            execution_time: 1.25,
            system_output: 'expected 1',
            stack_trace: 'at a.ts:3',
            attachment_url: null,
            recent_failures: null,
          },
          {
            status: 'skipped',
            name: 'three',
            classname: 'A',
            file: null,
            execution_time: 0,
            system_output: null,
            stack_trace: null,
            attachment_url: null,
            recent_failures: null,
          },
        ],
      },
      expect.objectContaining({ name: 'unit', total_count: 0, suite_error: expect.stringMatching(/^JUnit XML parsing failed/), test_cases: [] }),
    ]);
    const summary = await call('GET', `/pipelines/${pipelineId}/test_report_summary`);
    expect(summary.body).toEqual({
      total: { time: 1.75, count: 3, success: 1, failed: 1, skipped: 1, error: 0, suite_error: expect.stringMatching(/^JUnit XML parsing failed/) },
      test_suites: [
        {
          name: 'build',
          total_time: 1.75,
          total_count: 3,
          success_count: 1,
          failed_count: 1,
          skipped_count: 1,
          error_count: 0,
          build_ids: [ids.build],
          suite_error: null,
        },
        {
          name: 'unit',
          total_time: 0,
          total_count: 0,
          success_count: 0,
          failed_count: 0,
          skipped_count: 0,
          error_count: 0,
          build_ids: [ids.unit],
          suite_error: expect.any(String),
        },
      ],
    });
  }, 60_000);

  it('plays a manual job, cancels it, retries it; refuses what the state does not allow', async () => {
    expect((await call('GET', `/pipelines/${pipelineId}`)).body.status).toBe('success');
    const deployId = (await call('GET', '/jobs?scope=manual')).body[0].id;
    const reporter = await createUserWithToken(gw, 'jobreporter');
    await addProjectMember(gw, project.id, reporter.id, 20);
    expect((await call('POST', `/jobs/${deployId}/play`, reporter.token)).status).toBe(403);
    const played = await call('POST', `/jobs/${deployId}/play`, developer.token);
    expect(played).toMatchObject({ status: 200, body: { id: deployId, status: 'pending', user: { username: 'jobdev' } } });
    expect(await call('POST', `/jobs/${deployId}/play`, developer.token)).toMatchObject({ status: 400, body: { message: '400 Bad request - Unplayable Job' } });
    expect((await call('POST', `/jobs/${ids.build}/play`)).status).toBe(400);

    const running = await runner.take();
    expect(running.id).toBe(deployId);
    const canceled = await call('POST', `/jobs/${deployId}/cancel`, developer.token);
    expect(canceled).toMatchObject({ status: 201, body: { id: deployId, status: 'canceled' } });
    // The runner learns it at its next update.
    expect((await runner.update(deployId, running.token, 'running')).status).toBe(403);
    // Canceling a finished job answers it as it is.
    expect((await call('POST', `/jobs/${ids.build}/cancel`)).body).toMatchObject({ status: 'success' });

    const retried = await call('POST', `/jobs/${deployId}/retry`, developer.token);
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ name: 'deploy', status: 'pending', started_at: null, finished_at: null, duration: null });
    expect(retried.body.id).not.toBe(deployId);
    expect(await call('POST', `/jobs/${deployId}/retry`)).toMatchObject({ status: 403, body: { message: '403 Forbidden - Job is not retryable' } });
    expect((await call('POST', `/jobs/${retried.body.id}/retry`)).status).toBe(403);

    const latest = await call('GET', `/pipelines/${pipelineId}/jobs`);
    expect(latest.body.map((job: { id: number }) => job.id)).toEqual([retried.body.id, ids.unit, ids.flaky, ids.build]);
    const withRetried = await call('GET', `/pipelines/${pipelineId}/jobs?include_retried=true&scope=canceled`);
    expect(withRetried.body.map((job: { id: number }) => job.id)).toEqual([deployId]);
    expect((await call('GET', `/pipelines/${pipelineId}/bridges`)).body).toEqual([]);
    expect((await call('GET', `/pipelines/${pipelineId}`)).body.status).toBe('running');
  }, 60_000);

  it('retries and cancels a pipeline', async () => {
    const retried = await call('POST', `/pipelines/${pipelineId}/retry`, developer.token);
    expect(retried.status).toBe(201);
    const jobs = (await call('GET', `/pipelines/${pipelineId}/jobs`)).body as { name: string; status: string; id: number }[];
    const flaky = jobs.find((job) => job.name === 'flaky')!;
    expect(flaky.id).not.toBe(ids.flaky);
    expect(flaky.status).toBe('pending');
    // A job that may not fail: canceling it cancels the pipeline (allowed failures would not).
    const unit = await call('POST', `/jobs/${ids.unit}/retry`, developer.token);
    expect(unit.body.status).toBe('pending');

    const canceled = await call('POST', `/pipelines/${pipelineId}/cancel`, developer.token);
    expect(canceled).toMatchObject({ status: 201, body: { id: pipelineId, status: 'canceled' } });
    const after = (await call('GET', `/pipelines/${pipelineId}/jobs`)).body as { name: string; status: string }[];
    expect(after.filter((job) => job.status === 'pending')).toEqual([]);
    expect((await call('POST', `/pipelines/${pipelineId}/cancel`, (await createUserWithToken(gw, 'stranger-jobs')).token)).status).toBe(404);
  }, 60_000);

  it('erases a job: artifacts and log gone, who erased it recorded', async () => {
    expect((await call('POST', `/jobs/${ids.flaky}/erase`)).status).toBe(403);
    const erased = await call('POST', `/jobs/${ids.build}/erase`);
    expect(erased.status).toBe(201);
    expect(erased.body).toMatchObject({ id: ids.build, erased_at: expect.any(String), artifacts: [], artifacts_expire_at: null });
    expect(erased.body).not.toHaveProperty('artifacts_file');
    expect((await call('GET', `/jobs/${ids.build}/trace`)).status).toBe(404);
    const row = await gw.dataSource.query('SELECT erased_by_id FROM ci_jobs WHERE id = $1', [ids.build]);
    expect(row[0].erased_by_id).toBe(owner.id);
    expect(await gw.dataSource.query('SELECT id FROM ci_job_artifacts WHERE job_id = $1', [ids.build])).toEqual([]);
    expect((await call('POST', `/jobs/${ids.build}/erase`)).body).toMatchObject({ message: '403 Forbidden - Job is not erasable!' });
  }, 60_000);

  it('deletes a pipeline (owners only) with its jobs, logs and artifacts', async () => {
    const keys = (await gw.dataSource.query(
      `SELECT storage_key FROM ci_job_traces t JOIN ci_jobs j ON j.id = t.job_id WHERE j.pipeline_id = $1 UNION ALL SELECT storage_key FROM ci_job_artifacts a JOIN ci_jobs j ON j.id = a.job_id WHERE j.pipeline_id = $1`,
      [pipelineId],
    )) as { storage_key: string }[];
    expect(keys.length).toBeGreaterThan(0);
    expect((await call('DELETE', `/pipelines/${pipelineId}`, developer.token)).status).toBe(403);
    const stale = await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${project.id}/pipelines/${pipelineId}`, {
      token: owner.token,
      headers: { 'If-Unmodified-Since': new Date(Date.now() - 3_600_000).toUTCString() },
    });
    expect(stale.status).toBe(412);
    expect((await call('DELETE', `/pipelines/${pipelineId}`)).status).toBe(204);
    expect((await call('GET', `/pipelines/${pipelineId}`)).status).toBe(404);
    expect((await call('GET', `/jobs/${ids.unit}`)).status).toBe(404);
    expect(await gw.dataSource.query('SELECT id FROM ci_jobs WHERE pipeline_id = $1', [pipelineId])).toEqual([]);
    const { existsSync } = await import('node:fs');
    for (const { storage_key } of keys) expect(existsSync(join(gw.config.dataDir, 'ci', storage_key))).toBe(false);
    expect((await call('DELETE', `/pipelines/${pipelineId}`)).status).toBe(404);
  }, 60_000);
  it('fails jobs whose runner stopped reporting and pending jobs nobody took, and expires artifacts, from PostgreSQL', async () => {
    const created = await call('POST', '/pipeline', owner.token, { ref: 'main' });
    const stuckPipeline = created.body.id;
    const silent = await runner.take();
    expect(await runner.upload(silent.id, silent.token, Buffer.alloc(10, 2), 'artifact_type=archive&artifact_format=zip', 'a.zip')).toBe(201);
    const drop = gw.app.get(DropStuckJobsUseCase, { strict: false });
    // Recent contact: nothing to do.
    expect(await drop.execute(100)).toEqual({ dropped: 0 });
    await gw.dataSource.query(`UPDATE ci_jobs SET last_contact_at = now() - interval '2 hours', timeout = 3600 WHERE id = $1`, [silent.id]);
    const waiting = (await gw.dataSource.query(`SELECT id FROM ci_jobs WHERE pipeline_id = $1 AND status = 'pending'`, [stuckPipeline])) as { id: number }[];
    expect(waiting).toHaveLength(1);
    await gw.dataSource.query(`UPDATE ci_jobs SET queued_at = now() - interval '25 hours' WHERE id = $1`, [waiting[0].id]);
    expect(await drop.execute(100)).toEqual({ dropped: 2 });
    expect((await call('GET', `/jobs/${silent.id}`)).body).toMatchObject({ status: 'failed', failure_reason: 'stuck_or_timeout_failure' });
    expect((await call('GET', `/jobs/${waiting[0].id}`)).body).toMatchObject({ status: 'failed', failure_reason: 'stuck_or_timeout_failure' });
    expect((await runner.update(silent.id, silent.token, 'success')).status).toBe(403);

    const expire = gw.app.get(ExpireArtifactsUseCase, { strict: false });
    const [artifact] = (await gw.dataSource.query('SELECT storage_key FROM ci_job_artifacts WHERE job_id = $1', [silent.id])) as { storage_key: string }[];
    expect(await expire.execute(100)).toEqual({ removed: 0 });
    await gw.dataSource.query(`UPDATE ci_job_artifacts SET expire_at = now() - interval '1 minute' WHERE job_id = $1`, [silent.id]);
    expect(await expire.execute(100)).toEqual({ removed: 1 });
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(gw.config.dataDir, 'ci', artifact.storage_key))).toBe(false);
    expect((await call('GET', `/jobs/${silent.id}`)).body.artifacts).toEqual([]);

    // Redis lost the schedulers: they are put back (and only the missing ones).
    const queue = gw.app.get<Queue>(getQueueToken(CI_MAINTENANCE.name), { strict: false });
    expect(await queue.getJobScheduler(CI_MAINTENANCE.jobs.DROP_STUCK_JOBS)).toBeDefined();
    await queue.removeJobScheduler(CI_MAINTENANCE.jobs.DROP_STUCK_JOBS);
    // (By this call, or by the keeper's own periodic check if it ran meanwhile.)
    const restored = await gw.app.get(JobScheduleKeeper, { strict: false }).restoreMissing();
    expect(restored.filter((name) => name !== `${CI_MAINTENANCE.name}/${CI_MAINTENANCE.jobs.DROP_STUCK_JOBS}`)).toEqual([]);
    expect(await queue.getJobScheduler(CI_MAINTENANCE.jobs.DROP_STUCK_JOBS)).toBeDefined();
  }, 60_000);
  it('moves a pipeline on from the ends reported at once by its jobs, and from PostgreSQL when its processing was lost', async () => {
    const created = await call('POST', '/pipeline', owner.token, { ref: 'main' });
    const id = created.body.id;
    const build = await runner.take();
    const flaky = await runner.take();
    expect([build.job_info.name, flaky.job_info.name]).toEqual(['build', 'flaky']);
    // Both ends at once: one processing or two, the pipeline sees both and moves to the test stage.
    const [a, b] = await Promise.all([
      runner.update(build.id, build.token, 'success'),
      runner.update(flaky.id, flaky.token, 'failed', { failure_reason: 'script_failure' }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    // Answered once the pipeline moved on: the next stage's job is already pending.
    const pending = (await gw.dataSource.query(`SELECT name FROM ci_jobs WHERE pipeline_id = $1 AND status = 'pending'`, [id])) as { name: string }[];
    expect(pending.map((row) => row.name)).toEqual(['unit']);
    expect(await gw.dataSource.query('SELECT count(*)::int AS n FROM ci_jobs WHERE pipeline_id = $1 AND processed = false', [id])).toEqual([{ n: 0 }]);

    // The process ended between the job's end and its pipeline's processing: the end is recorded, unprocessed.
    const unit = await runner.take();
    await gw.dataSource.query(`UPDATE ci_jobs SET status = 'success', finished_at = now(), processed = false WHERE id = $1`, [unit.id]);
    const line = gw.app.get(PipelineProcessingLine, { strict: false });
    // Within its grace the end is left to the processing that is on its way.
    expect(await line.sweep(100)).toEqual({ processed: 0 });
    await gw.dataSource.query(`UPDATE ci_jobs SET finished_at = now() - interval '1 minute' WHERE id = $1`, [unit.id]);
    expect(await line.sweep(100)).toEqual({ processed: 1 });
    expect((await call('GET', `/jobs/${unit.id}`)).body).toMatchObject({ name: 'unit', status: 'success' });
    expect(await gw.dataSource.query(`SELECT name, status FROM ci_jobs WHERE pipeline_id = $1 AND stage = 'deploy'`, [id])).toEqual([
      { name: 'deploy', status: 'manual' },
    ]);
    expect(await line.sweep(100)).toEqual({ processed: 0 });
  }, 60_000);

  it('starts a child pipeline from a trigger: include bridge and follows it with strategy: depend', async () => {
    const parentConfig = `
workflow:
  rules:
    - if: $CI_PIPELINE_SOURCE == "api"
stages: [build, trigger]
prep:
  stage: build
  script: [prep]
kids:
  stage: trigger
  variables:
    FROM_PARENT: "yes"
  trigger:
    include: ci/child.yml
    strategy: depend
`;
    const childConfig = `
child-test:
  script: [test]
  artifacts:
    reports:
      junit: child.xml
`;
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(work, 'ci'), { recursive: true });
    writeFileSync(join(work, '.gitlab-ci.yml'), parentConfig);
    writeFileSync(join(work, 'ci/child.yml'), childConfig);
    await git.ok(['add', '.gitlab-ci.yml', 'ci/child.yml'], { cwd: work });
    await git.ok(['commit', '-q', '-m', 'Child pipeline'], { cwd: work });
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/kids'], { cwd: work });

    const parent = (await call('POST', '/pipeline', owner.token, { ref: 'kids' })).body;
    const prep = await runner.take();
    expect(prep.job_info.name).toBe('prep');
    expect((await runner.update(prep.id, prep.token, 'success')).status).toBe(200);

    // The bridge became pending: the child pipeline is created through the event stream.
    const childJob = await eventually(
      async () => {
        const answer = await api(gw.baseUrl, 'POST', '/api/v4/jobs/request', { body: { token: runner.token } });
        return answer.status === 201 ? answer.body : undefined;
      },
      'the child job',
      40_000,
    );
    expect(childJob.job_info.name).toBe('child-test');
    const vars = Object.fromEntries(childJob.variables.map((v: { key: string; value: string }) => [v.key, v.value]));
    expect(vars).toMatchObject({ CI_PIPELINE_SOURCE: 'parent_pipeline', FROM_PARENT: 'yes' });
    const bridges = await call('GET', `/pipelines/${parent.id}/bridges`);
    expect(bridges.body).toEqual([
      expect.objectContaining({
        name: 'kids',
        stage: 'trigger',
        status: 'running',
        pipeline: expect.objectContaining({ id: parent.id }),
        downstream_pipeline: expect.objectContaining({
          id: Number(vars.CI_PIPELINE_ID),
          status: 'running',
          ref: 'kids',
          web_url: expect.stringContaining('/-/pipelines/'),
        }),
      }),
    ]);
    expect(bridges.body[0]).not.toHaveProperty('runner');
    expect(
      await runner.upload(
        childJob.id,
        childJob.token,
        Buffer.from('<testsuite><testcase name="c" classname="C" time="2"/></testsuite>'),
        'artifact_type=junit&artifact_format=raw',
        'child.xml',
      ),
    ).toBe(201);
    expect((await runner.update(childJob.id, childJob.token, 'success')).status).toBe(200);

    const childId = Number(vars.CI_PIPELINE_ID);
    expect((await call('GET', `/pipelines/${childId}`)).body).toMatchObject({ id: childId, source: 'parent_pipeline', status: 'success' });
    expect((await call('GET', `/pipelines/${childId}/jobs`)).body.map((job: { name: string }) => job.name)).toEqual(['child-test']);
    // The bridge follows the child, the parent follows the bridge.
    await eventually(
      async () => ((await call('GET', `/pipelines/${parent.id}`)).body.status === 'success' ? true : undefined),
      'the parent pipeline to succeed',
      40_000,
    );
    expect((await call('GET', `/pipelines/${parent.id}/bridges`)).body[0]).toMatchObject({
      status: 'success',
      downstream_pipeline: { id: childId, status: 'success' },
    });
    expect((await call('GET', '/pipelines?per_page=100')).body.map((p: { id: number }) => p.id)).not.toContain(childId);
    const summary = (await call('GET', `/pipelines/${parent.id}/test_report_summary`)).body;
    expect(summary.total).toMatchObject({ count: 1, success: 1, time: 2 });
    expect(summary.test_suites).toEqual([expect.objectContaining({ name: 'child-test', build_ids: [childJob.id] })]);
  }, 120_000);

  it('cancels the child pipelines with their parent (force accepted); their runners are told to stop', async () => {
    const parent = (await call('POST', '/pipeline', owner.token, { ref: 'kids' })).body;
    const prep = await runner.take();
    expect(prep.job_info.name).toBe('prep');
    expect((await runner.update(prep.id, prep.token, 'success')).status).toBe(200);
    const childJob = await eventually(
      async () => {
        const answer = await api(gw.baseUrl, 'POST', '/api/v4/jobs/request', { body: { token: runner.token } });
        return answer.status === 201 ? answer.body : undefined;
      },
      'the child job',
      40_000,
    );
    const childId = Number(childJob.variables.find((v: { key: string }) => v.key === 'CI_PIPELINE_ID').value);
    expect((await call('GET', `/pipelines/${childId}`)).body.status).toBe('running');

    expect((await call('POST', `/pipelines/${parent.id}/cancel?force=true`)).status).toBe(201);
    expect((await call('GET', `/pipelines/${childId}`)).body.status).toBe('canceled');
    expect((await call('GET', `/pipelines/${childId}/jobs`)).body.map((job: { name: string; status: string }) => [job.name, job.status])).toEqual([
      ['child-test', 'canceled'],
    ]);
    expect((await call('GET', `/pipelines/${parent.id}/bridges`)).body[0]).toMatchObject({ status: 'canceled' });
    expect((await call('GET', `/pipelines/${parent.id}`)).body.status).toBe('canceled');
    expect((await runner.update(childJob.id, childJob.token, 'success')).status).toBe(403);
  }, 120_000);
});
