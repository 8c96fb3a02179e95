// Lint: the lib boundaries (README "Layout"). Everything else is left to tsc and review.
import tseslint from 'typescript-eslint';

const PLATFORM = ['config', 'database', 'messaging', 'queue', 'observability', 'api'];
const DOMAIN = ['identity', 'namespaces', 'issues', 'events', 'settings', 'alerting', 'hooks', 'repository', 'badges', 'custom-attributes', 'notes', 'snippets', 'ci', 'vulnerabilities', 'project-transfer', 'approvals'];
const TESTS = ['**/*.spec.ts', '**/*.int-spec.ts'];
const libs = (names, sub = '**') => names.map((lib) => `libs/${lib}/src/${sub}`);

// Each file gets one `no-restricted-imports` (a later block replaces an earlier one), so every
// block lists all that applies to its files.
const deep = { group: ['@app/*/**', '**/libs/**'], message: 'Import another lib through its index: @app/<lib> (export what you need from its index.ts).' };
const domain = { group: DOMAIN.map((lib) => `@app/${lib}`), message: 'Platform libs never import domain libs.' };
const testing = { group: ['@app/testing'], message: 'Test infrastructure is for tests only.' };
const apps = { group: ['**/apps/**'], message: 'Libs never import the apps (the apps pass what a lib needs, e.g. the entity list).' };
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default [
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', 'data/**'] },
  { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, linterOptions: { reportUnusedDisableDirectives: 'error' } },
  // Tests, test/, bench/, scripts/: only through indexes. Tests may use libs/testing and the apps' entity list.
  { files: ['**/*.ts'], rules: restrict(deep) },
  // Production code: no test infrastructure; libs never reach into the apps.
  { files: ['apps/**/*.ts'], ignores: TESTS, rules: restrict(deep, testing) },
  { files: ['libs/**/*.ts'], ignores: TESTS, rules: restrict(deep, testing, apps) },
  // Platform libs (tests included): no domain lib; their tests may use libs/testing.
  { files: libs(PLATFORM), rules: restrict(deep, domain, apps) },
  { files: libs(PLATFORM), ignores: TESTS, rules: restrict(deep, domain, testing, apps) },
  // libs/testing is test infrastructure above the domain libs (fixtures wire their use cases); it takes the entity list as a parameter.
  { files: libs(['testing']), rules: restrict(deep, apps) },
  // The environment is read by libs/config alone (tests, bench and the test setup read their own knobs).
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: [...TESTS, 'libs/config/**', 'libs/testing/src/test-environment.ts'],
    rules: { 'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through AppConfig (libs/config).' }] },
  },
];
