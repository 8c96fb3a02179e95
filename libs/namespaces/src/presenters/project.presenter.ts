import { tierAtLeast } from '@app/api';
import type { ServiceTier } from '@app/config';
import type { UserEntity } from '@app/identity';
import { presentUserSummary } from '@app/identity';
import type { NamespaceEntity } from '../entities/namespace.entity';
import type { ProjectEntity } from '../entities/project.entity';
import { nameWithNamespace, pathWithNamespace } from '../events/namespaces.events';
import { featureAccessLevel, featureEnabled, PROJECT_FEATURES, projectSetting, ProjectSettingKey } from '../settings/project-attributes';
import { EMPTY_STATISTICS, ProjectStatisticsValues } from '../repositories/project-statistics.repository';
import { presentNamespaceBasic } from './namespace.presenter';

export type ProjectView = 'simple' | 'full';

export interface ProjectPresentOptions {
  externalUrl: string;
  tier: ServiceTier;
  view: ProjectView;
  /** The user owning a personal namespace (full view `owner`). */
  owner?: UserEntity | null;
  /** The caller's memberships; when given, the full view carries `permissions`. */
  permissions?: { projectAccess: number | null; groupAccess: number | null };
  /** Include `statistics` (requested, and the caller is a reporter or above): the values, or true for all zeros. */
  statistics?: boolean | ProjectStatisticsValues;
  /** The runners registration token, known only right after creation (only a digest is stored). */
  runnersToken?: string;
  /** Whether the repository has commits (defaults to false until a repository service says otherwise). */
  emptyRepo?: boolean;
}

const NOTIFICATION_LEVEL_GLOBAL = 3;

/** URLs of a project: web, clone (HTTP and SSH) and API links. */
export function projectUrls(project: ProjectEntity, namespace: NamespaceEntity, externalUrl: string) {
  const fullPath = pathWithNamespace(project, namespace);
  const host = new URL(externalUrl).hostname;
  const api = `${externalUrl}/api/v4/projects/${project.id}`;
  return {
    web_url: `${externalUrl}/${fullPath}`,
    http_url_to_repo: `${externalUrl}/${fullPath}.git`,
    ssh_url_to_repo: `git@${host}:${fullPath}.git`,
    container_registry_image_prefix: `${host}/${fullPath.toLowerCase()}`,
    _links: {
      self: api,
      issues: `${api}/issues`,
      merge_requests: `${api}/merge_requests`,
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
      cluster_agents: `${api}/cluster_agents`,
    },
  };
}

/** GitLab's `BasicProjectDetails` (simple view: anonymous callers, `simple=true`). */
export function presentProjectSimple(project: ProjectEntity, namespace: NamespaceEntity, externalUrl: string): Record<string, unknown> {
  const urls = projectUrls(project, namespace, externalUrl);
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: nameWithNamespace(project, namespace),
    path: project.path,
    path_with_namespace: pathWithNamespace(project, namespace),
    created_at: project.createdAt.toISOString(),
    default_branch: project.defaultBranch,
    tag_list: [...project.topics],
    topics: [...project.topics],
    ssh_url_to_repo: urls.ssh_url_to_repo,
    http_url_to_repo: urls.http_url_to_repo,
    web_url: urls.web_url,
    readme_url: null,
    forks_count: project.forksCount,
    avatar_url: null,
    star_count: project.starCount,
    last_activity_at: project.lastActivityAt.toISOString(),
    namespace: presentNamespaceBasic(namespace, externalUrl),
  };
}

/** A project in the simple or full view (GitLab's `ProjectWithAccess` when `permissions` is given). */
export function presentProject(project: ProjectEntity, namespace: NamespaceEntity, options: ProjectPresentOptions): Record<string, unknown> {
  const simple = presentProjectSimple(project, namespace, options.externalUrl);
  if (options.view === 'simple') return simple;
  const s = (key: ProjectSettingKey) => projectSetting(project, key);
  const urls = projectUrls(project, namespace, options.externalUrl);
  const premium = tierAtLeast(options.tier, 'premium');
  const accessLevels = Object.fromEntries(Object.keys(PROJECT_FEATURES).map((f) => [`${f}_access_level`, featureAccessLevel(project, f)]));

  const view: Record<string, unknown> = {
    ...simple,
    container_registry_image_prefix: urls.container_registry_image_prefix,
    _links: urls._links,
    empty_repo: options.emptyRepo ?? true,
    archived: project.archived,
    visibility: project.visibility,
  };
  if (namespace.kind === 'user' && options.owner) {
    view.owner = { ...presentUserSummary(options.owner, options.externalUrl), created_at: options.owner.createdAt.toISOString() };
  }
  Object.assign(view, {
    resolve_outdated_diff_discussions: s('resolve_outdated_diff_discussions'),
    container_expiration_policy: {
      cadence: '1d',
      enabled: false,
      keep_n: 10,
      older_than: '90d',
      name_regex: '.*',
      name_regex_keep: null,
      next_run_at: null,
    },
    repository_object_format: 'sha1',
    issues_enabled: featureEnabled(project, 'issues'),
    merge_requests_enabled: featureEnabled(project, 'merge_requests'),
    wiki_enabled: featureEnabled(project, 'wiki'),
    jobs_enabled: featureEnabled(project, 'builds'),
    snippets_enabled: featureEnabled(project, 'snippets'),
    container_registry_enabled: featureEnabled(project, 'container_registry'),
    can_create_merge_request_in: true,
    ...accessLevels,
    requirements_enabled: featureEnabled(project, 'requirements'),
    security_and_compliance_enabled: featureEnabled(project, 'security_and_compliance'),
    emails_disabled: s('emails_disabled'),
    emails_enabled: s('emails_enabled'),
    shared_runners_enabled: s('shared_runners_enabled'),
    group_runners_enabled: s('group_runners_enabled'),
    lfs_enabled: s('lfs_enabled'),
    creator_id: project.creatorId,
    import_url: null,
    import_type: null,
    import_status: 'none',
    import_error: null,
    open_issues_count: project.openIssuesCount,
    description_html: project.description ?? '',
    updated_at: project.updatedAt.toISOString(),
    ci_default_git_depth: s('ci_default_git_depth'),
    ci_forward_deployment_enabled: s('ci_forward_deployment_enabled'),
    ci_forward_deployment_rollback_allowed: s('ci_forward_deployment_rollback_allowed'),
    ci_job_token_scope_enabled: s('ci_job_token_scope_enabled'),
    ci_separated_caches: s('ci_separated_caches'),
    ci_allow_fork_pipelines_to_run_in_parent_project: s('ci_allow_fork_pipelines_to_run_in_parent_project'),
    ci_pipeline_variables_minimum_override_role: s('ci_pipeline_variables_minimum_override_role'),
    build_git_strategy: s('build_git_strategy'),
    keep_latest_artifact: s('keep_latest_artifact'),
    restrict_user_defined_variables: s('restrict_user_defined_variables'),
  });
  if (options.runnersToken) view.runners_token = options.runnersToken;
  Object.assign(view, {
    auto_cancel_pending_pipelines: s('auto_cancel_pending_pipelines'),
    build_timeout: s('build_timeout'),
    ci_config_path: s('ci_config_path'),
    public_jobs: s('public_jobs'),
    shared_with_groups: [],
    only_allow_merge_if_pipeline_succeeds: s('only_allow_merge_if_pipeline_succeeds'),
    allow_merge_on_skipped_pipeline: s('allow_merge_on_skipped_pipeline'),
    request_access_enabled: s('request_access_enabled'),
    only_allow_merge_if_all_discussions_are_resolved: s('only_allow_merge_if_all_discussions_are_resolved'),
    remove_source_branch_after_merge: s('remove_source_branch_after_merge'),
    printing_merge_request_link_enabled: s('printing_merge_request_link_enabled'),
    merge_method: project.mergeMethod,
    squash_option: s('squash_option'),
    enforce_auth_checks_on_uploads: s('enforce_auth_checks_on_uploads'),
    suggestion_commit_message: s('suggestion_commit_message'),
    merge_commit_template: s('merge_commit_template'),
    squash_commit_template: s('squash_commit_template'),
    issue_branch_template: s('issue_branch_template'),
    warn_about_potentially_unwanted_characters: s('warn_about_potentially_unwanted_characters'),
    autoclose_referenced_issues: s('autoclose_referenced_issues'),
    mr_default_target_self: s('mr_default_target_self'),
    show_default_award_emojis: s('show_default_award_emojis'),
    compliance_frameworks: [],
    license_url: null,
    license: null,
  });
  if (options.permissions) {
    const access = (level: number | null) => (level === null ? null : { access_level: level, notification_level: NOTIFICATION_LEVEL_GLOBAL });
    view.permissions = { project_access: access(options.permissions.projectAccess), group_access: access(options.permissions.groupAccess) };
  }
  if (options.statistics) view.statistics = { ...(options.statistics === true ? EMPTY_STATISTICS : options.statistics) };
  if (premium) {
    Object.assign(view, {
      auto_devops_enabled: s('auto_devops_enabled'),
      auto_devops_deploy_strategy: s('auto_devops_deploy_strategy'),
      repository_storage: s('repository_storage'),
      packages_enabled: s('packages_enabled'),
      service_desk_enabled: s('service_desk_enabled'),
      service_desk_address: null,
      approvals_before_merge: s('approvals_before_merge'),
      mirror: s('mirror'),
      mirror_user_id: s('mirror_user_id'),
      mirror_trigger_builds: s('mirror_trigger_builds'),
      only_mirror_protected_branches: s('only_mirror_protected_branches'),
      mirror_overwrites_diverged_branches: s('mirror_overwrites_diverged_branches'),
      external_authorization_classification_label: s('external_authorization_classification_label'),
      merge_pipelines_enabled: s('merge_pipelines_enabled'),
      merge_trains_enabled: s('merge_trains_enabled'),
      marked_for_deletion_at: project.markedForDeletionOn,
      marked_for_deletion_on: project.markedForDeletionOn,
    });
  }
  return view;
}
