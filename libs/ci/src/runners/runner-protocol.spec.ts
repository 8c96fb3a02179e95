import type { CiJobEntity } from '../entities/ci-job.entity';
import type { CiRunnerEntity } from '../entities/ci-runner.entity';
import { parseContentRange } from './append-trace.use-case';
import { runnerStatus } from '../entities/runner-tokens';
import { buildJobPayload, effectiveTimeout } from '../jobs/job-payload';
import { jobTokenOf } from '../jobs/job-token-credentials';
import { shouldAutoRetry } from '../jobs/job-retry-policy';

describe(parseContentRange.name, () => {
  it.each<[string | undefined, { start: number; end: number } | null]>([
    ['0-99', { start: 0, end: 99 }],
    ['100-100', { start: 100, end: 100 }],
    ['bytes 5-9/10', { start: 5, end: 9 }],
    ['5-4', { start: 5, end: 4 }],
    ['9-3', null],
    ['abc', null],
    ['', null],
    [undefined, null],
  ])('%j', (header, expected) => {
    expect(parseContentRange(header)).toEqual(expected);
  });
});

describe(shouldAutoRetry.name, () => {
  const retry = (max: number, when: string[] = ['always'], exitCodes: number[] = []) => ({ max, when, exitCodes });
  it('retries while attempts are left, for the listed reasons', () => {
    expect(shouldAutoRetry(retry(2), 0, 'script_failure', 1)).toBe(true);
    expect(shouldAutoRetry(retry(2), 2, 'script_failure', 1)).toBe(false);
    expect(shouldAutoRetry(retry(1, ['runner_system_failure']), 0, 'script_failure', 1)).toBe(false);
    expect(shouldAutoRetry(retry(1, ['runner_system_failure']), 0, 'runner_system_failure', null)).toBe(true);
    expect(shouldAutoRetry(undefined, 0, 'script_failure', 1)).toBe(false);
  });
  it('with exit codes alone, the exit code decides', () => {
    expect(shouldAutoRetry(retry(1, ['always'], [137]), 0, 'script_failure', 137)).toBe(true);
    expect(shouldAutoRetry(retry(1, ['always'], [137]), 0, 'script_failure', 1)).toBe(false);
    expect(shouldAutoRetry(retry(1, ['stuck_or_timeout_failure'], [137]), 0, 'stuck_or_timeout_failure', null)).toBe(true);
  });
});

describe(runnerStatus.name, () => {
  const now = new Date('2026-01-10T00:00:00Z');
  const ago = (hours: number) => new Date(now.getTime() - hours * 3600_000);
  it('is online within two hours, offline after, stale after a week, never_contacted before any contact', () => {
    expect(runnerStatus({ contactedAt: ago(1), createdAt: ago(500) }, now)).toBe('online');
    expect(runnerStatus({ contactedAt: ago(3), createdAt: ago(500) }, now)).toBe('offline');
    expect(runnerStatus({ contactedAt: ago(24 * 8), createdAt: ago(500) }, now)).toBe('stale');
    expect(runnerStatus({ contactedAt: null, createdAt: ago(1) }, now)).toBe('never_contacted');
    expect(runnerStatus({ contactedAt: null, createdAt: ago(24 * 8) }, now)).toBe('stale');
  });
});

describe(jobTokenOf.name, () => {
  it('reads the JOB-TOKEN header, the job_token parameter, a Bearer header or the body token', () => {
    expect(jobTokenOf({ headers: { 'job-token': 'a' } })).toBe('a');
    expect(jobTokenOf({ headers: {}, query: { job_token: 'b' } })).toBe('b');
    expect(jobTokenOf({ headers: { authorization: 'Bearer c' } })).toBe('c');
    expect(jobTokenOf({ headers: {} }, { bodyToken: 'd' })).toBe('d');
    expect(jobTokenOf({ headers: {} }, { bodyToken: '' })).toBeNull();
    expect(jobTokenOf({ headers: { 'job-token': 'a' } }, { bodyToken: 'd' })).toBe('a');
    expect(jobTokenOf({ headers: { authorization: 'Bearer c' } }, { bodyToken: 'd' })).toBe('d');
    expect(jobTokenOf({ headers: { authorization: 'Basic eDp5' } })).toBeNull();
  });
});

describe(buildJobPayload.name, () => {
  const job = {
    id: 11,
    projectId: 3,
    pipelineId: 7,
    name: 'rspec 1/2',
    stage: 'test',
    ref: 'v1.0',
    sha: 'f'.repeat(40),
    tag: true,
    timeout: 7200,
    startedAt: new Date('2026-01-01T00:00:00Z'),
    yamlVariables: { LEVEL: 'job' },
    options: {
      script: ['rspec'],
      beforeScript: ['bundle'],
      image: { name: 'ruby:3' },
      services: [{ name: 'postgres:15', alias: 'db' }],
      artifacts: { paths: [], exclude: [], untracked: false, when: 'on_success', expireIn: null, reports: { sast: ['gl-sast-report.json'] } },
    },
  } as unknown as CiJobEntity;
  const runner = { id: 2, description: 'r', tagList: ['docker'], maximumTimeout: 3600 } as unknown as CiRunnerEntity;
  const payload = buildJobPayload({
    job,
    token: 'glcbt-x',
    runner,
    externalUrl: 'https://ci.example.com',
    projectFullPath: 'acme/app',
    projectName: 'App',
    pipeline: { id: 7, beforeSha: '0'.repeat(40), predefined: { CI_PIPELINE_ID: '7', LEVEL: 'predefined' } },
    pipelineVariables: [
      { key: 'LEVEL', value: 'pipeline', variableType: 'env_var' },
      { key: 'CONF', value: 'x', variableType: 'file' },
    ],
    dependencies: [{ id: 9, name: 'build', artifactsFile: { filename: 'artifacts.zip', size: 10 } }],
    queuedSeconds: 2,
    queueSize: 0,
    gitDepth: 20,
  }) as Record<string, any>;

  it('caps the timeout by the runner maximum', () => {
    expect(effectiveTimeout(job, runner)).toBe(3600);
    expect(payload.runner_info.timeout).toBe(3600);
  });

  it('fetches tags by their own refspec and puts the job token in the repository URL', () => {
    expect(payload.git_info).toMatchObject({
      ref: 'v1.0',
      ref_type: 'tag',
      refspecs: ['+refs/tags/v1.0:refs/tags/v1.0'],
      repo_url: 'https://gitlab-ci-token:glcbt-x@ci.example.com/acme/app.git',
    });
  });

  it('orders variables so that pipeline variables win, marks file variables and masks the token', () => {
    const levels = payload.variables.filter((v: { key: string }) => v.key === 'LEVEL').map((v: { value: string }) => v.value);
    expect(levels).toEqual(['predefined', 'job', 'pipeline']);
    expect(payload.variables.find((v: { key: string }) => v.key === 'CONF')).toMatchObject({ file: true });
    expect(payload.variables.find((v: { key: string }) => v.key === 'CI_JOB_TOKEN')).toMatchObject({ value: 'glcbt-x', masked: true, public: false });
  });

  it('lists a raw artifact per security report, dependencies with their files, services and image', () => {
    expect(payload.artifacts).toEqual([
      {
        name: 'sast',
        untracked: false,
        paths: ['gl-sast-report.json'],
        exclude: [],
        when: 'always',
        expire_in: null,
        artifact_type: 'sast',
        artifact_format: 'raw',
      },
    ]);
    expect(payload.dependencies).toEqual([{ id: 9, name: 'build', token: 'glcbt-x', artifacts_file: { filename: 'artifacts.zip', size: 10 } }]);
    expect(payload.services).toEqual([{ name: 'postgres:15', alias: 'db', entrypoint: null, command: null, ports: [], variables: [] }]);
    expect(payload.image).toMatchObject({ name: 'ruby:3' });
    expect(payload.steps).toEqual([{ name: 'script', script: ['bundle', 'rspec'], timeout: 3600, when: 'on_success', allow_failure: false }]);
  });
});
