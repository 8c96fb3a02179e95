import type { ProjectEntity } from '../entities/project.entity';

/** Access levels of a project feature (`pages` also accepts `public`). */
export const FEATURE_ACCESS_LEVELS = ['disabled', 'private', 'enabled', 'public'] as const;
export type FeatureAccessLevel = (typeof FEATURE_ACCESS_LEVELS)[number];

interface FeatureSpec {
  /** The legacy boolean parameter (`issues_enabled`, `jobs_enabled`...), if the feature has one. */
  enabledParam?: string;
  /** Column holding the boolean (issues, merge requests); others live in `settings`. */
  column?: 'issuesEnabled' | 'mergeRequestsEnabled';
  default: FeatureAccessLevel;
}

/** Project features with an `<feature>_access_level` attribute. */
export const PROJECT_FEATURES: Readonly<Record<string, FeatureSpec>> = {
  issues: { enabledParam: 'issues_enabled', column: 'issuesEnabled', default: 'enabled' },
  merge_requests: { enabledParam: 'merge_requests_enabled', column: 'mergeRequestsEnabled', default: 'enabled' },
  builds: { enabledParam: 'jobs_enabled', default: 'enabled' },
  wiki: { enabledParam: 'wiki_enabled', default: 'enabled' },
  snippets: { enabledParam: 'snippets_enabled', default: 'enabled' },
  container_registry: { enabledParam: 'container_registry_enabled', default: 'enabled' },
  repository: { default: 'enabled' },
  forking: { default: 'enabled' },
  pages: { default: 'private' },
  analytics: { default: 'enabled' },
  operations: { default: 'enabled' },
  requirements: { default: 'enabled' },
  security_and_compliance: { default: 'private' },
  environments: { default: 'enabled' },
  feature_flags: { default: 'enabled' },
  infrastructure: { default: 'enabled' },
  releases: { default: 'enabled' },
  monitor: { default: 'enabled' },
  model_experiments: { default: 'enabled' },
  model_registry: { default: 'enabled' },
};

/** Every other stored project attribute with the value GitLab gives a new project. */
export const PROJECT_SETTING_DEFAULTS = {
  resolve_outdated_diff_discussions: false,
  shared_runners_enabled: true,
  group_runners_enabled: true,
  public_jobs: true,
  ci_default_git_depth: 20,
  ci_forward_deployment_enabled: true,
  ci_forward_deployment_rollback_allowed: true,
  ci_separated_caches: true,
  ci_allow_fork_pipelines_to_run_in_parent_project: true,
  ci_job_token_scope_enabled: false,
  ci_config_path: '',
  ci_pipeline_variables_minimum_override_role: 'developer',
  build_timeout: 3600,
  auto_cancel_pending_pipelines: 'enabled',
  build_git_strategy: 'fetch',
  keep_latest_artifact: true,
  restrict_user_defined_variables: false,
  only_allow_merge_if_pipeline_succeeds: false,
  allow_merge_on_skipped_pipeline: false,
  only_allow_merge_if_all_discussions_are_resolved: false,
  remove_source_branch_after_merge: true,
  printing_merge_request_link_enabled: true,
  request_access_enabled: true,
  autoclose_referenced_issues: true,
  squash_option: 'default_off',
  suggestion_commit_message: null,
  merge_commit_template: null,
  squash_commit_template: null,
  issue_branch_template: null,
  lfs_enabled: true,
  emails_disabled: false,
  emails_enabled: true,
  show_default_award_emojis: true,
  warn_about_potentially_unwanted_characters: true,
  enforce_auth_checks_on_uploads: true,
  mr_default_target_self: false,
  packages_enabled: true,
  service_desk_enabled: false,
  auto_devops_enabled: false,
  auto_devops_deploy_strategy: 'continuous',
  repository_storage: 'default',
  mirror: false,
  mirror_trigger_builds: false,
  only_mirror_protected_branches: false,
  mirror_overwrites_diverged_branches: false,
  mirror_user_id: null,
  external_authorization_classification_label: null,
  approvals_before_merge: 0,
  merge_pipelines_enabled: false,
  merge_trains_enabled: false,
} as const satisfies Record<string, unknown>;

export type ProjectSettingKey = keyof typeof PROJECT_SETTING_DEFAULTS;

/** Attributes GitLab accepts only on PREMIUM and above (silently dropped on lower tiers). */
export const PREMIUM_PROJECT_SETTINGS: ReadonlySet<string> = new Set([
  'approvals_before_merge',
  'mirror',
  'mirror_trigger_builds',
  'only_mirror_protected_branches',
  'mirror_overwrites_diverged_branches',
  'mirror_user_id',
  'external_authorization_classification_label',
  'merge_pipelines_enabled',
  'merge_trains_enabled',
]);

/** Deprecated parameter names and their current names. */
const ALIASES: Readonly<Record<string, string>> = {
  public_builds: 'public_jobs',
  only_allow_merge_if_build_succeeds: 'only_allow_merge_if_pipeline_succeeds',
};

const isSettingKey = (key: string): key is ProjectSettingKey => Object.prototype.hasOwnProperty.call(PROJECT_SETTING_DEFAULTS, key);

/** A stored setting, or GitLab's default for it. */
export function projectSetting<K extends ProjectSettingKey>(project: Pick<ProjectEntity, 'settings'>, key: K): unknown {
  const stored = project.settings?.[key];
  return stored === undefined ? PROJECT_SETTING_DEFAULTS[key] : stored;
}

/** The access level of a feature, from its column or setting. */
export function featureAccessLevel(project: Pick<ProjectEntity, 'settings' | 'issuesEnabled' | 'mergeRequestsEnabled'>, feature: string): FeatureAccessLevel {
  const spec = PROJECT_FEATURES[feature];
  if (!spec) throw new Error(`Unknown project feature ${feature}`);
  if (spec.column && project[spec.column] === false) return 'disabled';
  const stored = project.settings?.[`${feature}_access_level`] as FeatureAccessLevel | undefined;
  if (spec.column && stored === 'disabled') return spec.default;
  return stored ?? spec.default;
}

export const featureEnabled = (project: Pick<ProjectEntity, 'settings' | 'issuesEnabled' | 'mergeRequestsEnabled'>, feature: string): boolean =>
  featureAccessLevel(project, feature) !== 'disabled';

/**
 * Applies validated request attributes (feature booleans and access levels, settings,
 * `merge_method`) to a project entity. Unknown keys are ignored; PREMIUM-only attributes are
 * ignored below PREMIUM. Returns the names of the attributes that changed.
 */
export function applyProjectAttributes(
  project: Pick<ProjectEntity, 'settings' | 'issuesEnabled' | 'mergeRequestsEnabled' | 'mergeMethod'>,
  input: Record<string, unknown>,
  options: { premium: boolean },
): string[] {
  const changed = new Set<string>();
  const settings: Record<string, unknown> = { ...(project.settings ?? {}) };

  const setFeature = (feature: string, level: FeatureAccessLevel): void => {
    const spec = PROJECT_FEATURES[feature];
    if (featureAccessLevel({ ...project, settings }, feature) === level) return;
    if (spec.column) {
      project[spec.column] = level !== 'disabled';
      if (level === 'disabled') delete settings[`${feature}_access_level`];
      else settings[`${feature}_access_level`] = level;
    } else {
      settings[`${feature}_access_level`] = level;
    }
    changed.add(`${feature}_access_level`);
  };

  for (const [feature, spec] of Object.entries(PROJECT_FEATURES)) {
    const enabled = spec.enabledParam ? input[spec.enabledParam] : undefined;
    if (typeof enabled === 'boolean') setFeature(feature, enabled ? 'enabled' : 'disabled');
    const level = input[`${feature}_access_level`];
    if (typeof level === 'string') setFeature(feature, level as FeatureAccessLevel);
  }

  for (const [rawKey, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const key = ALIASES[rawKey] ?? rawKey;
    if (!isSettingKey(key)) continue;
    if (PREMIUM_PROJECT_SETTINGS.has(key) && !options.premium) continue;
    if (projectSetting({ settings }, key) === value) continue;
    settings[key] = value;
    changed.add(key);
  }
  // GitLab keeps the two e-mail switches opposite of each other.
  if (changed.has('emails_disabled') && !('emails_enabled' in input)) settings.emails_enabled = !settings.emails_disabled;
  else if (changed.has('emails_enabled') && !('emails_disabled' in input)) settings.emails_disabled = !settings.emails_enabled;

  const mergeMethod = input.merge_method;
  if (typeof mergeMethod === 'string' && mergeMethod !== project.mergeMethod) {
    project.mergeMethod = mergeMethod as ProjectEntity['mergeMethod'];
    changed.add('merge_method');
  }
  project.settings = settings;
  return [...changed];
}

/** Topics from `topics` (array) or the deprecated `tag_list`: trimmed, unique, order kept. */
export function normalizeTopics(topics: readonly string[] | undefined, tagList: readonly string[] | undefined): string[] | undefined {
  const source = topics ?? tagList;
  if (source === undefined) return undefined;
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of source) {
    const topic = String(raw).trim();
    if (topic && !seen.has(topic.toLowerCase())) {
      seen.add(topic.toLowerCase());
      result.push(topic);
    }
  }
  return result;
}
