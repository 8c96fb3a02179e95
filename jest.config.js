/** Unit, integration and end-to-end tests; each kind selectable with --selectProjects. */
const shared = {
  rootDir: '.',
  testEnvironment: 'node',
  // A bound, not a wait: tests wait for conditions; a real gateway boot alone can take 30 s on a
  // loaded 2-core machine (testTimeout is global in jest: project entries cannot set it).
  testTimeout: 120_000,
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleNameMapper: {
    // Tests of the libs reach the apps' entity list through this alias (libs never import apps).
    '^@apps/entities$': '<rootDir>/apps/entities',
    '^@app/([^/]+)$': '<rootDir>/libs/$1/src',
    '^@app/([^/]+)/(.*)$': '<rootDir>/libs/$1/src/$2',
  },
};

module.exports = {
  ...shared,
  // Tests wait on PostgreSQL, Redis and Kafka far more than on the CPU.
  maxWorkers: 4,
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,test}/**/*.int-spec.ts'],
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
    },
  ],
};
