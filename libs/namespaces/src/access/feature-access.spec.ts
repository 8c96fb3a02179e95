import { ACCESS_LEVELS } from '../entities/member.entity';
import { projectFeatureOfRoute, projectFeatureReadable } from './feature-access';

const { NO_ACCESS, GUEST, REPORTER, ADMIN } = ACCESS_LEVELS;
type Visibility = 'private' | 'internal' | 'public';
const project = (visibility: Visibility, settings: Record<string, unknown> = {}, mergeRequestsEnabled = true) => ({
  visibility,
  settings,
  issuesEnabled: true,
  mergeRequestsEnabled,
});

describe('projectFeatureReadable', () => {
  it('private project: merge requests and code take Reporter, pipelines Guest while public_jobs is on', () => {
    const p = project('private');
    expect(projectFeatureReadable(p, 'merge_requests', GUEST)).toBe(false);
    expect(projectFeatureReadable(p, 'merge_requests', REPORTER)).toBe(true);
    expect(projectFeatureReadable(p, 'repository', GUEST)).toBe(false);
    expect(projectFeatureReadable(p, 'repository', REPORTER)).toBe(true);
    expect(projectFeatureReadable(p, 'builds', GUEST)).toBe(true);
    expect(projectFeatureReadable(project('private', { public_jobs: false }), 'builds', GUEST)).toBe(false);
    expect(projectFeatureReadable(project('private', { public_jobs: false }), 'builds', REPORTER)).toBe(true);
  });

  it('public project: enabled features are open; members-only merge requests take Reporter, members-only code Guest', () => {
    expect(projectFeatureReadable(project('public'), 'merge_requests', NO_ACCESS)).toBe(true);
    expect(projectFeatureReadable(project('internal'), 'repository', NO_ACCESS)).toBe(true);
    const mrPrivate = project('public', { merge_requests_access_level: 'private', repository_access_level: 'private' });
    expect(projectFeatureReadable(mrPrivate, 'merge_requests', NO_ACCESS)).toBe(false);
    expect(projectFeatureReadable(mrPrivate, 'merge_requests', GUEST)).toBe(false);
    expect(projectFeatureReadable(mrPrivate, 'merge_requests', REPORTER)).toBe(true);
    expect(projectFeatureReadable(mrPrivate, 'repository', NO_ACCESS)).toBe(false);
    expect(projectFeatureReadable(mrPrivate, 'repository', GUEST)).toBe(true);
    expect(projectFeatureReadable(project('public', { public_jobs: false }), 'builds', GUEST)).toBe(false);
    expect(projectFeatureReadable(project('public', { builds_access_level: 'private' }), 'builds', NO_ACCESS)).toBe(false);
    expect(projectFeatureReadable(project('public', { builds_access_level: 'private' }), 'builds', GUEST)).toBe(true);
  });

  it('disabled features are closed to everyone, administrators included; a disabled repository closes merge requests and pipelines', () => {
    expect(projectFeatureReadable(project('public', {}, false), 'merge_requests', ADMIN)).toBe(false);
    const noRepo = project('public', { repository_access_level: 'disabled' });
    for (const feature of ['repository', 'merge_requests', 'builds'] as const) expect(projectFeatureReadable(noRepo, feature, ADMIN)).toBe(false);
  });
});

describe('projectFeatureOfRoute', () => {
  it('maps every route of the merge request, repository and CI families, and nothing else', () => {
    expect(projectFeatureOfRoute('/api/v4/projects/:id/merge_requests')).toBe('merge_requests');
    expect(projectFeatureOfRoute('/api/v4/projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id')).toBe('merge_requests');
    expect(projectFeatureOfRoute('/api/v4/projects/:id/repository/branches/:branch')).toBe('repository');
    expect(projectFeatureOfRoute('/api/v4/projects/:id/languages')).toBe('repository');
    expect(projectFeatureOfRoute('/api/v4/projects/:id/pipeline')).toBe('builds');
    expect(projectFeatureOfRoute('/api/v4/projects/:id/pipelines/:pipeline_id/jobs')).toBe('builds');
    expect(projectFeatureOfRoute('/api/v4/projects/:project_id/jobs/:job_id/trace')).toBe('builds');
    expect(projectFeatureOfRoute('/api/v4/projects/:id/issues/:issue_iid/notes')).toBeNull();
    expect(projectFeatureOfRoute('/api/v4/projects/:id/merge_requests_count')).toBeNull();
    expect(projectFeatureOfRoute('/api/v4/jobs/:id/trace')).toBeNull();
    expect(projectFeatureOfRoute('/api/v4/projects/:id/events')).toBeNull();
  });
});
