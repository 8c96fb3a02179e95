// Lint: the lib order and boundaries (README "Layout"), and the typed rules that keep a request
// from ending the process (no floating or misused promises). Everything else is left to tsc and review.
import tseslint from 'typescript-eslint';

// The libs from the bottom up, written once: a lib may import only the libs of the levels below
// its own (never one of its level, never one above). libs/testing stands apart: test
// infrastructure above every domain lib, for tests only.
export const LIB_ORDER = [
  ['config'],
  ['database', 'queue', 'secrets'],
  ['api', 'observability'],
  ['messaging'],
  ['settings', 'custom-attributes'],
  ['identity'],
  ['namespaces'],
  ['issues', 'badges', 'snippets'],
  ['events', 'alerting', 'hooks', 'repository'],
  ['notes', 'approvals', 'ci'],
  ['vulnerabilities'],
  ['project-transfer'],
];
const TESTS = ['**/*.spec.ts', '**/*.int-spec.ts'];
const libs = (names, sub = '**') => names.map((lib) => `libs/${lib}/src/${sub}`);

// Each file gets one `no-restricted-imports` (a later block replaces an earlier one), so every
// block lists all that applies to its files.
const deep = { group: ['@app/*/**', '**/libs/**'], message: 'Import another lib through its index: @app/<lib> (export what you need from its index.ts).' };
const testing = { group: ['@app/testing'], message: 'Test infrastructure is for tests only.' };
const apps = { group: ['**/apps/**'], message: 'Libs never import the apps (the apps pass what a lib needs, e.g. the entity list).' };
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const notAbove = (level) => {
  const lib = LIB_ORDER[level].join(', ');
  const upper = LIB_ORDER.slice(level).flat();
  return {
    group: upper.map((name) => `@app/${name}`),
    message: `The lib order (eslint.config.mjs LIB_ORDER): ${lib} may import only the libs of the levels below its own.`,
  };
};

export default [
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', 'data/**'] },
  { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, linterOptions: { reportUnusedDisableDirectives: 'error' } },
  // Tests, test/, bench/, scripts/: only through indexes. Tests may use libs/testing and the apps' entity list.
  { files: ['**/*.ts'], rules: restrict(deep) },
  // Production code: no test infrastructure; libs never reach into the apps.
  { files: ['apps/**/*.ts'], ignores: TESTS, rules: restrict(deep, testing) },
  // Each lib, its tests included: no lib of its own level or above (tests may also use libs/testing).
  ...LIB_ORDER.flatMap((names, level) => [
    { files: libs(names), rules: restrict(deep, apps, notAbove(level)) },
    { files: libs(names), ignores: TESTS, rules: restrict(deep, testing, apps, notAbove(level)) },
  ]),
  // libs/testing is test infrastructure above the domain libs (fixtures wire their use cases); it takes the entity list as a parameter.
  { files: libs(['testing']), rules: restrict(deep, apps) },
  // The environment is read by libs/config alone (tests, bench and the test setup read their own knobs).
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: [...TESTS, 'libs/config/**', 'libs/testing/src/test-environment.ts'],
    rules: { 'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through AppConfig (libs/config).' }] },
  },
  // Production code: every promise is awaited, returned or handed to a handler; none is given
  // where a callback's result is ignored (an unhandled rejection ends the process).
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: [...TESTS, 'apps/web/**'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' },
  },
];
