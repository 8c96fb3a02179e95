import { DbInt, IsOptionalNotNull, NullToEmpty, ToBoolean, ToInt, ToIntArray } from '@app/api';
import { IsBoolean, IsDefined, IsIn, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { IsCustomAttributesFilter } from '@app/custom-attributes';
import { VISIBILITIES, Visibility } from '../entities/namespace.entity';
import { PROJECT_CREATION_LEVELS, SUBGROUP_CREATION_LEVELS } from '../settings/group-settings';
import { GROUP_ORDER_COLUMNS, GroupOrderBy } from '../repositories/groups.repository';

/** Group attributes accepted by create and update. */
export class GroupAttributesDto {
  /** null clears it (stored as '', GitLab's empty description). */
  @IsOptional() @NullToEmpty() @IsString() @MaxLength(2000) description?: string;
  @IsOptionalNotNull() @IsIn(VISIBILITIES) visibility?: Visibility;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() share_with_group_lock?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() require_two_factor_authentication?: boolean;
  @IsOptionalNotNull() @ToInt() @DbInt() two_factor_grace_period?: number;
  @IsOptionalNotNull() @IsIn(PROJECT_CREATION_LEVELS) project_creation_level?: string;
  @IsOptionalNotNull() @IsIn(SUBGROUP_CREATION_LEVELS) subgroup_creation_level?: string;
  @IsOptional() @ToBoolean() @IsBoolean() auto_devops_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() emails_disabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() emails_enabled?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() mentions_disabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() lfs_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() request_access_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() math_rendering_limits_enabled?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() lock_math_rendering_limits_enabled?: boolean;
  @IsOptional() @IsString() @MaxLength(255) default_branch?: string;
  @IsOptionalNotNull() @ToInt() @IsIn([0, 1, 2, 3, 4]) default_branch_protection?: number;
  @IsOptionalNotNull() @IsIn(['enabled', 'disabled_and_overridable', 'disabled_and_unoverridable', 'disabled_with_override']) shared_runners_setting?: string;
  @IsOptional() @ToInt() @DbInt() max_artifacts_size?: number;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() prevent_sharing_groups_outside_hierarchy?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() prevent_forking_outside_group?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() membership_lock?: boolean;
  @IsOptionalNotNull() @IsIn(['disabled', 'private', 'enabled']) wiki_access_level?: string;
  @IsOptional() @ToInt() @DbInt() shared_runners_minutes_limit?: number;
  @IsOptional() @ToInt() @DbInt() extra_shared_runners_minutes_limit?: number;
  @IsOptional() @ToInt() @DbInt() file_template_project_id?: number;
  @IsOptional() @IsString() ip_restriction_ranges?: string;
}

export class CreateGroupDto extends GroupAttributesDto {
  @IsDefined() @IsString() name: string;
  @IsDefined() @IsString() path: string;
  @IsOptional() @ToInt() @DbInt() parent_id?: number;
}

export class UpdateGroupDto extends GroupAttributesDto {
  @IsOptionalNotNull() @IsString() name?: string;
  @IsOptionalNotNull() @IsString() path?: string;
}

export class ListGroupsDto {
  @IsOptional() @IsString() search?: string;
  @IsOptional() @ToBoolean() @IsBoolean() owned?: boolean;
  @IsOptional() @ToInt() @DbInt() min_access_level?: number;
  @IsOptional() @ToBoolean() @IsBoolean() all_available?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() top_level_only?: boolean;
  @IsOptional() @ToIntArray() @DbInt({ each: true }) skip_groups?: number[];
  @IsOptional() @IsIn(VISIBILITIES) visibility?: Visibility;
  @IsOptional() @IsIn(GROUP_ORDER_COLUMNS) order_by?: GroupOrderBy;
  @IsOptional() @IsIn(['asc', 'desc']) sort?: 'asc' | 'desc';
  @IsOptional() @ToBoolean() @IsBoolean() statistics?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() with_custom_attributes?: boolean;
  /** `custom_attributes[key]=value` (administrators). */
  @IsOptional() @IsCustomAttributesFilter() custom_attributes?: Record<string, string>;
}

export class GetGroupDto {
  @IsOptional() @ToBoolean() @IsBoolean() with_projects?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() with_custom_attributes?: boolean;
}

const NOT_SETTINGS = new Set(['name', 'path', 'parent_id', 'description', 'visibility']);

/** The group attributes that live in `settings` (everything but name, path, parent, description, visibility). */
export function groupSettingsOf(dto: GroupAttributesDto): Record<string, unknown> {
  return Object.fromEntries(Object.entries(dto).filter(([key, value]) => !NOT_SETTINGS.has(key) && value !== undefined));
}
