import { CiConfig } from './ci-config.types';
import { parseCiConfig } from './ci-config-parser';
import { FILTERED_BY_WORKFLOW, NO_JOBS, SeedContext, seedPipeline } from './pipeline-seed';

async function config(text: string): Promise<CiConfig> {
  const result = await parseCiConfig(text, async () => null);
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result.config;
}

const push = (ref = 'main', extra: Partial<SeedContext> = {}): SeedContext => ({
  source: 'push',
  ref,
  tag: false,
  predefined: { CI_COMMIT_BRANCH: ref, CI_COMMIT_REF_NAME: ref, CI_PIPELINE_SOURCE: 'push' },
  pipelineVariables: {},
  changedFiles: ['src/app.ts', 'README.md'],
  files: ['src/app.ts', 'README.md', 'package.json'],
  ...extra,
});
const tag = (name: string): SeedContext => ({
  ...push(name),
  tag: true,
  predefined: { CI_COMMIT_TAG: name, CI_COMMIT_REF_NAME: name, CI_PIPELINE_SOURCE: 'push' },
  changedFiles: null,
});

function names(text: CiConfig, context: SeedContext): string[] {
  const result = seedPipeline(text, context);
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result.jobs.map((job) => job.definition.name);
}

describe(seedPipeline.name, () => {
  it('evaluates rules: first match wins, when: never and no match leave the job out', async () => {
    const c = await config(`
main-only: { script: [a], rules: [{ if: '$CI_COMMIT_BRANCH == "main"' }] }
not-main: { script: [a], rules: [{ if: '$CI_COMMIT_BRANCH == "main"', when: never }, { when: always }] }
api-only: { script: [a], rules: [{ if: '$CI_PIPELINE_SOURCE == "api"' }] }
src-changed: { script: [a], rules: [{ changes: ['src/**/*'] }] }
docs-changed: { script: [a], rules: [{ changes: ['docs/**/*'] }] }
has-package: { script: [a], rules: [{ exists: [package.json] }] }
by-variable: { script: [a], variables: { FLAG: "on" }, rules: [{ if: '$FLAG == "on"' }] }
`);
    expect(names(c, push('main'))).toEqual(['main-only', 'api-only', 'src-changed', 'has-package', 'by-variable'].filter((n) => n !== 'api-only'));
    expect(names(c, push('feature'))).toEqual(['not-main', 'src-changed', 'has-package', 'by-variable']);
    expect(names(c, { ...push('feature'), changedFiles: null })).toEqual(['not-main', 'src-changed', 'docs-changed', 'has-package', 'by-variable']);
  });

  it('applies rule when, allow_failure and variables; manual jobs from rules block by default', async () => {
    const c = await config(`
deploy:
  script: [a]
  variables: { TARGET: staging }
  rules:
    - if: '$CI_COMMIT_BRANCH == "main"'
      when: manual
      variables: { TARGET: production }
optional: { script: [a], when: manual }
flaky: { script: [a], rules: [{ allow_failure: true }] }
`);
    const result = seedPipeline(c, push('main'));
    if (!result.ok) throw new Error('expected jobs');
    const byName = Object.fromEntries(result.jobs.map((job) => [job.definition.name, job]));
    expect(byName.deploy).toMatchObject({ when: 'manual', allowFailure: false, variables: { TARGET: 'production' } });
    expect(byName.optional).toMatchObject({ when: 'manual', allowFailure: true });
    expect(byName.flaky).toMatchObject({ when: 'on_success', allowFailure: true });
  });

  it('pipeline variables win over rules variables and job variables', async () => {
    const c = await config('job: { script: [a], variables: { V: job }, rules: [{ if: "$V == \\"given\\"", variables: { V: rule } }] }');
    const result = seedPipeline(c, { ...push(), pipelineVariables: { V: 'given' } });
    expect(result.ok && result.jobs[0].variables).toEqual({ V: 'given' });
  });

  it('evaluates only/except: branches and tags by default, refs, regexes, keywords and variables', async () => {
    const c = await config(`
default-job: { script: [a] }
main: { script: [a], only: [main] }
releases: { script: [a], only: ['/^release-.*$/'] }
tags-only: { script: [a], only: [tags] }
not-main: { script: [a], except: [main] }
api: { script: [a], only: [api] }
skip-var: { script: [a], except: { variables: ['$SKIP == "1"'] } }
`);
    expect(names(c, push('main'))).toEqual(['default-job', 'main', 'skip-var']);
    expect(names(c, push('release-2'))).toEqual(['default-job', 'releases', 'not-main', 'skip-var']);
    expect(names(c, tag('v1'))).toEqual(['default-job', 'tags-only', 'not-main', 'skip-var']);
    expect(names(c, { ...push('main'), source: 'api' })).toEqual(['default-job', 'main', 'api', 'skip-var']);
    expect(names(c, { ...push('x'), pipelineVariables: { SKIP: '1' } })).toEqual(['default-job', 'not-main']);
  });

  it('keeps merge request pipelines to jobs that ask for them', async () => {
    const c = await config(`
always: { script: [a] }
mr: { script: [a], rules: [{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }] }
`);
    expect(names(c, { ...push('feature'), source: 'merge_request_event', predefined: { CI_PIPELINE_SOURCE: 'merge_request_event' } })).toEqual(['mr']);
  });

  it('filters the whole pipeline by workflow rules', async () => {
    const c = await config(`
workflow:
  rules:
    - if: '$CI_COMMIT_TAG'
      when: never
    - if: '$CI_COMMIT_BRANCH'
      variables: { FROM_WORKFLOW: "yes" }
job: { script: [a], rules: [{ if: '$FROM_WORKFLOW == "yes"' }] }
`);
    expect(names(c, push('main'))).toEqual(['job']);
    expect(seedPipeline(c, tag('v1'))).toEqual({ ok: false, filtered: true, errors: [FILTERED_BY_WORKFLOW] });
  });

  it('answers that there are no jobs when every job is left out', async () => {
    const c = await config("job: { script: [a], rules: [{ if: '$NOPE' }] }\npre: { stage: .pre, script: [a] }");
    expect(seedPipeline(c, push())).toEqual({ ok: false, filtered: true, errors: [NO_JOBS] });
  });

  it('refuses a need on a job left out, unless optional', async () => {
    const c = await config(`
build: { stage: build, script: [a], rules: [{ if: '$BUILD' }] }
test: { script: [a], needs: [build] }
lint: { script: [a], needs: [{ job: build, optional: true }] }
`);
    const result = seedPipeline(c, push());
    expect(result).toEqual({
      ok: false,
      filtered: false,
      errors: [
        "'test' job needs 'build' job, but 'build' does not exist in the pipeline. This might be because of the only, except, or rules keywords. To need a job that sometimes does not exist in the pipeline, use needs:optional.",
      ],
    });
    const withBuild = seedPipeline(c, { ...push(), pipelineVariables: { BUILD: '1' } });
    expect(withBuild.ok && withBuild.jobs.map((job) => [job.definition.name, job.needs, job.stageIdx])).toEqual([
      ['build', null, 1],
      ['test', ['build'], 2],
      ['lint', ['build'], 2],
    ]);
  });
});
