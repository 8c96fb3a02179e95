import type { DomainEventData, DomainEventType, NewDomainEvent } from '@app/messaging';
import type { MemberEntity } from '../entities/member.entity';
import type { NamespaceEntity } from '../entities/namespace.entity';
import type { ProjectEntity } from '../entities/project.entity';
import { accessLevelName } from '../access/access-policy';

/** Domain event types of this library; they are GitLab's system hook event names. Never rename. */
export const NAMESPACE_EVENTS = {
  PROJECT_CREATE: 'project_create',
  PROJECT_UPDATE: 'project_update',
  PROJECT_RENAME: 'project_rename',
  PROJECT_DESTROY: 'project_destroy',
  GROUP_CREATE: 'group_create',
  GROUP_UPDATE: 'group_update',
  GROUP_RENAME: 'group_rename',
  GROUP_DESTROY: 'group_destroy',
  USER_ADD_TO_TEAM: 'user_add_to_team',
  USER_UPDATE_FOR_TEAM: 'user_update_for_team',
  USER_REMOVE_FROM_TEAM: 'user_remove_from_team',
  USER_ADD_TO_GROUP: 'user_add_to_group',
  USER_UPDATE_FOR_GROUP: 'user_update_for_group',
  USER_REMOVE_FROM_GROUP: 'user_remove_from_group',
} as const satisfies Record<string, DomainEventType>;

export type NamespaceEventType = (typeof NAMESPACE_EVENTS)[keyof typeof NAMESPACE_EVENTS];
export type ProjectEventType = Extract<NamespaceEventType, `project_${string}`>;
export type GroupEventType = Extract<NamespaceEventType, `group_${string}`>;
export type ProjectMemberEventType = Extract<NamespaceEventType, `${string}_team`>;
export type GroupMemberEventType = Extract<NamespaceEventType, `${string}_group`>;

/** Timestamps in system hook payloads are `xmlschema` (no fractional seconds). */
export const hookTime = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

export interface PersonRef {
  name: string;
  email: string;
}

export interface UserRef extends PersonRef {
  id: number;
  username: string;
}

export const pathWithNamespace = (project: Pick<ProjectEntity, 'path'>, namespace: Pick<NamespaceEntity, 'fullPath'>): string =>
  `${namespace.fullPath}/${project.path}`;

export const nameWithNamespace = (project: Pick<ProjectEntity, 'name'>, namespace: Pick<NamespaceEntity, 'fullName'>): string =>
  `${namespace.fullName} / ${project.name}`;

/** What GitLab's `project_create`/`_update`/`_rename`/`_destroy` system hooks carry. */
export interface ProjectHookContext {
  project: ProjectEntity;
  namespace: NamespaceEntity;
  /** The namespace owner (user) or the group (name, empty e-mail). */
  owner: PersonRef;
  /** Owners of the project: the user, or the group's owners. */
  owners: PersonRef[];
}

export function projectEvent(
  type: ProjectEventType,
  actorId: number | null,
  context: ProjectHookContext,
  extra: Pick<DomainEventData<ProjectEventType>, 'old_path_with_namespace'> = {},
): NewDomainEvent<ProjectEventType> {
  const { project, namespace } = context;
  return {
    type,
    actor: actorId,
    projectId: project.id,
    groupId: namespace.kind === 'group' ? namespace.id : null,
    target: { type: 'project', id: project.id, title: project.name },
    data: {
      event_name: type,
      created_at: hookTime(project.createdAt),
      updated_at: hookTime(project.updatedAt),
      name: project.name,
      path: project.path,
      path_with_namespace: pathWithNamespace(project, namespace),
      project_id: project.id,
      project_namespace_id: namespace.id,
      owner_name: context.owner.name,
      owner_email: context.owner.email,
      owners: context.owners.map((o) => ({ name: o.name, email: o.email })),
      project_visibility: project.visibility,
      ...extra,
    },
  };
}

export function projectMemberEvent(
  type: ProjectMemberEventType,
  actorId: number | null,
  project: ProjectEntity,
  namespace: NamespaceEntity,
  member: MemberEntity,
  user: UserRef,
): NewDomainEvent<ProjectMemberEventType> {
  return {
    type,
    actor: actorId,
    projectId: project.id,
    groupId: namespace.kind === 'group' ? namespace.id : null,
    target: { type: 'project_member', id: member.id, title: user.username },
    data: {
      event_name: type,
      created_at: hookTime(member.createdAt),
      updated_at: hookTime(member.updatedAt),
      access_level: accessLevelName(member.accessLevel),
      expires_at: member.expiresAt,
      project_id: project.id,
      project_name: project.name,
      project_path: project.path,
      project_path_with_namespace: pathWithNamespace(project, namespace),
      project_visibility: project.visibility,
      user_id: user.id,
      user_username: user.username,
      user_name: user.name,
      user_email: user.email,
    },
  };
}

export function groupEvent(
  type: GroupEventType,
  actorId: number | null,
  group: NamespaceEntity,
  extra: Pick<DomainEventData<GroupEventType>, 'old_path' | 'old_full_path'> = {},
): NewDomainEvent<GroupEventType> {
  return {
    type,
    actor: actorId,
    projectId: null,
    groupId: group.id,
    target: { type: 'group', id: group.id, title: group.name },
    data: {
      event_name: type,
      created_at: hookTime(group.createdAt),
      updated_at: hookTime(group.updatedAt),
      name: group.name,
      path: group.path,
      full_path: group.fullPath,
      group_id: group.id,
      owner_name: null,
      owner_email: null,
      ...extra,
    },
  };
}

export function groupMemberEvent(
  type: GroupMemberEventType,
  actorId: number | null,
  group: NamespaceEntity,
  member: MemberEntity,
  user: UserRef,
): NewDomainEvent<GroupMemberEventType> {
  return {
    type,
    actor: actorId,
    projectId: null,
    groupId: group.id,
    target: { type: 'group_member', id: member.id, title: user.username },
    data: {
      event_name: type,
      created_at: hookTime(member.createdAt),
      updated_at: hookTime(member.updatedAt),
      group_access: accessLevelName(member.accessLevel),
      expires_at: member.expiresAt,
      group_id: group.id,
      group_name: group.name,
      group_path: group.path,
      group_full_path: group.fullPath,
      group_plan: null,
      user_id: user.id,
      user_username: user.username,
      user_name: user.name,
      user_email: user.email,
    },
  };
}
