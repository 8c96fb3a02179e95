import { CiConfig } from './ci-config.types';
import { parseCiConfig } from './ci-config-parser';

const noFiles = async (_path: string): Promise<string | null> => null;
const files = (map: Record<string, string>) => async (path: string) => map[path] ?? null;

async function valid(text: string, read = noFiles): Promise<CiConfig> {
  const result = await parseCiConfig(text, read);
  if (!result.ok) throw new Error(`unexpected errors: ${result.errors.join('; ')}`);
  return result.config;
}

async function errors(text: string, read = noFiles): Promise<string[]> {
  const result = await parseCiConfig(text, read);
  if (result.ok) throw new Error('expected errors');
  return result.errors;
}

const job = (config: CiConfig, name: string) => {
  const found = config.jobs.find((j) => j.name === name);
  if (!found) throw new Error(`no job ${name}`);
  return found;
};

describe(parseCiConfig.name, () => {
  it('reads stages, scripts, defaults and globals', async () => {
    const config = await valid(`
stages: [build, test, deploy]
variables:
  GLOBAL: one
  NUM: 3
  DESCRIBED: { value: x, description: shown in forms }
default:
  image: node:24
  before_script: [npm ci]
  tags: [docker]
  retry: 1
build:
  stage: build
  script: npm run build
  variables: { GLOBAL: overridden, LOCAL: two }
  artifacts:
    paths: [dist/]
    expire_in: 1 week
    reports:
      junit: junit.xml
      sast: gl-sast-report.json
test:
  script:
    - npm test
    - [echo nested, echo again]
  image: { name: "node:22", entrypoint: [""] }
  services: [postgres:15, { name: "redis:7", alias: cache }]
  after_script: [echo done]
  timeout: 1h 30m
  coverage: '/Lines: (\\d+)%/'
`);
    expect(config.stages).toEqual(['.pre', 'build', 'test', 'deploy', '.post']);
    expect(config.variables).toEqual({ GLOBAL: 'one', NUM: '3', DESCRIBED: 'x' });
    const build = job(config, 'build');
    expect(build).toMatchObject({
      stage: 'build',
      kind: 'build',
      script: ['npm run build'],
      beforeScript: ['npm ci'],
      image: { name: 'node:24' },
      tags: ['docker'],
      retry: { max: 1 },
    });
    expect(build.variables).toEqual({ GLOBAL: 'overridden', NUM: '3', DESCRIBED: 'x', LOCAL: 'two' });
    expect(build.artifacts).toMatchObject({
      paths: ['dist/'],
      expireIn: '1 week',
      when: 'on_success',
      reports: { junit: ['junit.xml'], sast: ['gl-sast-report.json'] },
    });
    const test = job(config, 'test');
    expect(test).toMatchObject({
      stage: 'test',
      script: ['npm test', 'echo nested', 'echo again'],
      image: { name: 'node:22', entrypoint: [''] },
      afterScript: ['echo done'],
      timeoutSeconds: 5400,
      coverage: '/Lines: (\\d+)%/',
    });
    expect(test.services).toEqual([{ name: 'postgres:15' }, { name: 'redis:7', alias: 'cache' }]);
  });

  it('uses the default stages and stage `test`', async () => {
    const config = await valid('job: { script: [true] }');
    expect(config.stages).toEqual(['.pre', 'build', 'test', 'deploy', '.post']);
    expect(job(config, 'job').stage).toBe('test');
  });

  it('resolves hidden jobs, extends chains and !reference', async () => {
    const config = await valid(`
.base:
  image: alpine
  variables: { A: base, B: base }
  script: [echo base]
.middle:
  extends: .base
  variables: { B: middle }
  tags: [linux]
.setup:
  before_script: [echo setup]
job:
  extends: [.middle]
  variables: { C: job }
  before_script:
    - !reference [.setup, before_script]
    - echo mine
`);
    expect(config.jobs.map((j) => j.name)).toEqual(['job']);
    expect(job(config, 'job')).toMatchObject({ image: { name: 'alpine' }, script: ['echo base'], tags: ['linux'], beforeScript: ['echo setup', 'echo mine'] });
    expect(job(config, 'job').variables).toEqual({ A: 'base', B: 'middle', C: 'job' });
  });

  it('reads when, allow_failure, needs, dependencies, retry, rules, only/except, trigger', async () => {
    const config = await valid(`
build: { stage: build, script: [make] }
lint: { stage: build, script: [lint], allow_failure: true }
unit:
  stage: test
  script: [test]
  needs: [build, { job: lint, artifacts: false }]
  dependencies: [build]
  retry: { max: 2, when: [runner_system_failure, stuck_or_timeout_failure] }
  allow_failure: { exit_codes: [3, 4] }
deploy:
  stage: deploy
  script: [deploy]
  when: manual
  rules:
    - if: $CI_COMMIT_BRANCH == "main"
      when: manual
    - changes: [src/**/*]
      variables: { X: y }
    - when: never
legacy:
  script: [x]
  only: [main, /^release-.*$/, tags]
  except: { variables: [$SKIP == "1"] }
child:
  stage: deploy
  trigger:
    include: ci/child.yml
    strategy: depend
downstream:
  trigger: group/other
`);
    expect(job(config, 'lint').allowFailure).toBe(true);
    expect(job(config, 'unit')).toMatchObject({
      needs: [
        { job: 'build', artifacts: true, optional: false },
        { job: 'lint', artifacts: false, optional: false },
      ],
      dependencies: ['build'],
      retry: { max: 2, when: ['runner_system_failure', 'stuck_or_timeout_failure'], exitCodes: [] },
      allowFailure: false,
      allowFailureExitCodes: [3, 4],
    });
    expect(job(config, 'deploy')).toMatchObject({
      when: 'manual',
      rules: [{ if: '$CI_COMMIT_BRANCH == "main"', when: 'manual' }, { changes: ['src/**/*'], variables: { X: 'y' } }, { when: 'never' }],
    });
    expect(job(config, 'legacy')).toMatchObject({ only: { refs: ['main', '/^release-.*$/', 'tags'] }, except: { variables: ['$SKIP == "1"'] } });
    expect(job(config, 'child')).toMatchObject({ kind: 'bridge', trigger: { include: ['ci/child.yml'], strategy: 'depend' }, script: [] });
    expect(job(config, 'downstream')).toMatchObject({ kind: 'bridge', trigger: { project: 'group/other' } });
  });

  it('merges include: local files, the including file winning', async () => {
    const read = files({
      'ci/common.yml': 'variables: { FROM: common, SHARED: common }\n.template: { script: [echo template] }\ninclude: [{ local: ci/deeper.yaml }]',
      'ci/deeper.yaml': 'lint: { script: [lint] }',
    });
    const config = await valid('include:\n  - local: /ci/common.yml\nvariables: { SHARED: main }\njob: { extends: .template }', read);
    expect(config.variables).toEqual({ FROM: 'common', SHARED: 'main' });
    expect(config.jobs.map((j) => j.name).sort()).toEqual(['job', 'lint']);
    expect(job(config, 'job').script).toEqual(['echo template']);
  });

  it.each<[string, string, string | RegExp]>([
    ['unknown job keyword', 'job: { script: [a], scrip: [b] }', 'jobs:job config contains unknown keys: scrip'],
    ['unknown keywords listed', 'job: { script: [a], foo: 1, bar: 2 }', 'jobs:job config contains unknown keys: foo, bar'],
    ['no script', 'job: { stage: test }', 'jobs:job config should implement the script:, run:, or trigger: keyword'],
    ['a top-level scalar', 'job: echo', 'jobs:job config should implement the script:, run:, or trigger: keyword'],
    ['unknown stage', 'job: { stage: nope, script: [a] }', 'job job: chosen stage nope does not exist; available stages are .pre, build, test, deploy, .post'],
    ['undefined need', 'job: { script: [a], needs: [missing] }', 'job job: undefined need: missing'],
    [
      'need in a later stage',
      'a: { stage: build, script: [a], needs: [b] }\nb: { stage: deploy, script: [b] }',
      'a job: need b is not defined in current or prior stages',
    ],
    ['undefined dependency', 'job: { script: [a], dependencies: [nope] }', 'job job: undefined dependency: nope'],
    ['delayed without start_in', 'job: { script: [a], when: delayed }', 'jobs:job start in should be specified for delayed job'],
    ['start_in not a duration', 'job: { script: [a], when: delayed, start_in: soon }', 'jobs:job start in should be a duration'],
    ['start_in a bare number', 'job: { script: [a], when: delayed, start_in: 30 }', 'jobs:job start in should be a duration'],
    ['start_in over a week', 'job: { script: [a], when: delayed, start_in: 8 days }', 'jobs:job start in should not exceed the limit'],
    ['start_in on a job that is not delayed', 'job: { script: [a], start_in: 1 minute }', 'jobs:job start in must be blank'],
    [
      'start_in beside rules',
      'job: { script: [a], when: delayed, start_in: 1 minute, rules: [{ when: delayed, start_in: 1 minute }] }',
      'jobs:job start in must be blank',
    ],
    ['delayed rule without start_in', 'job: { script: [a], rules: [{ when: delayed }] }', "jobs:job:rules:rule start in can't be blank"],
    [
      'rule start_in over a week',
      'job: { script: [a], rules: [{ when: delayed, start_in: 2 weeks }] }',
      'jobs:job:rules:rule start in should not exceed the limit',
    ],
    ['bad when', 'job: { script: [a], when: sometimes }', 'jobs:job when should be one of: on_success, on_failure, always, manual, delayed, never'],
    ['bad rule', 'job: { script: [a], rules: [{ if: "$A ==" }] }', 'jobs:job:rules:rule if invalid expression syntax'],
    ['rule pattern RE2 refuses', 'job: { script: [a], rules: [{ if: "$A =~ /(a)\\\\1/" }] }', 'jobs:job:rules:rule if invalid expression syntax'],
    [
      'only:variables pattern RE2 refuses',
      'job: { script: [a], only: { variables: ["$A =~ /a(?=b)/"] } }',
      'jobs:job:only variables invalid expression syntax',
    ],
    [
      'only ref pattern RE2 refuses',
      'job: { script: [a], only: ["/^(?!main)/"] }',
      'jobs:job:only config should be an array of strings or regular expressions using re2 syntax',
    ],
    [
      'except refs pattern RE2 refuses',
      'job: { script: [a], except: { refs: ["/(a)\\\\1/"] } }',
      'jobs:job:except refs should be an array of strings or regular expressions using re2 syntax',
    ],
    ['coverage RE2 refuses', 'job: { script: [a], coverage: "/(?<=Total: )\\\\d+/" }', 'jobs:job:coverage config must be a regular expression with re2 syntax'],
    ['coverage not a pattern', 'job: { script: [a], coverage: 42 }', 'jobs:job:coverage config must be a regular expression with re2 syntax'],
    ['unknown rule key', 'job: { script: [a], rules: [{ iff: "$A" }] }', 'jobs:job:rules:rule config contains unknown keys: iff'],
    ['rules with only', 'job: { script: [a], rules: [{ when: always }], only: [main] }', 'jobs:job config key may not be used with `rules`: only'],
    ['retry too high', 'job: { script: [a], retry: 3 }', 'jobs:job:retry config must be a non negative integer less than or equal to 2'],
    ['bad retry reason', 'job: { script: [a], retry: { max: 1, when: [sometimes] } }', 'jobs:job:retry when contains unknown values: sometimes'],
    ['unknown report', 'job: { script: [a], artifacts: { reports: { junk: x.xml } } }', 'jobs:job:artifacts:reports config contains unknown keys: junk'],
    ['bad expire_in', 'job: { script: [a], artifacts: { expire_in: whenever } }', 'jobs:job:artifacts expire in should be a duration'],
    ['bad timeout', 'job: { script: [a], timeout: 1m }', 'jobs:job:timeout config should be a duration between 10 minutes and 1 month'],
    ['unknown extends', 'job: { extends: .nope, script: [a] }', 'job: unknown keys in `extends` (.nope)'],
    ['circular extends', '.a: { extends: .b }\n.b: { extends: .a }\njob: { extends: .a, script: [a] }', /circular dependency detected in `extends`/],
    ['missing include', 'include: missing.yml\njob: { script: [a] }', 'Local file `missing.yml` does not exist!'],
    ['remote include', 'include: { remote: "https://example.com/ci.yml" }\njob: { script: [a] }', 'include:remote is not supported: only `include: local` is'],
    ['only hidden jobs', '.hidden: { script: [a] }', 'jobs config should contain at least one visible job'],
    ['bad default key', 'default: { script: [a] }\njob: { script: [a] }', 'default config contains unknown keys: script'],
    ['bad variable', 'variables: { A: [1] }\njob: { script: [a] }', 'variables config should be a hash of key value pairs, value can be a hash'],
    ['not a hash', '- a\n- b', 'Invalid configuration format'],
    ['bridge with script keyword', 'job: { trigger: { include: c.yml }, script: [a] }', 'jobs:job config contains unknown keys: script'],
  ])('%s', async (_title, text, message) => {
    const found = await errors(text);
    if (typeof message === 'string') expect(found).toContain(message);
    else expect(found.some((error) => message.test(error))).toBe(true);
  });

  it('reports YAML syntax errors with their position', async () => {
    const found = await errors('job:\n  script: [a\n  stage: b');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/at line \d+, column \d+$/);
  });

  it('lists several errors at once', async () => {
    const found = await errors('a: { script: [x], foo: 1 }\nb: { stage: nope, script: [x] }');
    expect(found).toEqual(expect.arrayContaining(['jobs:a config contains unknown keys: foo', expect.stringContaining('chosen stage nope does not exist')]));
  });

  it('refuses alias bombs', async () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i += 1)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    lines.push('job: { script: [x] }');
    const result = await parseCiConfig(lines.join('\n'), noFiles);
    expect(result.ok).toBe(false);
  });
});
