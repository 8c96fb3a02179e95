/**
 * Every application setting: its type, GitLab's default, the tier that exposes it, whether it
 * is a secret (stored encrypted, never returned) and its validation rules. The API record,
 * the validator and the cache all read this one table.
 */

export type SettingType = 'boolean' | 'integer' | 'float' | 'string' | 'string_array' | 'integer_array' | 'weights';

export type SettingFormat =
  'email' | 'url' | 'url_list' | 'hostname' | 'duration' | 'duration_or_never' | 'token_prefix' | 'branch_name' | 'ip_list' | 'domain_list';

export type SettingValue = boolean | number | string | string[] | number[] | Record<string, number> | null;

/** What defaults may depend on: the instance's own host and the configured session lifetime. */
export interface SettingsContext {
  host: string;
  sessionExpireDelayMinutes: number;
}

export interface SettingDefinition {
  type: SettingType;
  default: SettingValue | ((context: SettingsContext) => SettingValue);
  /** Exposed and writable only on this tier and above. */
  tier?: 'premium';
  /** Stored encrypted at rest and never returned. */
  secret?: boolean;
  /** `null` (or an empty string for strings) is accepted and clears the value. */
  nullable?: boolean;
  /** Accepted values (after type coercion). */
  values?: ReadonlyArray<string | number | null>;
  /** Accepted values of each element of an array. */
  itemValues?: readonly string[];
  min?: number;
  max?: number;
  /** Floats: the value must be a multiple of this step. */
  step?: number;
  maxLength?: number;
  format?: SettingFormat;
}

const INT32_MAX = 2_147_483_647;
const SHORT = 255;
const TEXT = 65_535;

const bool = (value: boolean, extra: Partial<SettingDefinition> = {}): SettingDefinition => ({ type: 'boolean', default: value, ...extra });
const int = (value: SettingDefinition['default'], extra: Partial<SettingDefinition> = {}): SettingDefinition => ({
  type: 'integer',
  default: value,
  min: 0,
  max: INT32_MAX,
  nullable: value === null,
  ...extra,
});
const str = (value: SettingDefinition['default'] = null, extra: Partial<SettingDefinition> = {}): SettingDefinition => ({
  type: 'string',
  default: value,
  nullable: true,
  maxLength: SHORT,
  ...extra,
});
const text = (extra: Partial<SettingDefinition> = {}): SettingDefinition => str(null, { maxLength: TEXT, ...extra });
const secret = (extra: Partial<SettingDefinition> = {}): SettingDefinition => str(null, { secret: true, maxLength: TEXT, ...extra });
const strings = (value: SettingDefinition['default'], extra: Partial<SettingDefinition> = {}): SettingDefinition => ({
  type: 'string_array',
  default: value,
  nullable: true,
  ...extra,
});
const premium = (definition: SettingDefinition): SettingDefinition => ({ ...definition, tier: 'premium' });

export const VISIBILITY_NAMES = ['private', 'internal', 'public'] as const;
export const VISIBILITY_LEVELS: Record<string, string> = { '0': 'private', '10': 'internal', '20': 'public' };
export const IMPORT_SOURCES = ['github', 'bitbucket', 'bitbucket_server', 'fogbugz', 'git', 'gitlab_project', 'gitea', 'manifest'] as const;
export const REPOSITORY_STORAGES = ['default'] as const;

export const SETTING_DEFINITIONS = {
  admin_mode: bool(false),
  abuse_notification_email: str(null, { format: 'email' }),
  after_sign_out_path: str(null, { format: 'url' }),
  after_sign_up_text: text(),
  spamcheck_enabled: bool(false),
  spamcheck_api_key: secret(),
  allow_group_owners_to_manage_ldap: premium(bool(true)),
  allow_local_requests_from_web_hooks_and_services: bool(false),
  allow_local_requests_from_system_hooks: bool(true),
  archive_builds_in_human_readable: str(null, { format: 'duration' }),
  asset_proxy_enabled: bool(false),
  asset_proxy_secret_key: secret(),
  asset_proxy_url: str(null, { format: 'url' }),
  asset_proxy_allowlist: strings(({ host }) => [host], { format: 'domain_list' }),
  authorized_keys_enabled: bool(true),
  auto_devops_domain: str(),
  auto_devops_enabled: bool(true),
  automatic_purchased_storage_allocation: bool(false),
  check_namespace_plan: premium(bool(false)),
  commit_email_hostname: str(({ host }) => `users.noreply.${host}`, { format: 'hostname' }),
  container_expiration_policies_enable_historic_entries: bool(false),
  container_registry_cleanup_tags_service_max_list_size: int(200),
  container_registry_delete_tags_service_timeout: int(250),
  container_registry_expiration_policies_caching: bool(true),
  container_registry_expiration_policies_worker_capacity: int(4),
  container_registry_token_expire_delay: int(5, { min: 1 }),
  deactivate_dormant_users: bool(false),
  default_artifacts_expire_in: str('30 days', { format: 'duration_or_never', nullable: false }),
  default_branch_name: str(null, { format: 'branch_name' }),
  default_branch_protection: int(2, { values: [0, 1, 2] }),
  default_ci_config_path: str(),
  default_group_visibility: str('private', { values: VISIBILITY_NAMES, nullable: false }),
  default_project_creation: int(2, { values: [0, 1, 2] }),
  default_project_visibility: str('private', { values: VISIBILITY_NAMES, nullable: false }),
  default_projects_limit: int(100000),
  default_snippet_visibility: str('private', { values: VISIBILITY_NAMES, nullable: false }),
  delayed_project_deletion: premium(bool(false)),
  delayed_group_deletion: premium(bool(true)),
  delete_inactive_projects: bool(false),
  deletion_adjourned_period: premium(int(7, { min: 1, max: 90 })),
  diff_max_patch_bytes: int(204800, { min: 1 }),
  diff_max_files: int(1000, { min: 1 }),
  diff_max_lines: int(50000, { min: 1 }),
  disable_feed_token: bool(false),
  disabled_oauth_sign_in_sources: strings([], { nullable: false }),
  dns_rebinding_protection_enabled: bool(true),
  domain_denylist_enabled: bool(false),
  domain_denylist: strings([], { format: 'domain_list' }),
  domain_allowlist: strings(null, { format: 'domain_list' }),
  dsa_key_restriction: int(0, { min: -1 }),
  ecdsa_key_restriction: int(0, { min: -1 }),
  ecdsa_sk_key_restriction: int(0, { min: -1 }),
  ed25519_key_restriction: int(0, { min: -1 }),
  ed25519_sk_key_restriction: int(0, { min: -1 }),
  kubesvc_access_key_id: str(),
  kubesvc_account_id: str(),
  kubesvc_secret_access_key: secret(),
  kubesvc_integration_enabled: bool(false),
  searchengine_aws_access_key: premium(str()),
  searchengine_aws_region: premium(str('us-east-1')),
  searchengine_aws_secret_access_key: premium(secret()),
  searchengine_aws: premium(bool(false)),
  searchengine_indexed_field_length_limit: premium(int(0)),
  searchengine_indexed_file_size_limit_kb: premium(int(1024, { min: 1 })),
  searchengine_indexing: premium(bool(false)),
  searchengine_limit_indexing: premium(bool(false)),
  searchengine_search: premium(bool(false)),
  searchengine_max_bulk_concurrency: premium(int(10, { min: 1 })),
  searchengine_max_bulk_size_mb: premium(int(10, { min: 1 })),
  searchengine_namespace_ids: premium({ type: 'integer_array', default: [] }),
  searchengine_project_ids: premium({ type: 'integer_array', default: [] }),
  searchengine_url: premium(str('http://localhost:9200', { format: 'url_list', maxLength: TEXT })),
  searchengine_username: premium(str()),
  searchengine_password: premium(secret()),
  email_additional_text: premium(text({ maxLength: 10_000 })),
  email_author_in_body: bool(false),
  enabled_git_access_protocol: str(null, { values: ['ssh', 'http', null] }),
  enforce_namespace_storage_limit: bool(false),
  enforce_terms: bool(false),
  external_auth_client_cert: text(),
  external_auth_client_key: secret(),
  external_auth_client_key_pass: secret(),
  external_authorization_service_enabled: bool(false),
  external_authorization_service_default_label: str(),
  external_authorization_service_timeout: { type: 'float', default: 0.5, min: 0.001, max: 10, step: 0.001 },
  external_authorization_service_url: str(null, { format: 'url' }),
  external_pipeline_validation_service_url: str(null, { format: 'url' }),
  external_pipeline_validation_service_token: secret(),
  external_pipeline_validation_service_timeout: int(null, { min: 1 }),
  file_template_project_id: premium(int(null, { min: 1 })),
  first_day_of_week: int(0, { values: [0, 1, 6] }),
  geo_node_allowed_ips: premium(str('0.0.0.0/0, ::/0', { format: 'ip_list', nullable: false, maxLength: TEXT })),
  geo_status_timeout: premium(int(10, { min: 1 })),
  git_two_factor_session_expiry: premium(int(15, { min: 1, max: 10080 })),
  repostorage_timeout_default: int(55, { max: 3600 }),
  repostorage_timeout_fast: int(10, { max: 3600 }),
  repostorage_timeout_medium: int(30, { max: 3600 }),
  metricsdash_enabled: bool(false),
  metricsdash_url: str(null, { format: 'url' }),
  avatarservice_enabled: bool(true),
  hashed_storage_enabled: bool(true),
  help_page_hide_commercial_content: bool(false),
  help_page_support_url: str(null, { format: 'url' }),
  help_page_text: text(),
  help_text: premium(text()),
  hide_third_party_offers: bool(false),
  home_page_url: str(null, { format: 'url' }),
  housekeeping_bitmaps_enabled: bool(true),
  housekeeping_enabled: bool(true),
  housekeeping_full_repack_period: int(50, { min: 1 }),
  housekeeping_gc_period: int(200, { min: 1 }),
  housekeeping_incremental_repack_period: int(10, { min: 1 }),
  html_emails_enabled: bool(true),
  import_sources: strings([...IMPORT_SOURCES], { nullable: false, itemValues: IMPORT_SOURCES }),

  // Keys of the record whose parameters the spec does not list (GitLab accepts them all).
  signup_enabled: bool(true),
  password_authentication_enabled_for_web: bool(true),
  restricted_visibility_levels: strings([], { nullable: false, itemValues: VISIBILITY_NAMES }),
  max_attachment_size: int(100, { min: 1 }),
  /** Largest job artifact file a runner may upload, in MB (GitLab's default 100). */
  max_artifacts_size: int(100, { min: 1 }),
  max_export_size: int(0),
  max_import_size: int(0),
  user_oauth_applications: bool(true),
  session_expire_delay: int(({ sessionExpireDelayMinutes }) => sessionExpireDelayMinutes, { min: 1, max: 525_599, nullable: false }),
  outbound_local_requests_whitelist: strings([], { nullable: false, format: 'domain_list' }),
  sign_in_text: text(),
  repository_storages_weighted: { type: 'weights', default: { default: 100 }, itemValues: REPOSITORY_STORAGES, min: 0, max: 100 },
  textdiagram_enabled: bool(false),
  textdiagram_url: str(null, { format: 'url' }),
  diagramserver_enabled: bool(false),
  diagramserver_url: str(null, { format: 'url' }),
  terminal_max_session_time: int(0),
  polling_interval_multiplier: { type: 'float', default: 1, min: 0, max: 1000 },
  terms: text(),
  performance_bar_allowed_group_id: int(null, { min: 1 }),
  user_show_add_ssh_key_message: bool(true),
  local_markdown_version: int(0, { max: 65_535 }),
  npm_package_requests_forwarding: bool(true),
  pypi_package_requests_forwarding: bool(true),
  snippet_size_limit: int(52_428_800, { min: 1 }),
  issues_create_limit: int(300),
  notes_create_limit: int(300),
  /** Usernames the notes create limit does not apply to (case-insensitive). */
  notes_create_limit_allowlist: strings([], { nullable: false }),
  raw_blob_request_limit: int(300),
  wiki_page_max_content_bytes: int(52_428_800, { min: 1024 }),
  require_admin_approval_after_user_signup: bool(true),
  personal_access_token_prefix: str('svcpat-', { format: 'token_prefix', maxLength: 20 }),
  rate_limiting_response_text: text(),
  /** GitLab's protected paths throttle (Rack::Attack): POST requests per IP and period to the sign-in paths; 429 beyond. */
  throttle_protected_paths_enabled: bool(true),
  throttle_protected_paths_requests_per_period: int(10, { min: 1 }),
  throttle_protected_paths_period_in_seconds: int(60, { min: 1 }),
  keep_latest_artifact: bool(true),
  floc_enabled: bool(false),
} satisfies Record<string, SettingDefinition>;

export type SettingName = keyof typeof SETTING_DEFINITIONS;

export const SETTING_NAMES = Object.keys(SETTING_DEFINITIONS) as SettingName[];

export const definitionOf = (name: string): SettingDefinition | undefined =>
  Object.prototype.hasOwnProperty.call(SETTING_DEFINITIONS, name) ? (SETTING_DEFINITIONS as Record<string, SettingDefinition>)[name] : undefined;

export const SECRET_SETTINGS: readonly SettingName[] = SETTING_NAMES.filter((name) => definitionOf(name)!.secret);

/**
 * Deprecated parameter names: written, they set their replacement; read, they mirror it
 * (GitLab keeps both in the record until API v5).
 */
export const DEPRECATED_ALIASES: Readonly<Record<string, SettingName>> = {
  admin_notification_email: 'abuse_notification_email',
  asset_proxy_whitelist: 'asset_proxy_allowlist',
  allow_local_requests_from_hooks_and_services: 'allow_local_requests_from_web_hooks_and_services',
};

/**
 * "Requires" rules (GitLab's `given ... requires`): when a request turns `flag` on, each
 * companion must be given in the same request, and must not be blank in the resulting record.
 */
export const REQUIRES_RULES: ReadonlyArray<{ flag: SettingName; companions: SettingName[] }> = [
  { flag: 'spamcheck_enabled', companions: ['spamcheck_api_key'] },
  {
    flag: 'housekeeping_enabled',
    companions: ['housekeeping_bitmaps_enabled', 'housekeeping_full_repack_period', 'housekeeping_gc_period', 'housekeeping_incremental_repack_period'],
  },
  { flag: 'domain_denylist_enabled', companions: ['domain_denylist'] },
  { flag: 'enforce_terms', companions: ['terms'] },
  {
    flag: 'external_authorization_service_enabled',
    companions: ['external_authorization_service_default_label', 'external_authorization_service_timeout', 'external_authorization_service_url'],
  },
  { flag: 'asset_proxy_enabled', companions: ['asset_proxy_url'] },
  { flag: 'textdiagram_enabled', companions: ['textdiagram_url'] },
  { flag: 'diagramserver_enabled', companions: ['diagramserver_url'] },
];

/** Settings that must not be blank while another one is set (GitLab's model validations). */
export const PRESENCE_RULES: ReadonlyArray<{ when: SettingName; required: SettingName }> = [
  ...REQUIRES_RULES.flatMap((rule) => rule.companions.map((required) => ({ when: rule.flag, required }))),
  { when: 'external_auth_client_cert', required: 'external_auth_client_key' },
];
