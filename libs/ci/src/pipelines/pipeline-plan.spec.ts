import { parseCiConfig } from '../config/ci-config-parser';
import type { CiConfigResult } from '../config/ci-config.types';
import { PipelineContext, PipelineInputs, planPipeline, usesExists } from './pipeline-plan';

const SHA = 'a'.repeat(40);
const NOW = new Date('2026-03-01T12:00:00Z');

const parse = (text: string): Promise<CiConfigResult> => parseCiConfig(text, async () => null);

const context = (extra: Partial<PipelineContext> = {}): PipelineContext => ({
  source: 'push',
  ref: { name: 'main', tag: false, sha: SHA },
  beforeSha: '0'.repeat(40),
  createdAt: NOW,
  protectedRef: true,
  externalUrl: 'http://127.0.0.1:3000',
  project: { id: 7, name: 'Shop', path: 'shop', fullPath: 'acme/shop', namespaceFullPath: 'acme', defaultBranch: 'main', visibility: 'private' },
  commit: { title: 'Add CI', message: 'Add CI\n', author: 'A <a@example.com>', timestamp: '2026-03-01T11:00:00Z' },
  committedAt: new Date('2026-03-01T11:00:00Z'),
  user: { id: 3, username: 'ada', name: 'Ada', email: 'ada@example.com' },
  mergeRequest: null,
  ...extra,
});

const inputs = (config: CiConfigResult, extra: Partial<PipelineInputs> = {}, commitExtra: Partial<PipelineContext> = {}): PipelineInputs => ({
  saveOnErrors: true,
  actorId: 3,
  variables: [],
  ref: { name: 'main', tag: false, sha: SHA },
  commit: { config, context: context(commitExtra), changedFiles: ['src/app.ts'], files: [] },
  ...extra,
});

describe(planPipeline.name, () => {
  it('plans a two-stage pipeline: the stages that have jobs, the jobs created, the pipeline created at the given time', async () => {
    const plan = planPipeline(
      inputs(
        await parse(
          'stages: [build, test, deploy]\nbuild: { stage: build, script: [make], tags: [linux] }\nunit: { stage: test, script: [npm test], timeout: 10m }\n',
        ),
      ),
    );
    if (plan.result !== 'create') throw new Error(JSON.stringify(plan));
    expect(plan.pipeline).toEqual({
      status: 'created',
      source: 'push',
      ref: 'main',
      sha: SHA,
      beforeSha: '0'.repeat(40),
      tag: false,
      protected: true,
      yamlErrors: null,
      failureReason: null,
      committedAt: new Date('2026-03-01T11:00:00Z'),
      createdAt: NOW,
      finishedAt: null,
    });
    expect(plan.stages).toEqual([
      { name: 'build', position: 1 },
      { name: 'test', position: 2 },
    ]);
    expect(plan.jobs.map((job) => [job.name, job.stage, job.stageIdx, job.status, job.when, job.tagList, job.timeout, job.protected, job.userId])).toEqual([
      ['build', 'build', 1, 'created', 'on_success', ['linux'], 3600, true, 3],
      ['unit', 'test', 2, 'created', 'on_success', [], 600, true, 3],
    ]);
    expect(plan.jobs[0].options).toMatchObject({ script: ['make'] });
  });

  it('leaves out the jobs that rules exclude, with the predefined variables of the pipeline', async () => {
    const config = await parse(`
always: { script: [a] }
on-main: { script: [a], rules: [{ if: '$CI_COMMIT_BRANCH == "main"' }] }
on-api: { script: [a], rules: [{ if: '$CI_PIPELINE_SOURCE == "api"' }] }
on-docs: { script: [a], rules: [{ changes: ['docs/**/*'] }] }
on-mr: { script: [a], rules: [{ if: '$CI_MERGE_REQUEST_IID' }] }
`);
    const plan = planPipeline(inputs(config));
    if (plan.result !== 'create') throw new Error(JSON.stringify(plan));
    expect(plan.jobs.map((job) => job.name)).toEqual(['always', 'on-main']);
    expect(plan.stages).toEqual([{ name: 'test', position: 2 }]);
  });

  it('plans a failed pipeline with yaml_errors for an invalid configuration that is saved, and refuses it otherwise', async () => {
    const config = await parse('build:\n  scrip: [make]\n');
    expect(config.ok).toBe(false);
    const saved = planPipeline(inputs(config));
    if (saved.result !== 'create') throw new Error(JSON.stringify(saved));
    expect(saved.pipeline).toMatchObject({
      status: 'failed',
      failureReason: 'config_error',
      finishedAt: NOW,
      yamlErrors: expect.stringContaining('jobs:build config contains unknown keys: scrip'),
    });
    expect(saved.stages).toEqual([]);
    expect(saved.jobs).toEqual([]);
    expect(planPipeline(inputs(config, { saveOnErrors: false }))).toEqual({
      result: 'refused',
      errors: ['jobs:build config contains unknown keys: scrip', 'jobs:build config should implement the script:, run:, or trigger: keyword'],
      always: false,
    });
  });

  it('refuses a missing ref, a missing configuration, refused variables (whatever saves errors), and a pipeline that workflow rules filter out', async () => {
    const config = await parse('workflow: { rules: [{ if: \'$CI_PIPELINE_SOURCE == "api"\' }] }\nbuild: { script: [make] }\n');
    expect(planPipeline(inputs(config, { ref: null, commit: null }))).toEqual({ result: 'refused', errors: ['Reference not found'], always: false });
    expect(planPipeline(inputs(config, { commit: null }))).toEqual({ result: 'refused', errors: ['Missing CI config file'], always: false });
    expect(planPipeline(inputs(config, { variables: [{ key: 'A-B', value: 'x' }] }))).toEqual({
      result: 'refused',
      errors: ['Variable key "A-B" can contain only letters, digits and \'_\'.'],
      always: true,
    });
    expect(
      planPipeline(
        inputs(config, {
          variables: [
            { key: 'A', value: 'x' },
            { key: 'A', value: 'y' },
          ],
        }),
      ),
    ).toMatchObject({ errors: ['Duplicate variable name: A'], always: true });
    expect(planPipeline(inputs(config))).toEqual({ result: 'refused', errors: ['Pipeline filtered out by workflow rules.'], always: false });
    const api = planPipeline(inputs(config, {}, { source: 'api' }));
    expect(api).toMatchObject({ result: 'create', pipeline: { source: 'api', status: 'created' } });
  });

  it('keeps needs (the DAG) and refuses a need that rules left out', async () => {
    const config = await parse(`
stages: [build, test]
compile: { stage: build, script: [make] }
lint: { stage: build, script: [lint], rules: [{ if: '$CI_PIPELINE_SOURCE == "api"' }] }
unit: { stage: test, script: [test], needs: [compile] }
style: { stage: test, script: [x], needs: [lint] }
`);
    const api = planPipeline(inputs(config, {}, { source: 'api' }));
    if (api.result !== 'create') throw new Error(JSON.stringify(api));
    expect(api.jobs.map((job) => [job.name, job.needs])).toEqual([
      ['compile', null],
      ['lint', null],
      ['unit', ['compile']],
      ['style', ['lint']],
    ]);
    expect(planPipeline(inputs(config, { saveOnErrors: false }))).toEqual({ result: 'refused', errors: [expect.stringContaining('lint')], always: false });
  });

  it('plans a merge request pipeline at its ref, untagged, with the merge request variables', async () => {
    const config = await parse(
      'mr: { script: [a], rules: [{ if: \'$CI_PIPELINE_SOURCE == "merge_request_event" && $CI_MERGE_REQUEST_TARGET_BRANCH_PROTECTED == "true"\' }] }\n',
    );
    const mergeRequest = {
      id: 40,
      iid: 4,
      projectId: 7,
      sourceBranch: 'feature',
      targetBranch: 'main',
      title: 'Draft: feature',
      description: '',
      labels: [],
      assigneeUsernames: [],
      milestoneTitle: null,
    };
    const plan = planPipeline(
      inputs(
        config,
        {},
        {
          source: 'merge_request_event',
          protectedRef: false,
          ref: { name: 'feature', tag: false, sha: SHA },
          mergeRequest: { request: mergeRequest, diffBase: 'b'.repeat(40), targetProtected: true },
        },
      ),
    );
    if (plan.result !== 'create') throw new Error(JSON.stringify(plan));
    expect(plan.pipeline).toMatchObject({ ref: 'refs/merge-requests/4/head', tag: false, protected: false });
    expect(plan.jobs.map((job) => [job.name, job.ref])).toEqual([['mr', 'refs/merge-requests/4/head']]);
  });
});

describe(usesExists.name, () => {
  it('is true when a job or workflow rule uses exists', async () => {
    const of = async (text: string) => {
      const result = await parse(text);
      if (!result.ok) throw new Error(result.errors.join());
      return usesExists(result.config);
    };
    expect(await of('a: { script: [x], rules: [{ exists: [Dockerfile] }] }\n')).toBe(true);
    expect(await of('workflow: { rules: [{ exists: [Dockerfile] }] }\na: { script: [x] }\n')).toBe(true);
    expect(await of('a: { script: [x], rules: [{ changes: [Dockerfile] }] }\n')).toBe(false);
  });
});
