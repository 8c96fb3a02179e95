import { DomainError } from '@app/api';
import type { UserEntity } from '@app/identity';
import type { NewDomainEvent } from '@app/messaging';
import { accessLevelName, GROUP_MEMBER_LEVELS, PROJECT_MEMBER_LEVELS, utcToday } from '../access/access-policy';
import { ACCESS_LEVELS, MemberEntity } from '../entities/member.entity';
import { groupMemberEvent, NAMESPACE_EVENTS, projectMemberEvent } from '../events/namespaces.events';
import type { MemberSource } from '../repositories/members.repository';

/** Level needed to manage members: Maintainer in projects, Owner in groups (GitLab's `admin_*_member`). */
export const MANAGE_MEMBERS_LEVEL = { project: ACCESS_LEVELS.MAINTAINER, group: ACCESS_LEVELS.OWNER } as const;

export function checkMemberAccessLevel(source: MemberSource, level: number): void {
  const allowed = source.kind === 'project' ? PROJECT_MEMBER_LEVELS : GROUP_MEMBER_LEVELS;
  if (!allowed.includes(level)) throw DomainError.invalid({ access_level: ['is not included in the list'] });
}

/** `expires_at` as `YYYY-MM-DD` (null clears it); GitLab refuses dates in the past. */
export function parseExpiresAt(value: string | null | undefined, today: string = utcToday()): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (value === '') return null;
  const date = value.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date))) throw DomainError.invalid({ expires_at: ['is invalid'] });
  if (date < today) throw DomainError.invalid({ expires_at: ['cannot be a date in the past'] });
  return date;
}

/** A membership may not be lower than one the user inherits from an ancestor group. */
export function checkAgainstInherited(level: number, inherited: (MemberEntity & { groupName: string }) | null): void {
  if (inherited && level < inherited.accessLevel) {
    throw DomainError.invalid({
      access_level: [`should be greater than or equal to ${accessLevelName(inherited.accessLevel)} inherited membership from group ${inherited.groupName}`],
    });
  }
}

type MemberAction = 'add' | 'update' | 'remove';

const EVENT_TYPES = {
  project: { add: NAMESPACE_EVENTS.USER_ADD_TO_TEAM, update: NAMESPACE_EVENTS.USER_UPDATE_FOR_TEAM, remove: NAMESPACE_EVENTS.USER_REMOVE_FROM_TEAM },
  group: { add: NAMESPACE_EVENTS.USER_ADD_TO_GROUP, update: NAMESPACE_EVENTS.USER_UPDATE_FOR_GROUP, remove: NAMESPACE_EVENTS.USER_REMOVE_FROM_GROUP },
} as const;

/** The system-hook-shaped domain event of a membership change. */
export function memberEvent(action: MemberAction, actorId: number, source: MemberSource, member: MemberEntity, user: UserEntity): NewDomainEvent {
  if (source.kind === 'project') return projectMemberEvent(EVENT_TYPES.project[action], actorId, source.project, source.namespace, member, user);
  return groupMemberEvent(EVENT_TYPES.group[action], actorId, source.group, member, user);
}
