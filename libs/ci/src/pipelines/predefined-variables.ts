import type { VariableMap } from '../config/ci-config.types';
import type { PipelineSource } from '../config/pipeline-seed';

export interface PredefinedPipelineInput {
  externalUrl: string;
  project: { id: number; name: string; path: string; fullPath: string; namespaceFullPath: string; defaultBranch: string | null; visibility: string };
  pipeline: { id: number; iid: number; source: PipelineSource; ref: string; tag: boolean; protected: boolean; sha: string; beforeSha: string; createdAt: Date };
  commit: { title: string; message: string; author: string; timestamp: string } | null;
  user: { id: number; username: string; name: string; email: string } | null;
}

/**
 * The predefined variables of a pipeline (those known before a job runs). The job's own
 * (`CI_JOB_ID`, `CI_JOB_TOKEN`, `CI_REPOSITORY_URL`, …) are added when a runner takes it.
 */
export function predefinedPipelineVariables(input: PredefinedPipelineInput): VariableMap {
  const { project, pipeline, commit, user } = input;
  const server = new URL(input.externalUrl);
  const base = input.externalUrl.replace(/\/+$/, '');
  const slug = (text: string): string =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '-')
      .slice(0, 63)
      .replace(/^-+|-+$/g, '');
  const variables: VariableMap = {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_SERVER: 'yes',
    CI_SERVER_URL: base,
    CI_SERVER_HOST: server.hostname,
    CI_SERVER_PORT: server.port || (server.protocol === 'https:' ? '443' : '80'),
    CI_SERVER_PROTOCOL: server.protocol.replace(':', ''),
    CI_SERVER_NAME: 'GitLab',
    CI_API_V4_URL: `${base}/api/v4`,
    CI_PROJECT_ID: String(project.id),
    CI_PROJECT_NAME: project.path,
    CI_PROJECT_TITLE: project.name,
    CI_PROJECT_PATH: project.fullPath,
    CI_PROJECT_PATH_SLUG: slug(project.fullPath),
    CI_PROJECT_NAMESPACE: project.namespaceFullPath,
    CI_PROJECT_ROOT_NAMESPACE: project.namespaceFullPath.split('/')[0],
    CI_PROJECT_URL: `${base}/${project.fullPath}`,
    CI_PROJECT_VISIBILITY: project.visibility,
    CI_DEFAULT_BRANCH: project.defaultBranch ?? '',
    CI_PIPELINE_ID: String(pipeline.id),
    CI_PIPELINE_IID: String(pipeline.iid),
    CI_PIPELINE_SOURCE: pipeline.source,
    CI_PIPELINE_URL: `${base}/${project.fullPath}/-/pipelines/${pipeline.id}`,
    CI_PIPELINE_CREATED_AT: pipeline.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    CI_COMMIT_SHA: pipeline.sha,
    CI_COMMIT_SHORT_SHA: pipeline.sha.slice(0, 8),
    CI_COMMIT_BEFORE_SHA: pipeline.beforeSha,
    CI_COMMIT_REF_NAME: pipeline.ref,
    CI_COMMIT_REF_SLUG: slug(pipeline.ref),
    CI_COMMIT_REF_PROTECTED: String(pipeline.protected),
  };
  if (pipeline.tag) variables.CI_COMMIT_TAG = pipeline.ref;
  // Not for a merge request ref (a child pipeline of a merge request pipeline), as GitLab.
  else if (!pipeline.ref.startsWith('refs/merge-requests/')) variables.CI_COMMIT_BRANCH = pipeline.ref;
  if (commit) {
    variables.CI_COMMIT_TITLE = commit.title;
    variables.CI_COMMIT_MESSAGE = commit.message;
    variables.CI_COMMIT_DESCRIPTION = commit.message.split('\n').slice(1).join('\n').replace(/^\n+/, '');
    variables.CI_COMMIT_AUTHOR = commit.author;
    variables.CI_COMMIT_TIMESTAMP = commit.timestamp;
  }
  if (user) {
    variables.GITLAB_USER_ID = String(user.id);
    variables.GITLAB_USER_LOGIN = user.username;
    variables.GITLAB_USER_NAME = user.name;
    variables.GITLAB_USER_EMAIL = user.email;
  }
  return variables;
}
