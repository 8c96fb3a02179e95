import { Type } from '@sinclair/typebox';
import { Data, defineEvents, Id, NullableString } from './event-part';

const Person = Type.Object({ name: Type.String(), email: Type.String() });
const ProjectData = Data(
  {
    event_name: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
    name: Type.String(),
    path: Type.String(),
    path_with_namespace: Type.String(),
    project_id: Id,
    project_namespace_id: Id,
    owner_name: Type.String(),
    owner_email: Type.String(),
    owners: Type.Array(Person),
    project_visibility: Type.String(),
    old_path_with_namespace: Type.Optional(Type.String()),
  },
  "GitLab's project system hook payload",
);
const GroupData = Data(
  {
    event_name: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
    name: Type.String(),
    path: Type.String(),
    full_path: Type.String(),
    group_id: Id,
    owner_name: Type.Null(),
    owner_email: Type.Null(),
    old_path: Type.Optional(Type.String()),
    old_full_path: Type.Optional(Type.String()),
  },
  "GitLab's group system hook payload",
);
const memberFields = {
  event_name: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  expires_at: NullableString,
  user_id: Id,
  user_username: Type.String(),
  user_name: Type.String(),
  user_email: Type.String(),
  expired: Type.Optional(Type.Boolean({ description: 'removed because the membership expired' })),
};
const ProjectMemberData = Data(
  {
    ...memberFields,
    access_level: Type.String(),
    project_id: Id,
    project_name: Type.String(),
    project_path: Type.String(),
    project_path_with_namespace: Type.String(),
    project_visibility: Type.String(),
  },
  "GitLab's project member system hook payload",
);
const GroupMemberData = Data(
  {
    ...memberFields,
    group_access: Type.String(),
    group_id: Id,
    group_name: Type.String(),
    group_path: Type.String(),
    group_full_path: Type.String(),
    group_plan: Type.Null(),
  },
  "GitLab's group member system hook payload",
);

/** Events of `libs/namespaces`: projects, groups and memberships (GitLab's system hook event names). */
export const NAMESPACES_EVENT_PART = defineEvents({
  project_create: { description: 'A project was created.', data: ProjectData },
  project_update: { description: 'A project was changed (or archived, unarchived).', data: ProjectData },
  project_rename: { description: 'A project path changed (`old_path_with_namespace`).', data: ProjectData },
  project_destroy: { description: 'A project was deleted.', data: ProjectData },
  group_create: { description: 'A group was created.', data: GroupData },
  group_update: { description: 'A group was changed.', data: GroupData },
  group_rename: { description: 'A group path changed (`old_path`, `old_full_path`).', data: GroupData },
  group_destroy: { description: 'A group was deleted.', data: GroupData },
  user_add_to_team: { description: 'A user became a member of a project.', data: ProjectMemberData },
  user_update_for_team: { description: "A project member's access changed.", data: ProjectMemberData },
  user_remove_from_team: { description: 'A user left a project (`expired`: the membership expired).', data: ProjectMemberData },
  user_add_to_group: { description: 'A user became a member of a group.', data: GroupMemberData },
  user_update_for_group: { description: "A group member's access changed.", data: GroupMemberData },
  user_remove_from_group: { description: 'A user left a group.', data: GroupMemberData },
});
