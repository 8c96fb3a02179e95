import { UserEntity } from '@app/identity';
import { NamespaceEntity } from '../entities/namespace.entity';
import { ProjectEntity } from '../entities/project.entity';
import { presentProject } from './project.presenter';

const at = new Date('2024-03-01T10:20:30.000Z');
const userNamespace = Object.assign(new NamespaceEntity(), {
  id: 3,
  name: 'alice',
  path: 'alice',
  fullPath: 'alice',
  fullName: 'Alice',
  kind: 'user',
  parentId: null,
  ownerId: 7,
  traversalIds: [3],
}) as NamespaceEntity;
const project = Object.assign(new ProjectEntity(), {
  id: 11,
  name: 'Alerts',
  path: 'alerts',
  namespaceId: 3,
  description: null,
  visibility: 'private',
  creatorId: 7,
  defaultBranch: 'main',
  archived: false,
  topics: ['ops'],
  issuesEnabled: true,
  mergeRequestsEnabled: false,
  mergeMethod: 'merge',
  settings: { jobs_access_level: 'disabled' },
  starCount: 2,
  forksCount: 0,
  openIssuesCount: 0,
  lastActivityAt: at,
  markedForDeletionOn: null,
  createdAt: at,
  updatedAt: at,
}) as ProjectEntity;
const owner = Object.assign(new UserEntity(), {
  id: 7,
  username: 'alice',
  name: 'Alice',
  email: 'a@example.com',
  state: 'active',
  createdAt: at,
}) as UserEntity;
const base = { externalUrl: 'https://git.example.com', tier: 'free' as const };

describe(presentProject.name, () => {
  it('builds the simple view with absolute URLs', () => {
    const view = presentProject(project, userNamespace, { ...base, view: 'simple' });
    expect(view).toMatchObject({
      id: 11,
      name_with_namespace: 'Alice / Alerts',
      path_with_namespace: 'alice/alerts',
      web_url: 'https://git.example.com/alice/alerts',
      http_url_to_repo: 'https://git.example.com/alice/alerts.git',
      ssh_url_to_repo: 'git@git.example.com:alice/alerts.git',
      readme_url: null,
      tag_list: ['ops'],
      topics: ['ops'],
      star_count: 2,
    });
    expect(view).not.toHaveProperty('visibility');
    expect(view).not.toHaveProperty('permissions');
  });

  it('adds the full view keys, owner, _links and permissions', () => {
    const view = presentProject(project, userNamespace, { ...base, view: 'full', owner, permissions: { projectAccess: 50, groupAccess: null } });
    expect(view).toMatchObject({
      visibility: 'private',
      owner: { id: 7, name: 'Alice', created_at: at.toISOString() },
      merge_requests_enabled: false,
      merge_requests_access_level: 'disabled',
      namespace: { id: 3, kind: 'user', full_path: 'alice' },
      permissions: { project_access: { access_level: 50, notification_level: 3 }, group_access: null },
      _links: {
        self: 'https://git.example.com/api/v4/projects/11',
        repo_branches: 'https://git.example.com/api/v4/projects/11/repository/branches',
        cluster_agents: 'https://git.example.com/api/v4/projects/11/cluster_agents',
      },
    });
    expect(view).not.toHaveProperty('statistics');
    expect(view).not.toHaveProperty('runners_token');
  });

  it('shows PREMIUM keys only on PREMIUM and above', () => {
    expect(presentProject(project, userNamespace, { ...base, view: 'full' })).not.toHaveProperty('approvals_before_merge');
    const premium = presentProject(project, userNamespace, { ...base, tier: 'premium', view: 'full' });
    expect(premium).toMatchObject({ approvals_before_merge: 0, mirror: false, marked_for_deletion_on: null, service_desk_enabled: false });
  });

  it('shows statistics and the runners token only when asked', () => {
    const view = presentProject(project, userNamespace, { ...base, view: 'full', statistics: true, runnersToken: 'GR1348941abc' });
    expect(view.statistics).toMatchObject({ commit_count: 0, storage_size: 0 });
    expect(view.runners_token).toBe('GR1348941abc');
  });
});
