import { tierAtLeast } from '@app/api';
import type { ServiceTier } from '@app/config';
import type { NamespaceEntity } from '../entities/namespace.entity';
import { branchProtectionDefaults, groupSetting } from '../settings/group-settings';
import { namespaceWebUrl } from './namespace.presenter';

export interface GroupPresentOptions {
  externalUrl: string;
  tier: ServiceTier;
}

/** GitLab's `Group` entity (list items, create/update responses of lists). */
export function presentGroup(group: NamespaceEntity, options: GroupPresentOptions): Record<string, unknown> {
  const setting = (key: Parameters<typeof groupSetting>[1]) => groupSetting(group, key);
  const protection = Number(setting('default_branch_protection'));
  const view: Record<string, unknown> = {
    id: group.id,
    web_url: namespaceWebUrl(group, options.externalUrl),
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: group.visibility,
    share_with_group_lock: setting('share_with_group_lock'),
    require_two_factor_authentication: setting('require_two_factor_authentication'),
    two_factor_grace_period: setting('two_factor_grace_period'),
    project_creation_level: setting('project_creation_level'),
    auto_devops_enabled: setting('auto_devops_enabled'),
    subgroup_creation_level: setting('subgroup_creation_level'),
    emails_disabled: setting('emails_disabled'),
    emails_enabled: setting('emails_enabled'),
    mentions_disabled: setting('mentions_disabled'),
    lfs_enabled: setting('lfs_enabled'),
    math_rendering_limits_enabled: setting('math_rendering_limits_enabled'),
    lock_math_rendering_limits_enabled: setting('lock_math_rendering_limits_enabled'),
    default_branch: setting('default_branch'),
    default_branch_protection: protection,
    default_branch_protection_defaults: branchProtectionDefaults(protection),
    avatar_url: null,
    request_access_enabled: setting('request_access_enabled'),
    full_name: group.fullName,
    full_path: group.fullPath,
    created_at: group.createdAt.toISOString(),
    parent_id: group.parentId,
    organization_id: 1,
    shared_runners_setting: setting('shared_runners_setting'),
    max_artifacts_size: setting('max_artifacts_size'),
    ldap_cn: null,
    ldap_access: null,
  };
  if (tierAtLeast(options.tier, 'premium')) {
    view.wiki_access_level = setting('wiki_access_level');
    view.marked_for_deletion_on = null;
  }
  return view;
}

/** GitLab's `GroupDetail` entity (`GET /groups/:id`, create and update responses). */
export function presentGroupDetail(
  group: NamespaceEntity,
  options: GroupPresentOptions,
  extras: { projects?: Record<string, unknown>[]; sharedProjects?: Record<string, unknown>[] } = {},
): Record<string, unknown> {
  const view: Record<string, unknown> = {
    ...presentGroup(group, options),
    shared_with_groups: [],
    prevent_sharing_groups_outside_hierarchy: groupSetting(group, 'prevent_sharing_groups_outside_hierarchy'),
  };
  if (extras.projects) view.projects = extras.projects;
  if (extras.sharedProjects) view.shared_projects = extras.sharedProjects;
  if (tierAtLeast(options.tier, 'premium')) {
    view.shared_runners_minutes_limit = groupSetting(group, 'shared_runners_minutes_limit');
    view.extra_shared_runners_minutes_limit = groupSetting(group, 'extra_shared_runners_minutes_limit');
    view.prevent_forking_outside_group = groupSetting(group, 'prevent_forking_outside_group');
    view.membership_lock = groupSetting(group, 'membership_lock');
    view.ip_restriction_ranges = groupSetting(group, 'ip_restriction_ranges');
    view.file_template_project_id = groupSetting(group, 'file_template_project_id');
  }
  return view;
}
