import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { deleteRedisKeys, eventually } from '@app/testing';
import { CI_MAINTENANCE, StartScheduledJobsUseCase } from '@app/ci';
import { JobScheduleKeeper } from '@app/queue';
import { cloneUrl, GitClient } from './support/git-client';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

const CONFIG = `
workflow:
  rules:
    - if: $CI_PIPELINE_SOURCE == "api"
soon:
  script: [soon]
  when: delayed
  start_in: 1 second
later:
  script: [later]
  when: delayed
  start_in: 1 day
lost:
  script: [lost]
  rules:
    - when: delayed
      start_in: 1 hour
stopped:
  script: [stopped]
  when: delayed
  start_in: 1 week
flushed:
  script: [flushed]
  when: delayed
  start_in: 1 week
`;

interface JobRow {
  id: number;
  name: string;
  status: string;
  scheduled_at: Date | null;
  created_at: Date;
}

/** Delayed jobs (`when: delayed`, `start_in`): scheduled, started when due, played at once, canceled, rebuilt after Redis loses their timers. */
describe('CI delayed jobs', () => {
  let gw: TestGateway;
  let git: GitClient;
  let owner: { id: number; username: string; token: string };
  let developer: { id: number; username: string; token: string };
  let reporter: { id: number; username: string; token: string };
  let project: { id: number; path_with_namespace: string };
  let runnerToken: string;
  let pipelineId: number;
  const jobs: Record<string, JobRow> = {};

  const call = (method: string, path: string, token = owner.token, body?: unknown) =>
    api(gw.baseUrl, method, `/api/v4/projects/${project.id}${path}`, { token, body });
  const rows = async (): Promise<JobRow[]> =>
    gw.dataSource.query('SELECT id, name, status, scheduled_at, created_at FROM ci_jobs WHERE pipeline_id = $1 ORDER BY id', [pipelineId]);
  const statusOf = async (name: string): Promise<string> => (await rows()).find((row) => row.name === name)!.status;

  beforeAll(async () => {
    gw = await startTestGateway('ci-delayed', { CI_LONG_POLL_SECONDS: '1' });
    git = new GitClient();
    owner = await createUserWithToken(gw, 'delayowner');
    developer = await createUserWithToken(gw, 'delaydev');
    reporter = await createUserWithToken(gw, 'delayreporter');
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: owner.token, body: { name: 'Delayed', initialize_with_readme: true } });
    if (created.status !== 201) throw new Error(created.text);
    project = created.body;
    await addProjectMember(gw, project.id, developer.id, 30);
    await addProjectMember(gw, project.id, reporter.id, 20);
    const work = git.dir('delayed');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, project.path_with_namespace, owner), work]);
    writeFileSync(join(work, '.gitlab-ci.yml'), CONFIG);
    await git.ok(['add', '.gitlab-ci.yml'], { cwd: work });
    await git.ok(['commit', '-q', '-m', 'CI'], { cwd: work });
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/main'], { cwd: work });
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

  it('schedules delayed jobs with scheduled_at = start_in after their turn, and the pipeline is scheduled', async () => {
    const created = await call('POST', '/pipeline', owner.token, { ref: 'main' });
    expect(created.status).toBe(201);
    pipelineId = created.body.id;
    expect(created.body.status).toBe('scheduled');
    for (const row of await rows()) jobs[row.name] = row;
    // `soon` may already have started: everything else waits.
    expect(['later', 'lost', 'stopped'].map((name) => jobs[name].status)).toEqual(['scheduled', 'scheduled', 'scheduled']);
    const delay = (name: string) => (jobs[name].scheduled_at!.getTime() - jobs[name].created_at.getTime()) / 1000;
    expect(delay('soon')).toBeGreaterThanOrEqual(0.9);
    expect(delay('soon')).toBeLessThan(5);
    expect(delay('lost')).toBeGreaterThanOrEqual(3599);
    expect(delay('later')).toBeGreaterThan(86_000);
    expect(delay('later')).toBeLessThan(86_500);
    expect(delay('stopped')).toBeGreaterThan(7 * 86_400 - 100);
    const listed = await call('GET', '/jobs?scope=scheduled');
    expect(listed.body.map((job: { name: string }) => job.name)).toEqual(expect.arrayContaining(['stopped', 'lost', 'later']));
    expect(listed.body.find((job: { name: string }) => job.name === 'later')).toMatchObject({ status: 'scheduled', started_at: null });
  }, 30_000);

  it('moves a due job to pending by its timer, and a runner takes it', async () => {
    await eventually(async () => ((await statusOf('soon')) === 'pending' ? true : undefined), 'soon to become pending');
    const job = await call('GET', `/jobs/${jobs.soon.id}`);
    expect(job.body).toMatchObject({ status: 'pending', user: { username: 'delayowner' } });
    const taken = await api(gw.baseUrl, 'POST', '/api/v4/jobs/request', { body: { token: runnerToken, info: { name: 'gitlab-runner', version: '17.5.0' } } });
    expect(taken).toMatchObject({ status: 201, body: { id: jobs.soon.id, job_info: { name: 'soon' } } });
    expect((await call('GET', `/pipelines/${pipelineId}`)).body.status).toBe('running');
  }, 30_000);

  it('plays a scheduled job at once (developers), and a played job is no longer playable', async () => {
    expect((await call('POST', `/jobs/${jobs.later.id}/play`, reporter.token)).status).toBe(403);
    const played = await call('POST', `/jobs/${jobs.later.id}/play`, developer.token);
    expect(played).toMatchObject({ status: 200, body: { id: jobs.later.id, status: 'pending', user: { username: 'delaydev' } } });
    expect(await call('POST', `/jobs/${jobs.later.id}/play`, developer.token)).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - Unplayable Job' },
    });
    // Its timer fires a day later and finds nothing to do.
    expect(await gw.app.get(StartScheduledJobsUseCase, { strict: false }).startIfDue(jobs.later.id)).toBe('not-scheduled');
  });

  it('cancels a scheduled job', async () => {
    const canceled = await call('POST', `/jobs/${jobs.stopped.id}/cancel`, developer.token);
    expect(canceled).toMatchObject({ status: 201, body: { id: jobs.stopped.id, status: 'canceled' } });
    expect(await statusOf('stopped')).toBe('canceled');
  });

  it('starts from PostgreSQL a due job whose timer Redis lost', async () => {
    const queue = gw.app.get<Queue>(getQueueToken(CI_MAINTENANCE.name), { strict: false });
    // Redis loses the sweep's scheduler and the job's timer.
    expect(await queue.getJobScheduler(CI_MAINTENANCE.jobs.START_DUE_SCHEDULED_JOBS)).toBeDefined();
    await queue.removeJobScheduler(CI_MAINTENANCE.jobs.START_DUE_SCHEDULED_JOBS);
    const timers = (await queue.getDelayed()).filter((job) => (job.data as { ciJobId?: number }).ciJobId === jobs.lost.id);
    expect(timers).toHaveLength(1);
    await timers[0].remove();
    // Its time comes (an hour passes, by the database's clock): the sweep starts it from
    // PostgreSQL. This call, or the sweep's own run if the keeper's periodic check has put its
    // scheduler back meanwhile: which of the two gets there first is not the test's to assert.
    await gw.dataSource.query(`UPDATE ci_jobs SET scheduled_at = now() - interval '1 second' WHERE id = $1`, [jobs.lost.id]);
    expect((await gw.app.get(StartScheduledJobsUseCase, { strict: false }).sweep(100)).timers).toBe(0);
    await eventually(async () => ((await statusOf('lost')) === 'pending' ? true : undefined), 'lost to become pending');
    // The sweep's scheduler is put back from its @OnJob declaration (by this call, or by the
    // keeper's own periodic check if it ran meanwhile), and nothing else is.
    const restored = await gw.app.get(JobScheduleKeeper, { strict: false }).restoreMissing();
    expect(restored.filter((name) => name !== `${CI_MAINTENANCE.name}/${CI_MAINTENANCE.jobs.START_DUE_SCHEDULED_JOBS}`)).toEqual([]);
    expect(await queue.getJobScheduler(CI_MAINTENANCE.jobs.START_DUE_SCHEDULED_JOBS)).toMatchObject({ every: 60_000 });
  }, 30_000);

  it('starts a due delayed job at most a minute late after Redis lost every key (its timer and the schedulers)', async () => {
    await deleteRedisKeys(gw.config.redis.url, gw.config.redis.prefix);
    const due = Date.now();
    await gw.dataSource.query(`UPDATE ci_jobs SET scheduled_at = now() WHERE id = $1`, [jobs.flushed.id]);
    const pendingAt = await eventually(
      async () => ((await statusOf('flushed')) === 'pending' ? Date.now() : undefined),
      'flushed to become pending',
      120_000,
      250,
    );
    process.stdout.write(`delayed job started ${pendingAt - due} ms after it was due, Redis emptied\n`);
    expect(pendingAt - due).toBeLessThan(60_000);
  }, 150_000);
});
