import { ErrorCode } from '@app/api';
import { ACCESS_LEVELS, MemberEntity } from '../entities/member.entity';
import { NamespaceEntity } from '../entities/namespace.entity';
import { ProjectEntity } from '../entities/project.entity';
import { createNamespacesFixture, NamespacesFixture, rejectsWithoutEvents } from '@app/testing';
import { ENTITIES } from '@apps/entities';

type User = Awaited<ReturnType<NamespacesFixture['factory']['user']>>;

describe('group use cases (PostgreSQL)', () => {
  let fx: NamespacesFixture;
  let owner: User;
  let maintainer: User;
  let developer: User;

  beforeAll(async () => {
    fx = await createNamespacesFixture('ns_groups', ENTITIES);
    [owner, maintainer, developer] = await Promise.all([
      fx.factory.user({ username: 'owner' }),
      fx.factory.user({ username: 'maint' }),
      fx.factory.user({ username: 'dev' }),
    ]);
  });

  afterAll(() => fx.close());

  describe('CreateGroupUseCase', () => {
    it('creates the group with its creator as Owner and records both events in the same transaction', async () => {
      const mark = await fx.outboxMark();
      const group = await fx.createGroup.execute({
        actor: owner.actor,
        name: 'Platform Team',
        path: 'platform',
        description: 'runs things',
        settings: { request_access_enabled: false },
      });

      const row = await fx.dataSource.manager.findOneByOrFail(NamespaceEntity, { id: group.id });
      expect(row).toMatchObject({
        kind: 'group',
        fullPath: 'platform',
        fullName: 'Platform Team',
        parentId: null,
        traversalIds: [group.id],
        visibility: 'private',
        description: 'runs things',
      });
      expect(row.settings).toEqual({ request_access_enabled: false });
      const members = await fx.dataSource.manager.findBy(MemberEntity, { sourceType: 'namespace', sourceId: group.id });
      expect(members).toEqual([expect.objectContaining({ userId: owner.id, accessLevel: ACCESS_LEVELS.OWNER, createdById: owner.id })]);

      const events = await fx.eventsSince(mark);
      expect(events.map((e) => e.type)).toEqual(['group_create', 'user_add_to_group']);
      expect(events[0]).toMatchObject({
        actor: owner.id,
        group_id: group.id,
        project_id: null,
        target: { type: 'group', id: group.id },
        data: { name: 'Platform Team', path: 'platform', full_path: 'platform', group_id: group.id },
      });
      expect(events[1].data).toMatchObject({
        group_access: 'Owner',
        user_id: owner.id,
        user_username: 'owner',
        user_email: 'owner@example.com',
        group_path: 'platform',
      });
    });

    it('refuses top-level groups to users who may not create groups, writing nothing', async () => {
      const restricted = await fx.factory.user({ canCreateGroup: false });
      await rejectsWithoutEvents(fx, () => fx.createGroup.execute({ actor: restricted.actor, name: 'X', path: 'restricted-x' }), ErrorCode.FORBIDDEN);
      await expect(fx.groups.findByRef('restricted-x')).resolves.toBeNull();
    });

    it('refuses a path already taken (case-insensitively) and reserved names', async () => {
      await fx.factory.group(owner.actor, { path: 'taken' });
      const error = await rejectsWithoutEvents(
        fx,
        () => fx.createGroup.execute({ actor: owner.actor, name: 'Other', path: 'TAKEN' }),
        ErrorCode.VALIDATION_FAILED,
      );
      expect(error.details.validation).toEqual({ path: ['has already been taken'] });
      const reserved = await rejectsWithoutEvents(
        fx,
        () => fx.createGroup.execute({ actor: owner.actor, name: 'Api', path: 'api' }),
        ErrorCode.VALIDATION_FAILED,
      );
      expect(reserved.details.validation).toEqual({ path: ['api is a reserved name'] });
    });

    describe('subgroups', () => {
      let parent: NamespaceEntity;

      beforeAll(async () => {
        parent = await fx.factory.group(owner.actor, { name: 'Parent', path: 'parent', visibility: 'internal' });
        await fx.factory.membership({ namespace: parent.id }, maintainer.id, ACCESS_LEVELS.MAINTAINER);
        await fx.factory.membership({ namespace: parent.id }, developer.id, ACCESS_LEVELS.DEVELOPER);
      });

      it('lets maintainers create subgroups by default and chains paths, names and traversal ids', async () => {
        const child = await fx.createGroup.execute({ actor: maintainer.actor, name: 'Child', path: 'child', parentId: parent.id });
        expect(child).toMatchObject({ fullPath: 'parent/child', fullName: 'Parent / Child', parentId: parent.id, traversalIds: [parent.id, child.id] });
        const grandchild = await fx.createGroup.execute({ actor: maintainer.actor, name: 'Leaf', path: 'leaf', parentId: child.id });
        expect(grandchild.traversalIds).toEqual([parent.id, child.id, grandchild.id]);
        expect(grandchild.fullPath).toBe('parent/child/leaf');
      });

      it('refuses developers, and maintainers when the parent allows owners only', async () => {
        await rejectsWithoutEvents(
          fx,
          () => fx.createGroup.execute({ actor: developer.actor, name: 'D', path: 'dev-sub', parentId: parent.id }),
          ErrorCode.FORBIDDEN,
        );
        const strict = await fx.factory.group(owner.actor, { path: 'strict', settings: { subgroup_creation_level: 'owner' } });
        await fx.factory.membership({ namespace: strict.id }, maintainer.id, ACCESS_LEVELS.MAINTAINER);
        await rejectsWithoutEvents(
          fx,
          () => fx.createGroup.execute({ actor: maintainer.actor, name: 'M', path: 'm', parentId: strict.id }),
          ErrorCode.FORBIDDEN,
        );
      });

      it('answers 404 for a private parent the caller cannot see, 403 for a visible one', async () => {
        const outsider = await fx.factory.user();
        const hidden = await fx.factory.group(owner.actor, { path: 'hidden-parent' });
        await rejectsWithoutEvents(fx, () => fx.createGroup.execute({ actor: outsider.actor, name: 'S', path: 's', parentId: hidden.id }), ErrorCode.NOT_FOUND);
        await rejectsWithoutEvents(fx, () => fx.createGroup.execute({ actor: outsider.actor, name: 'S', path: 's', parentId: parent.id }), ErrorCode.FORBIDDEN);
      });

      it('refuses a subgroup more visible than its parent, with the validation body', async () => {
        const error = await rejectsWithoutEvents(
          fx,
          () => fx.createGroup.execute({ actor: owner.actor, name: 'Pub', path: 'pub', parentId: parent.id, visibility: 'public' }),
          ErrorCode.VALIDATION_FAILED,
        );
        expect(error.details.validation).toEqual({ visibility_level: ['public is not allowed since the parent group has a internal visibility.'] });
      });

      it('refuses a sibling with the same name', async () => {
        const error = await rejectsWithoutEvents(
          fx,
          () => fx.createGroup.execute({ actor: owner.actor, name: 'child', path: 'child-2', parentId: parent.id }),
          ErrorCode.VALIDATION_FAILED,
        );
        expect(error.details.validation).toEqual({ name: ['has already been taken'] });
      });
    });
  });

  describe('UpdateGroupUseCase', () => {
    it('renames a group, carries the new path and name into its subgroups, and records group_rename', async () => {
      const top = await fx.factory.group(owner.actor, { name: 'Ops', path: 'ops' });
      const sub = await fx.factory.group(owner.actor, { name: 'Alerts', path: 'alerts', parentId: top.id });
      const leaf = await fx.factory.group(owner.actor, { name: 'Pager', path: 'pager', parentId: sub.id });
      const mark = await fx.outboxMark();

      const updated = await fx.updateGroup.execute({ actor: owner.actor, groupId: top.id, name: 'Operations', path: 'operations', description: 'on call' });
      expect(updated).toMatchObject({ path: 'operations', fullPath: 'operations', fullName: 'Operations', description: 'on call' });
      await expect(fx.dataSource.manager.findOneByOrFail(NamespaceEntity, { id: leaf.id })).resolves.toMatchObject({
        fullPath: 'operations/alerts/pager',
        fullName: 'Operations / Alerts / Pager',
      });
      const events = await fx.eventsSince(mark);
      expect(events.map((e) => e.type)).toEqual(['group_update', 'group_rename']);
      expect(events[1].data).toMatchObject({ path: 'operations', full_path: 'operations', old_path: 'ops', old_full_path: 'ops' });
    });

    it('refuses to make a group less visible than its subgroups or projects', async () => {
      const top = await fx.factory.group(owner.actor, { path: 'visible-top', visibility: 'public' });
      await fx.factory.group(owner.actor, { path: 'visible-sub', parentId: top.id, visibility: 'internal' });
      const error = await rejectsWithoutEvents(
        fx,
        () => fx.updateGroup.execute({ actor: owner.actor, groupId: top.id, visibility: 'private' }),
        ErrorCode.VALIDATION_FAILED,
      );
      expect(error.details.validation).toEqual({ visibility_level: ['private is not allowed since there are sub-groups with higher visibility.'] });

      const withProject = await fx.factory.group(owner.actor, { path: 'with-project', visibility: 'public' });
      await fx.factory.project(owner.actor, { name: 'Site', namespaceRef: 'with-project', visibility: 'public' });
      const projectError = await rejectsWithoutEvents(
        fx,
        () => fx.updateGroup.execute({ actor: owner.actor, groupId: withProject.id, visibility: 'internal' }),
        ErrorCode.VALIDATION_FAILED,
      );
      expect(projectError.details.validation).toEqual({
        visibility_level: ['internal is not allowed since this group contains projects with higher visibility.'],
      });
    });
  });

  describe('DeleteGroupUseCase', () => {
    it('deletes the group, its subgroups, their projects and memberships, recording every destroy event', async () => {
      const top = await fx.factory.group(owner.actor, { name: 'Doomed', path: 'doomed' });
      const sub = await fx.factory.group(owner.actor, { name: 'Sub', path: 'sub', parentId: top.id });
      const p1 = await fx.factory.project(owner.actor, { name: 'One', namespaceRef: 'doomed' });
      const p2 = await fx.factory.project(owner.actor, { name: 'Two', namespaceRef: 'doomed/sub' });
      await fx.factory.membership({ project: p2.id }, developer.id, ACCESS_LEVELS.DEVELOPER);
      await fx.factory.membership({ namespace: sub.id }, developer.id, ACCESS_LEVELS.REPORTER);
      const mark = await fx.outboxMark();

      await fx.deleteGroup.execute({ actor: owner.actor, groupId: top.id });

      await expect(fx.dataSource.manager.countBy(NamespaceEntity, { id: top.id })).resolves.toBe(0);
      await expect(fx.dataSource.manager.countBy(NamespaceEntity, { id: sub.id })).resolves.toBe(0);
      await expect(fx.dataSource.manager.countBy(ProjectEntity, { namespaceId: sub.id })).resolves.toBe(0);
      const [{ n }] = await fx.dataSource.query(
        `SELECT count(*)::int AS n FROM members WHERE (source_type = 'project' AND source_id = ANY($1)) OR (source_type = 'namespace' AND source_id = ANY($2))`,
        [
          [p1.id, p2.id],
          [top.id, sub.id],
        ],
      );
      expect(n).toBe(0);

      const events = await fx.eventsSince(mark);
      expect(events.map((e) => [e.type, e.target?.id])).toEqual([
        ['project_destroy', p1.id],
        ['project_destroy', p2.id],
        ['group_destroy', sub.id],
        ['group_destroy', top.id],
      ]);
      expect(events[1]).toMatchObject({
        project_id: p2.id,
        group_id: sub.id,
        data: { path_with_namespace: 'doomed/sub/two', owner_name: 'Sub', owners: [{ name: 'Owner', email: 'owner@example.com' }] },
      });
    });

    it('answers 404 for a group that does not exist, writing nothing', async () => {
      await rejectsWithoutEvents(fx, () => fx.deleteGroup.execute({ actor: owner.actor, groupId: 987654 }), ErrorCode.NOT_FOUND);
    });
  });
});
