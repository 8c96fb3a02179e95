import { ErrorCode } from '@app/api';
import { ACCESS_LEVELS, MemberEntity } from '../entities/member.entity';
import { NamespaceEntity } from '../entities/namespace.entity';
import { MemberSource } from '../repositories/members.repository';
import { ProjectWithNamespace } from '../repositories/projects.repository';
import { createNamespacesFixture, dayOffset, NamespacesFixture, rejectsWithoutEvents } from '@app/testing';
import { ENTITIES } from '@apps/entities';

type User = Awaited<ReturnType<NamespacesFixture['factory']['user']>>;

describe('member use cases (PostgreSQL)', () => {
  let fx: NamespacesFixture;
  let owner: User;
  let maintainer: User;
  let group: NamespaceEntity;
  let project: ProjectWithNamespace;
  let projectSource: MemberSource;
  let groupSource: MemberSource;

  const direct = (source: MemberSource, userId: number) => fx.members.findDirect(source, userId);

  beforeAll(async () => {
    fx = await createNamespacesFixture('ns_members', ENTITIES);
    [owner, maintainer] = await Promise.all([fx.factory.user({ username: 'owner' }), fx.factory.user({ username: 'maint' })]);
    group = await fx.factory.group(owner.actor, { name: 'Team', path: 'team' });
    project = await fx.factory.project(owner.actor, { name: 'Service', namespaceRef: 'team' });
    await fx.factory.membership({ project: project.id }, maintainer.id, ACCESS_LEVELS.MAINTAINER);
    projectSource = { kind: 'project', project, namespace: project.namespace };
    groupSource = { kind: 'group', group };
  });

  afterAll(() => fx.close());

  describe('AddMemberUseCase', () => {
    it('adds a project member by id or username and records user_add_to_team', async () => {
      const grace = await fx.factory.user({ username: 'grace' });
      const mark = await fx.outboxMark();
      const { member, user } = await fx.addMember.execute({
        actor: maintainer.actor,
        actorAccessLevel: 40,
        source: projectSource,
        user: { username: 'GRACE' },
        accessLevel: 30,
        expiresAt: dayOffset(30),
      });
      expect(user.id).toBe(grace.id);
      expect(member).toMatchObject({
        sourceType: 'project',
        sourceId: project.id,
        userId: grace.id,
        accessLevel: 30,
        createdById: maintainer.id,
        expiresAt: dayOffset(30),
      });
      const events = await fx.eventsSince(mark);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        type: 'user_add_to_team',
        actor: maintainer.id,
        project_id: project.id,
        group_id: group.id,
        data: {
          access_level: 'Developer',
          project_id: project.id,
          project_path_with_namespace: 'team/service',
          user_id: grace.id,
          user_username: 'grace',
          user_email: 'grace@example.com',
          expires_at: dayOffset(30),
        },
      });
    });

    it('answers 409 for an existing member and 404 for an unknown user, writing nothing', async () => {
      const conflict = await rejectsWithoutEvents(
        fx,
        () => fx.addMember.execute({ actor: owner.actor, actorAccessLevel: 50, source: projectSource, user: { id: maintainer.id }, accessLevel: 30 }),
        ErrorCode.CONFLICT,
      );
      expect(conflict.message).toBe('Member already exists');
      await rejectsWithoutEvents(
        fx,
        () => fx.addMember.execute({ actor: owner.actor, actorAccessLevel: 50, source: projectSource, user: { id: 424242 }, accessLevel: 30 }),
        ErrorCode.NOT_FOUND,
      );
    });

    it('needs Owner to grant Owner, and refuses levels the source does not have', async () => {
      const henry = await fx.factory.user();
      await rejectsWithoutEvents(
        fx,
        () => fx.addMember.execute({ actor: maintainer.actor, actorAccessLevel: 40, source: projectSource, user: { id: henry.id }, accessLevel: 50 }),
        ErrorCode.FORBIDDEN,
      );
      await rejectsWithoutEvents(
        fx,
        () => fx.addMember.execute({ actor: owner.actor, actorAccessLevel: 50, source: projectSource, user: { id: henry.id }, accessLevel: 5 }),
        ErrorCode.VALIDATION_FAILED,
      );
      await rejectsWithoutEvents(
        fx,
        () =>
          fx.addMember.execute({
            actor: owner.actor,
            actorAccessLevel: 50,
            source: projectSource,
            user: { id: henry.id },
            accessLevel: 30,
            expiresAt: dayOffset(-1),
          }),
        ErrorCode.VALIDATION_FAILED,
      );
      await expect(direct(projectSource, henry.id)).resolves.toBeNull();
    });

    it('refuses a project level below the membership inherited from the group', async () => {
      const ivy = await fx.factory.user({ username: 'ivy' });
      await fx.factory.membership({ namespace: group.id }, ivy.id, ACCESS_LEVELS.DEVELOPER);
      const error = await rejectsWithoutEvents(
        fx,
        () => fx.addMember.execute({ actor: owner.actor, actorAccessLevel: 50, source: projectSource, user: { id: ivy.id }, accessLevel: 20 }),
        ErrorCode.VALIDATION_FAILED,
      );
      expect(error.details.validation).toEqual({ access_level: ['should be greater than or equal to Developer inherited membership from group Team'] });
      await expect(
        fx.addMember.execute({ actor: owner.actor, actorAccessLevel: 50, source: projectSource, user: { id: ivy.id }, accessLevel: 40 }),
      ).resolves.toMatchObject({ member: { accessLevel: 40 } });
    });

    it('replaces an expired membership instead of reporting a conflict', async () => {
      const jack = await fx.factory.user();
      const expired = await fx.factory.membership({ project: project.id }, jack.id, ACCESS_LEVELS.GUEST, dayOffset(-3));
      const { member } = await fx.addMember.execute({
        actor: owner.actor,
        actorAccessLevel: 50,
        source: projectSource,
        user: { id: jack.id },
        accessLevel: 20,
      });
      expect(member.id).not.toBe(expired.id);
      await expect(fx.dataSource.manager.countBy(MemberEntity, { sourceType: 'project', sourceId: project.id, userId: jack.id })).resolves.toBe(1);
    });
  });

  describe('UpdateMemberUseCase', () => {
    it('changes the level and expiry and records user_update_for_team', async () => {
      const kim = await fx.factory.user();
      await fx.factory.membership({ project: project.id }, kim.id, ACCESS_LEVELS.REPORTER, dayOffset(10));
      const mark = await fx.outboxMark();
      const { member } = await fx.updateMember.execute({
        actor: maintainer.actor,
        actorAccessLevel: 40,
        source: projectSource,
        userId: kim.id,
        accessLevel: 30,
        expiresAt: null,
      });
      expect(member).toMatchObject({ accessLevel: 30, expiresAt: null });
      const events = await fx.eventsSince(mark);
      expect(events.map((e) => [e.type, e.data.access_level])).toEqual([['user_update_for_team', 'Developer']]);
    });

    it('answers 404 for a non-member and 403 when a maintainer touches an owner', async () => {
      const lee = await fx.factory.user();
      await rejectsWithoutEvents(
        fx,
        () => fx.updateMember.execute({ actor: owner.actor, actorAccessLevel: 50, source: projectSource, userId: lee.id, accessLevel: 30 }),
        ErrorCode.NOT_FOUND,
      );
      await fx.factory.membership({ project: project.id }, lee.id, ACCESS_LEVELS.OWNER);
      await rejectsWithoutEvents(
        fx,
        () => fx.updateMember.execute({ actor: maintainer.actor, actorAccessLevel: 40, source: projectSource, userId: lee.id, accessLevel: 30 }),
        ErrorCode.FORBIDDEN,
      );
    });

    it("keeps a group's last owner, and lets an owner be demoted once another owner exists", async () => {
      await rejectsWithoutEvents(
        fx,
        () => fx.updateMember.execute({ actor: owner.actor, actorAccessLevel: 50, source: groupSource, userId: owner.id, accessLevel: 40 }),
        ErrorCode.FORBIDDEN,
      );
      const second = await fx.factory.user();
      await fx.addMember.execute({ actor: owner.actor, actorAccessLevel: 50, source: groupSource, user: { id: second.id }, accessLevel: 50 });
      const mark = await fx.outboxMark();
      await fx.updateMember.execute({ actor: second.actor, actorAccessLevel: 50, source: groupSource, userId: owner.id, accessLevel: 40 });
      const events = await fx.eventsSince(mark);
      expect(events.map((e) => [e.type, e.group_id, e.data.group_access])).toEqual([['user_update_for_group', group.id, 'Maintainer']]);
      await fx.updateMember.execute({ actor: second.actor, actorAccessLevel: 50, source: groupSource, userId: owner.id, accessLevel: 50 });
    });
  });

  describe('RemoveMemberUseCase', () => {
    it('lets maintainers remove members and records user_remove_from_team', async () => {
      const max = await fx.factory.user({ username: 'max' });
      await fx.factory.membership({ project: project.id }, max.id, ACCESS_LEVELS.DEVELOPER);
      const mark = await fx.outboxMark();
      await fx.removeMember.execute({ actor: maintainer.actor, actorAccessLevel: 40, source: projectSource, userId: max.id });
      await expect(direct(projectSource, max.id)).resolves.toBeNull();
      const events = await fx.eventsSince(mark);
      expect(events).toEqual([
        expect.objectContaining({ type: 'user_remove_from_team', data: expect.objectContaining({ user_username: 'max', access_level: 'Developer' }) }),
      ]);
    });

    it('lets any member leave but not remove others', async () => {
      const ned = await fx.factory.user();
      const olga = await fx.factory.user();
      await fx.factory.membership({ project: project.id }, ned.id, ACCESS_LEVELS.DEVELOPER);
      await fx.factory.membership({ project: project.id }, olga.id, ACCESS_LEVELS.GUEST);
      await rejectsWithoutEvents(
        fx,
        () => fx.removeMember.execute({ actor: ned.actor, actorAccessLevel: 30, source: projectSource, userId: olga.id }),
        ErrorCode.FORBIDDEN,
      );
      await fx.removeMember.execute({ actor: ned.actor, actorAccessLevel: 30, source: projectSource, userId: ned.id });
      await expect(direct(projectSource, ned.id)).resolves.toBeNull();
    });

    it("keeps the owner of a personal project and a group's last owner", async () => {
      const personal = await fx.factory.project(owner.actor, { name: 'Mine' });
      const personalSource: MemberSource = { kind: 'project', project: personal, namespace: personal.namespace };
      const admin = await fx.factory.user({ admin: true });
      await rejectsWithoutEvents(
        fx,
        () => fx.removeMember.execute({ actor: admin.actor, actorAccessLevel: 60, source: personalSource, userId: owner.id }),
        ErrorCode.FORBIDDEN,
      );

      const solo = await fx.factory.group(maintainer.actor, { path: 'solo' });
      const soloSource: MemberSource = { kind: 'group', group: solo };
      await rejectsWithoutEvents(
        fx,
        () => fx.removeMember.execute({ actor: maintainer.actor, actorAccessLevel: 50, source: soloSource, userId: maintainer.id }),
        ErrorCode.FORBIDDEN,
      );
      await expect(direct(soloSource, maintainer.id)).resolves.not.toBeNull();
    });

    it('answers 404 for a user who is not a direct member', async () => {
      await rejectsWithoutEvents(
        fx,
        () => fx.removeMember.execute({ actor: owner.actor, actorAccessLevel: 50, source: projectSource, userId: 9_999_999 }),
        ErrorCode.NOT_FOUND,
      );
    });
  });

  describe('member lists', () => {
    it('lists direct members, and all members with inherited ones at their highest level', async () => {
      const team = await fx.factory.group(owner.actor, { path: 'listing' });
      const repo = await fx.factory.project(owner.actor, { name: 'Repo', namespaceRef: 'listing' });
      const [pat, quinn] = await Promise.all([fx.factory.user(), fx.factory.user()]);
      await fx.factory.membership({ namespace: team.id }, pat.id, ACCESS_LEVELS.MAINTAINER);
      await fx.factory.membership({ project: repo.id }, pat.id, ACCESS_LEVELS.REPORTER);
      await fx.factory.membership({ project: repo.id }, quinn.id, ACCESS_LEVELS.DEVELOPER);
      await fx.factory.membership({ project: repo.id }, (await fx.factory.user()).id, ACCESS_LEVELS.DEVELOPER, dayOffset(0));
      const source: MemberSource = { kind: 'project', project: repo, namespace: repo.namespace };

      const directRows = await fx.members.directQuery(source).getMany();
      expect(directRows.map((m) => [m.userId, m.accessLevel])).toEqual([
        [pat.id, 20],
        [quinn.id, 30],
      ]);
      const all = await fx.members.allQuery(source).getMany();
      expect(new Map(all.map((m) => [m.userId, m.accessLevel]))).toEqual(
        new Map([
          [owner.id, 50],
          [pat.id, 40],
          [quinn.id, 30],
        ]),
      );
      await expect(fx.members.findEffective(source, pat.id)).resolves.toMatchObject({ sourceType: 'namespace', accessLevel: 40 });
      const searched = await fx.members.allQuery(source, { query: quinn.username.toUpperCase() }).getMany();
      expect(searched.map((m) => m.userId)).toEqual([quinn.id]);
      const skipped = await fx.members.allQuery(source, { skipUsers: [owner.id, pat.id] }).getMany();
      expect(skipped.map((m) => m.userId)).toEqual([quinn.id]);
    });
  });
});
