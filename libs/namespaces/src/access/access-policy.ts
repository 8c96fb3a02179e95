import { ACCESS_LEVELS } from '../entities/member.entity';
import { Visibility, VISIBILITY_LEVEL } from '../entities/namespace.entity';

/** The caller as the access rules see it (null = anonymous). */
export interface AccessUser {
  id: number;
  isAdmin: boolean;
  external: boolean;
}

/** GitLab's names of the access levels (system hook payloads, error texts). */
export const ACCESS_LEVEL_NAMES: Readonly<Record<number, string>> = {
  [ACCESS_LEVELS.NO_ACCESS]: 'No access',
  [ACCESS_LEVELS.MINIMAL]: 'Minimal Access',
  [ACCESS_LEVELS.GUEST]: 'Guest',
  [ACCESS_LEVELS.REPORTER]: 'Reporter',
  [ACCESS_LEVELS.DEVELOPER]: 'Developer',
  [ACCESS_LEVELS.MAINTAINER]: 'Maintainer',
  [ACCESS_LEVELS.OWNER]: 'Owner',
  [ACCESS_LEVELS.ADMIN]: 'Admin',
};

export const accessLevelName = (level: number): string => ACCESS_LEVEL_NAMES[level] ?? String(level);

/** Levels a project membership may have. */
export const PROJECT_MEMBER_LEVELS: readonly number[] = [10, 20, 30, 40, 50];
/** Levels a group membership may have (Minimal Access included). */
export const GROUP_MEMBER_LEVELS: readonly number[] = [5, 10, 20, 30, 40, 50];

/** A membership counts until the day before `expires_at` (GitLab removes it on that day). */
export function isMembershipActive(expiresAt: string | null | undefined, today: string): boolean {
  return !expiresAt || expiresAt > today;
}

/** Today's date (UTC) as `YYYY-MM-DD`, the format of `expires_at`. */
export const utcToday = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

/**
 * Effective access level: administrators 60; otherwise the highest of the active memberships
 * (direct and inherited from every ancestor group) and 50 for the owner of a personal namespace.
 */
export function effectiveAccessLevel(user: AccessUser | null, input: { memberLevels: readonly number[]; ownsNamespace?: boolean }): number {
  if (!user) return ACCESS_LEVELS.NO_ACCESS;
  if (user.isAdmin) return ACCESS_LEVELS.ADMIN;
  const owner = input.ownsNamespace ? ACCESS_LEVELS.OWNER : ACCESS_LEVELS.NO_ACCESS;
  return Math.max(ACCESS_LEVELS.NO_ACCESS, owner, ...input.memberLevels);
}

/**
 * Whether a project or group can be seen: public by everyone (anonymous included), internal
 * by every signed-in user who is not external, private by members (any level) and
 * administrators. `hasDescendantAccess`: the user is a member of a subgroup or project inside
 * the group, which makes the group itself readable (GitLab's `has_projects` rule).
 */
export function canSee(visibility: Visibility, user: AccessUser | null, accessLevel: number, options: { hasDescendantAccess?: boolean } = {}): boolean {
  if (visibility === 'public') return true;
  if (!user) return false;
  if (user.isAdmin || accessLevel > ACCESS_LEVELS.NO_ACCESS || options.hasDescendantAccess) return true;
  return visibility === 'internal' && !user.external;
}

/** Whether `child` is at most as visible as `parent` (a project in a group, a subgroup in its parent). */
export const visibilityWithin = (child: Visibility, parent: Visibility): boolean => VISIBILITY_LEVEL[child] <= VISIBILITY_LEVEL[parent];

/** The most visible of several visibilities (`private` for none). */
export function mostVisible(visibilities: readonly Visibility[]): Visibility {
  return visibilities.reduce<Visibility>((best, v) => (VISIBILITY_LEVEL[v] > VISIBILITY_LEVEL[best] ? v : best), 'private');
}

/** Only owners (or administrators) grant, change or remove the Owner role. */
export function canManageMemberLevel(actorLevel: number, currentLevel: number | null, newLevel: number | null): boolean {
  const touchesOwner = (currentLevel ?? 0) >= ACCESS_LEVELS.OWNER || (newLevel ?? 0) >= ACCESS_LEVELS.OWNER;
  return !touchesOwner || actorLevel >= ACCESS_LEVELS.OWNER;
}

/** Minimum level required by a group's `project_creation_level` setting (Infinity: administrators only). */
export function projectCreationMinLevel(setting: unknown): number {
  switch (setting) {
    case 'noone':
      return Number.POSITIVE_INFINITY;
    case 'owner':
      return ACCESS_LEVELS.OWNER;
    case 'maintainer':
      return ACCESS_LEVELS.MAINTAINER;
    default:
      return ACCESS_LEVELS.DEVELOPER;
  }
}

/** Minimum level required by a group's `subgroup_creation_level` setting. */
export const subgroupCreationMinLevel = (setting: unknown): number => (setting === 'owner' ? ACCESS_LEVELS.OWNER : ACCESS_LEVELS.MAINTAINER);
