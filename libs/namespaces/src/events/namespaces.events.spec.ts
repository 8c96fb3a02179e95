import { MemberEntity } from '../entities/member.entity';
import { NamespaceEntity } from '../entities/namespace.entity';
import { ProjectEntity } from '../entities/project.entity';
import { groupEvent, groupMemberEvent, hookTime, NAMESPACE_EVENTS, projectEvent, projectMemberEvent } from './namespaces.events';

const at = new Date('2024-03-01T10:20:30.456Z');
const group = Object.assign(new NamespaceEntity(), {
  id: 5,
  name: 'Platform',
  path: 'platform',
  fullPath: 'platform',
  fullName: 'Platform',
  kind: 'group',
  parentId: null,
  traversalIds: [5],
  createdAt: at,
  updatedAt: at,
}) as NamespaceEntity;
const project = Object.assign(new ProjectEntity(), {
  id: 9,
  name: 'Alert Router',
  path: 'alert-router',
  visibility: 'internal',
  createdAt: at,
  updatedAt: at,
}) as ProjectEntity;
const member = Object.assign(new MemberEntity(), { id: 3, accessLevel: 40, expiresAt: null, createdAt: at, updatedAt: at }) as MemberEntity;
const user = { id: 12, username: 'grace', name: 'Grace', email: 'grace@example.com' };

describe('namespace events', () => {
  it('formats hook times without fractional seconds', () => {
    expect(hookTime(at)).toBe('2024-03-01T10:20:30Z');
  });

  it('builds project events with the system hook payload and the envelope keys', () => {
    const event = projectEvent(
      NAMESPACE_EVENTS.PROJECT_RENAME,
      1,
      { project, namespace: group, owner: { name: 'Platform', email: '' }, owners: [{ name: 'Root', email: 'root@x' }] },
      { old_path_with_namespace: 'platform/old' },
    );
    expect(event).toMatchObject({ type: 'project_rename', actor: 1, projectId: 9, groupId: 5, target: { type: 'project', id: 9, title: 'Alert Router' } });
    expect(event.data).toEqual({
      event_name: 'project_rename',
      created_at: '2024-03-01T10:20:30Z',
      updated_at: '2024-03-01T10:20:30Z',
      name: 'Alert Router',
      path: 'alert-router',
      path_with_namespace: 'platform/alert-router',
      project_id: 9,
      project_namespace_id: 5,
      owner_name: 'Platform',
      owner_email: '',
      owners: [{ name: 'Root', email: 'root@x' }],
      project_visibility: 'internal',
      old_path_with_namespace: 'platform/old',
    });
  });

  it('names access levels in membership events', () => {
    expect(projectMemberEvent(NAMESPACE_EVENTS.USER_ADD_TO_TEAM, 1, project, group, member, user).data).toMatchObject({
      event_name: 'user_add_to_team',
      access_level: 'Maintainer',
      project_path_with_namespace: 'platform/alert-router',
      user_username: 'grace',
      user_email: 'grace@example.com',
      user_id: 12,
    });
    const groupMember = groupMemberEvent(NAMESPACE_EVENTS.USER_REMOVE_FROM_GROUP, 1, group, member, user);
    expect(groupMember).toMatchObject({ projectId: null, groupId: 5, target: { type: 'group_member', id: 3 } });
    expect(groupMember.data).toMatchObject({ event_name: 'user_remove_from_group', group_access: 'Maintainer', group_path: 'platform', user_name: 'Grace' });
  });

  it('builds group events keyed by the group', () => {
    const event = groupEvent(NAMESPACE_EVENTS.GROUP_CREATE, 2, group);
    expect(event).toMatchObject({ projectId: null, groupId: 5, data: { event_name: 'group_create', full_path: 'platform', group_id: 5, owner_email: null } });
  });
});
