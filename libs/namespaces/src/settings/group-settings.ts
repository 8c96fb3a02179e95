import type { NamespaceEntity } from '../entities/namespace.entity';

export const PROJECT_CREATION_LEVELS = ['noone', 'owner', 'maintainer', 'developer'] as const;
export const SUBGROUP_CREATION_LEVELS = ['owner', 'maintainer'] as const;

/** Group attributes stored in `namespaces.settings`, with GitLab's defaults for a new group. */
export const GROUP_SETTING_DEFAULTS = {
  share_with_group_lock: false,
  require_two_factor_authentication: false,
  two_factor_grace_period: 48,
  project_creation_level: 'developer',
  auto_devops_enabled: null,
  subgroup_creation_level: 'maintainer',
  emails_disabled: false,
  emails_enabled: true,
  mentions_disabled: null,
  lfs_enabled: true,
  math_rendering_limits_enabled: true,
  lock_math_rendering_limits_enabled: false,
  default_branch: null,
  default_branch_protection: 2,
  request_access_enabled: true,
  shared_runners_setting: 'enabled',
  max_artifacts_size: null,
  prevent_sharing_groups_outside_hierarchy: false,
  prevent_forking_outside_group: null,
  membership_lock: false,
  wiki_access_level: 'enabled',
  shared_runners_minutes_limit: null,
  extra_shared_runners_minutes_limit: null,
  file_template_project_id: null,
  ip_restriction_ranges: null,
} as const satisfies Record<string, unknown>;

export type GroupSettingKey = keyof typeof GROUP_SETTING_DEFAULTS;

/** Attributes GitLab accepts only on PREMIUM and above. */
export const PREMIUM_GROUP_SETTINGS: ReadonlySet<string> = new Set([
  'membership_lock',
  'wiki_access_level',
  'shared_runners_minutes_limit',
  'extra_shared_runners_minutes_limit',
  'file_template_project_id',
  'ip_restriction_ranges',
  'prevent_forking_outside_group',
]);

const isGroupSettingKey = (key: string): key is GroupSettingKey => Object.prototype.hasOwnProperty.call(GROUP_SETTING_DEFAULTS, key);

export function groupSetting(group: Pick<NamespaceEntity, 'settings'>, key: GroupSettingKey): unknown {
  const stored = group.settings?.[key];
  return stored === undefined ? GROUP_SETTING_DEFAULTS[key] : stored;
}

/** Applies validated group attributes to `settings`; returns the names that changed. */
export function applyGroupSettings(group: Pick<NamespaceEntity, 'settings'>, input: Record<string, unknown>, options: { premium: boolean }): string[] {
  const settings: Record<string, unknown> = { ...(group.settings ?? {}) };
  const changed: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || !isGroupSettingKey(key)) continue;
    if (PREMIUM_GROUP_SETTINGS.has(key) && !options.premium) continue;
    if (groupSetting({ settings }, key) === value) continue;
    settings[key] = value;
    changed.push(key);
  }
  if (changed.includes('emails_disabled') && !('emails_enabled' in input)) settings.emails_enabled = !settings.emails_disabled;
  else if (changed.includes('emails_enabled') && !('emails_disabled' in input)) settings.emails_disabled = !settings.emails_enabled;
  group.settings = settings;
  return changed;
}

/** GitLab's `default_branch_protection_defaults` object for a `default_branch_protection` level. */
export function branchProtectionDefaults(level: number): Record<string, unknown> {
  const maintainers = [{ access_level: 40 }];
  const developers = [{ access_level: 30 }];
  switch (level) {
    case 0:
      return { allowed_to_push: developers, allow_force_push: true, allowed_to_merge: developers };
    case 1:
      return { allowed_to_push: developers, allow_force_push: false, allowed_to_merge: maintainers };
    case 3:
      return { allowed_to_push: maintainers, allow_force_push: false, allowed_to_merge: developers };
    case 4:
      return { allowed_to_push: maintainers, allow_force_push: false, allowed_to_merge: maintainers, developer_can_initial_push: true };
    default:
      return { allowed_to_push: maintainers, allow_force_push: false, allowed_to_merge: maintainers };
  }
}
