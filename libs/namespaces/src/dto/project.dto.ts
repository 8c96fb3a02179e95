import { DbInt, EmptyToNull, IsOptionalNotNull, ToBoolean, ToInt, ToStringArray } from '@app/api';
import { IsArray, IsBoolean, IsIn, IsISO8601, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsCustomAttributesFilter } from '@app/custom-attributes';
import { VISIBILITIES, Visibility } from '../entities/namespace.entity';
import { PROJECT_ORDER_COLUMNS, ProjectOrderBy, USER_PROJECT_ORDER_COLUMNS } from '../repositories/projects.repository';
import { ToRefString } from './transforms';

const LEVELS = ['disabled', 'private', 'enabled'];

/** Project attributes accepted by create and update (GitLab's `optional_project_params`). */
export class ProjectAttributesDto {
  @IsOptional() @EmptyToNull() @IsString() @MaxLength(2000) description?: string | null;
  @IsOptionalNotNull() @IsIn(VISIBILITIES) visibility?: Visibility;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(255) default_branch?: string;
  @IsOptionalNotNull() @ToStringArray() @IsArray() @IsString({ each: true }) @MaxLength(255, { each: true }) topics?: string[];
  @IsOptionalNotNull() @ToStringArray() @IsArray() @IsString({ each: true }) @MaxLength(255, { each: true }) tag_list?: string[];

  @IsOptionalNotNull() @ToBoolean() @IsBoolean() issues_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() merge_requests_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() jobs_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() wiki_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() snippets_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() container_registry_enabled?: boolean;

  @IsOptionalNotNull() @IsIn(LEVELS) issues_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) merge_requests_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) builds_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) wiki_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) snippets_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) container_registry_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) repository_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) forking_access_level?: string;
  @IsOptionalNotNull() @IsIn([...LEVELS, 'public']) pages_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) analytics_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) operations_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) requirements_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) security_and_compliance_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) environments_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) feature_flags_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) infrastructure_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) releases_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) monitor_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) model_experiments_access_level?: string;
  @IsOptionalNotNull() @IsIn(LEVELS) model_registry_access_level?: string;

  @IsOptionalNotNull() @ToBoolean() @IsBoolean() resolve_outdated_diff_discussions?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() shared_runners_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() group_runners_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() public_jobs?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() public_builds?: boolean;
  @IsOptionalNotNull() @ToInt() @DbInt() @Max(1000) ci_default_git_depth?: number;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() ci_forward_deployment_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() ci_forward_deployment_rollback_allowed?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() ci_separated_caches?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() ci_allow_fork_pipelines_to_run_in_parent_project?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() ci_job_token_scope_enabled?: boolean;
  @IsOptional() @IsString() @MaxLength(255) ci_config_path?: string;
  @IsOptionalNotNull() @IsIn(['no_one_allowed', 'developer', 'maintainer', 'owner']) ci_pipeline_variables_minimum_override_role?: string;
  @IsOptionalNotNull() @ToInt() @DbInt({ min: 600 }) @Max(2_592_000) build_timeout?: number;
  @IsOptionalNotNull() @IsIn(['enabled', 'disabled']) auto_cancel_pending_pipelines?: string;
  @IsOptionalNotNull() @IsIn(['fetch', 'clone']) build_git_strategy?: string;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() keep_latest_artifact?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() restrict_user_defined_variables?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() only_allow_merge_if_pipeline_succeeds?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() only_allow_merge_if_build_succeeds?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() allow_merge_on_skipped_pipeline?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() only_allow_merge_if_all_discussions_are_resolved?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() remove_source_branch_after_merge?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() printing_merge_request_link_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() request_access_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() autoclose_referenced_issues?: boolean;
  @IsOptionalNotNull() @IsIn(['merge', 'rebase_merge', 'ff']) merge_method?: string;
  @IsOptionalNotNull() @IsIn(['never', 'always', 'default_on', 'default_off']) squash_option?: string;
  @IsOptional() @EmptyToNull() @IsString() @MaxLength(255) suggestion_commit_message?: string | null;
  @IsOptional() @EmptyToNull() @IsString() @MaxLength(500) merge_commit_template?: string | null;
  @IsOptional() @EmptyToNull() @IsString() @MaxLength(500) squash_commit_template?: string | null;
  @IsOptional() @EmptyToNull() @IsString() @MaxLength(255) issue_branch_template?: string | null;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() lfs_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() emails_disabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() emails_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() show_default_award_emojis?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() warn_about_potentially_unwanted_characters?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() enforce_auth_checks_on_uploads?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() mr_default_target_self?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() packages_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() service_desk_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() auto_devops_enabled?: boolean;
  @IsOptionalNotNull() @IsIn(['continuous', 'manual', 'timed_incremental']) auto_devops_deploy_strategy?: string;
  @IsOptionalNotNull() @ToInt() @DbInt() approvals_before_merge?: number;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() mirror?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() mirror_trigger_builds?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() only_mirror_protected_branches?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() mirror_overwrites_diverged_branches?: boolean;
  @IsOptional() @ToInt() @DbInt() mirror_user_id?: number;
  @IsOptional() @EmptyToNull() @IsString() @MaxLength(255) external_authorization_classification_label?: string | null;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() merge_pipelines_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() merge_trains_enabled?: boolean;
}

export class CreateProjectDto extends ProjectAttributesDto {
  @IsOptionalNotNull() @IsString() name?: string;
  @IsOptionalNotNull() @IsString() path?: string;
  /** Id or full path of the target namespace. */
  @IsOptional() @ToRefString() @IsString() @MinLength(1) namespace_id?: string;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() initialize_with_readme?: boolean;
}

export class UpdateProjectDto extends ProjectAttributesDto {
  @IsOptionalNotNull() @IsString() name?: string;
  @IsOptionalNotNull() @IsString() path?: string;
}

export class GetProjectDto {
  @IsOptional() @ToBoolean() @IsBoolean() statistics?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() license?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() with_custom_attributes?: boolean;
}

/** Access levels `min_access_level` accepts. */
export const MIN_ACCESS_LEVELS = [5, 10, 15, 20, 30, 40, 50];

/** Parameters shared by `GET /projects`, `GET /users/:user_id/projects` and `GET /users/:user_id/starred_projects`. */
export class ProjectListBaseDto {
  @IsOptional() @ToBoolean() @IsBoolean() archived?: boolean;
  @IsOptional() @IsIn(VISIBILITIES) visibility?: Visibility;
  @IsOptional() @IsString() @MaxLength(255) search?: string;
  @IsOptional() @ToBoolean() @IsBoolean() owned?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() membership?: boolean;
  @IsOptional() @ToInt() @IsIn(MIN_ACCESS_LEVELS) min_access_level?: number;
  @IsOptional() @ToBoolean() @IsBoolean() simple?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() statistics?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() starred?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() with_issues_enabled?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() with_merge_requests_enabled?: boolean;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(255) with_programming_language?: string;
  @IsOptional() @ToInt() @DbInt() id_after?: number;
  @IsOptional() @ToInt() @DbInt() id_before?: number;
  @IsOptional() @IsIn(['asc', 'desc']) sort?: 'asc' | 'desc';
  @IsOptional() @ToBoolean() @IsBoolean() with_custom_attributes?: boolean;
}

export class ListProjectsDto extends ProjectListBaseDto {
  @IsOptional() @ToBoolean() @IsBoolean() search_namespaces?: boolean;
  @IsOptional() @ToStringArray() @IsArray() @IsString({ each: true }) topic?: string[];
  @IsOptional() @ToInt() @DbInt({ min: 1 }) topic_id?: number;
  @IsOptional() @IsISO8601() last_activity_after?: string;
  @IsOptional() @IsISO8601() last_activity_before?: string;
  @IsOptional() @IsIn(PROJECT_ORDER_COLUMNS) order_by?: ProjectOrderBy;
  @IsOptional() @ToBoolean() @IsBoolean() imported?: boolean;
  /** Administrators only (ignored for others). */
  @IsOptional() @IsString() @MaxLength(255) repository_storage?: string;
  /** PREMIUM: checksums never fail here. */
  @IsOptional() @ToBoolean() @IsBoolean() repository_checksum_failed?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() wiki_checksum_failed?: boolean;
  /** Deprecated, accepted and ignored. */
  @IsOptional() @IsString() build_coverage_regex?: string;
  /** `custom_attributes[key]=value` (administrators). */
  @IsOptional() @IsCustomAttributesFilter() custom_attributes?: Record<string, string>;
}

/** `GET /users/:user_id/projects` and `/starred_projects`: the subset of filters, orders usable with keyset pagination. */
export class ListUserProjectsDto extends ProjectListBaseDto {
  @IsOptional() @IsIn(USER_PROJECT_ORDER_COLUMNS) order_by?: (typeof USER_PROJECT_ORDER_COLUMNS)[number];
}

export class StarrersDto {
  @IsOptional() @IsString() @MaxLength(255) search?: string;
}

export class ListTopicsDto {
  @IsOptional() @IsString() @MaxLength(255) search?: string;
  @IsOptional() @ToBoolean() @IsBoolean() without_projects?: boolean;
}

/** `GET /groups/:id/projects` adds `include_subgroups`. */
export class ListGroupProjectsDto extends ListProjectsDto {
  @IsOptional() @ToBoolean() @IsBoolean() include_subgroups?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() with_shared?: boolean;
}

const NOT_ATTRIBUTES = new Set(['name', 'path', 'namespace_id', 'initialize_with_readme', 'description', 'visibility', 'default_branch', 'topics', 'tag_list']);

/** The attributes handled by `applyProjectAttributes` (feature switches, settings, merge method). */
export function projectAttributesOf(dto: ProjectAttributesDto): Record<string, unknown> {
  return Object.fromEntries(Object.entries(dto).filter(([key, value]) => !NOT_ATTRIBUTES.has(key) && value !== undefined));
}
