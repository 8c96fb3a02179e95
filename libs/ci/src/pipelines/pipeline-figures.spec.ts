import { pipelineCoverage, pipelineDuration } from './pipeline-processor';
import { predefinedPipelineVariables } from './predefined-variables';

const at = (seconds: number): Date => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));

describe(pipelineDuration.name, () => {
  it('counts overlapping job periods once and gaps not at all', () => {
    expect(
      pipelineDuration([
        { startedAt: at(0), finishedAt: at(10) },
        { startedAt: at(5), finishedAt: at(15) },
        { startedAt: at(20), finishedAt: at(30) },
        { startedAt: at(40), finishedAt: null },
      ]),
    ).toBe(25);
  });

  it('is null when no job ran', () => {
    expect(pipelineDuration([{ startedAt: null, finishedAt: null }])).toBeNull();
  });
});

describe(pipelineCoverage.name, () => {
  it('averages the jobs that report coverage', () => {
    expect(pipelineCoverage([{ coverage: '80.00' }, { coverage: null }, { coverage: '90.50' }])).toBe('85.25');
    expect(pipelineCoverage([{ coverage: null }])).toBeNull();
  });
});

describe(predefinedPipelineVariables.name, () => {
  const input = {
    externalUrl: 'https://ci.example.com',
    project: { id: 7, name: 'My App', path: 'my-app', fullPath: 'acme/My.App', namespaceFullPath: 'acme', defaultBranch: 'main', visibility: 'private' },
    pipeline: {
      id: 42,
      iid: 3,
      source: 'push' as const,
      ref: 'feature/Login',
      tag: false,
      protected: false,
      sha: 'a'.repeat(40),
      beforeSha: '0'.repeat(40),
      createdAt: new Date('2026-01-01T00:00:00.123Z'),
    },
    commit: { title: 'Add login', message: 'Add login\n\nWith a form.', author: 'Ann <ann@example.com>', timestamp: '2026-01-01T00:00:00+00:00' },
    user: { id: 5, username: 'ann', name: 'Ann', email: 'ann@example.com' },
  };

  it('describes server, project, pipeline, commit and user', () => {
    expect(predefinedPipelineVariables(input)).toMatchObject({
      CI: 'true',
      GITLAB_CI: 'true',
      CI_SERVER_URL: 'https://ci.example.com',
      CI_SERVER_HOST: 'ci.example.com',
      CI_SERVER_PORT: '443',
      CI_API_V4_URL: 'https://ci.example.com/api/v4',
      CI_PROJECT_ID: '7',
      CI_PROJECT_PATH: 'acme/My.App',
      CI_PROJECT_PATH_SLUG: 'acme-my-app',
      CI_PIPELINE_ID: '42',
      CI_PIPELINE_IID: '3',
      CI_PIPELINE_SOURCE: 'push',
      CI_PIPELINE_CREATED_AT: '2026-01-01T00:00:00Z',
      CI_COMMIT_SHA: 'a'.repeat(40),
      CI_COMMIT_SHORT_SHA: 'aaaaaaaa',
      CI_COMMIT_REF_NAME: 'feature/Login',
      CI_COMMIT_REF_SLUG: 'feature-login',
      CI_COMMIT_REF_PROTECTED: 'false',
      CI_COMMIT_BRANCH: 'feature/Login',
      CI_COMMIT_TITLE: 'Add login',
      CI_COMMIT_DESCRIPTION: 'With a form.',
      GITLAB_USER_LOGIN: 'ann',
    });
    expect(predefinedPipelineVariables(input).CI_COMMIT_TAG).toBeUndefined();
  });

  it('names tags CI_COMMIT_TAG instead of CI_COMMIT_BRANCH', () => {
    const variables = predefinedPipelineVariables({ ...input, pipeline: { ...input.pipeline, ref: 'v1.0', tag: true } });
    expect(variables.CI_COMMIT_TAG).toBe('v1.0');
    expect(variables.CI_COMMIT_BRANCH).toBeUndefined();
  });

  it('says whether the ref is protected', () => {
    expect(predefinedPipelineVariables({ ...input, pipeline: { ...input.pipeline, protected: true } }).CI_COMMIT_REF_PROTECTED).toBe('true');
  });
});
