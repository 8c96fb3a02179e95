import { ErrorCode } from '@app/api';
import { digestToken } from '@app/identity';
import { ACCESS_LEVELS, MemberEntity } from '../entities/member.entity';
import { NamespaceEntity } from '../entities/namespace.entity';
import { ProjectEntity } from '../entities/project.entity';
import { featureAccessLevel, projectSetting } from '../settings/project-attributes';
import { RUNNERS_TOKEN_PREFIX } from './create-project.use-case';
import { createNamespacesFixture, NamespacesFixture, rejectsWithoutEvents } from '@app/testing';
import { ENTITIES } from '@apps/entities';

type User = Awaited<ReturnType<NamespacesFixture['factory']['user']>>;

describe('project use cases (PostgreSQL)', () => {
  let fx: NamespacesFixture;
  let alice: User;
  let dev: User;
  let reporter: User;
  let group: NamespaceEntity;

  const membersOf = (projectId: number) =>
    fx.dataSource.manager.find(MemberEntity, { where: { sourceType: 'project', sourceId: projectId }, order: { id: 'ASC' } });

  beforeAll(async () => {
    fx = await createNamespacesFixture('ns_projects', ENTITIES);
    [alice, dev, reporter] = await Promise.all([
      fx.factory.user({ username: 'alice' }),
      fx.factory.user({ username: 'dev' }),
      fx.factory.user({ username: 'rep' }),
    ]);
    group = await fx.factory.group(alice.actor, { name: 'Platform', path: 'platform', visibility: 'internal' });
    await fx.factory.membership({ namespace: group.id }, dev.id, ACCESS_LEVELS.DEVELOPER);
    await fx.factory.membership({ namespace: group.id }, reporter.id, ACCESS_LEVELS.REPORTER);
  });

  afterAll(() => fx.close());

  describe('CreateProjectUseCase', () => {
    it('creates a personal project from a name, with its owner as Owner, a runners token digest and both events', async () => {
      const mark = await fx.outboxMark();
      const { project, runnersToken } = await fx.createProject.execute({
        actor: alice.actor,
        name: 'Alert Router',
        description: 'routes alerts',
        topics: ['ops', 'alerts'],
        attributes: { jobs_enabled: false, merge_method: 'ff', only_allow_merge_if_pipeline_succeeds: true },
      });
      expect(project).toMatchObject({
        name: 'Alert Router',
        path: 'alert-router',
        visibility: 'private',
        creatorId: alice.id,
        topics: ['ops', 'alerts'],
        mergeMethod: 'ff',
      });
      expect(project.namespace).toMatchObject({ kind: 'user', ownerId: alice.id });
      expect(featureAccessLevel(project, 'builds')).toBe('disabled');
      expect(projectSetting(project, 'only_allow_merge_if_pipeline_succeeds')).toBe(true);
      expect(runnersToken.startsWith(RUNNERS_TOKEN_PREFIX)).toBe(true);
      const [stored] = await fx.dataSource.query('SELECT runners_token_digest FROM projects WHERE id = $1', [project.id]);
      expect(stored.runners_token_digest).toBe(digestToken(runnersToken));

      await expect(membersOf(project.id)).resolves.toEqual([expect.objectContaining({ userId: alice.id, accessLevel: ACCESS_LEVELS.OWNER })]);
      const events = await fx.eventsSince(mark);
      expect(events.map((e) => e.type)).toEqual(['project_create', 'user_add_to_team']);
      expect(events[0]).toMatchObject({
        project_id: project.id,
        group_id: null,
        data: {
          name: 'Alert Router',
          path: 'alert-router',
          path_with_namespace: 'alice/alert-router',
          owner_name: 'Alice',
          owner_email: 'alice@example.com',
          project_visibility: 'private',
        },
      });
      expect(events[1].data).toMatchObject({ access_level: 'Owner', user_id: alice.id, project_path_with_namespace: 'alice/alert-router' });
    });

    it('makes a developer creating in a group its Maintainer, and adds no membership for a group owner', async () => {
      const { project } = await fx.createProject.execute({ actor: dev.actor, path: 'dev-tools', namespaceRef: 'platform' });
      expect(project.name).toBe('dev-tools');
      await expect(membersOf(project.id)).resolves.toEqual([expect.objectContaining({ userId: dev.id, accessLevel: ACCESS_LEVELS.MAINTAINER })]);

      const mark = await fx.outboxMark();
      const { project: owned } = await fx.createProject.execute({ actor: alice.actor, name: 'Owned', namespaceRef: String(group.id) });
      await expect(membersOf(owned.id)).resolves.toEqual([]);
      const events = await fx.eventsSince(mark);
      expect(events.map((e) => e.type)).toEqual(['project_create']);
      expect(events[0]).toMatchObject({
        group_id: group.id,
        data: { owner_name: 'Platform', owner_email: '', owners: [{ name: 'Alice', email: 'alice@example.com' }] },
      });
    });

    it("refuses namespaces the caller may not create projects in: GitLab's namespace is not valid", async () => {
      const error = await rejectsWithoutEvents(
        fx,
        () => fx.createProject.execute({ actor: reporter.actor, name: 'Nope', namespaceRef: 'platform' }),
        ErrorCode.VALIDATION_FAILED,
      );
      expect(error.details.validation).toEqual({ namespace: ['is not valid'] });
      await rejectsWithoutEvents(fx, () => fx.createProject.execute({ actor: dev.actor, name: 'Nope', namespaceRef: 'alice' }), ErrorCode.VALIDATION_FAILED);
      await rejectsWithoutEvents(
        fx,
        () => fx.createProject.execute({ actor: dev.actor, name: 'Nope', namespaceRef: 'no-such-group' }),
        ErrorCode.VALIDATION_FAILED,
      );
      await expect(fx.dataSource.manager.countBy(ProjectEntity, { name: 'Nope' })).resolves.toBe(0);
    });

    it('reports each taken attribute, case-insensitively', async () => {
      await fx.createProject.execute({ actor: alice.actor, name: 'Dup', path: 'dup' });
      const both = await rejectsWithoutEvents(fx, () => fx.createProject.execute({ actor: alice.actor, name: 'DUP' }), ErrorCode.VALIDATION_FAILED);
      expect(both.details.validation).toEqual({ name: ['has already been taken'], path: ['has already been taken'] });
      const pathOnly = await rejectsWithoutEvents(
        fx,
        () => fx.createProject.execute({ actor: alice.actor, name: 'Different', path: 'Dup' }),
        ErrorCode.VALIDATION_FAILED,
      );
      expect(pathOnly.details.validation).toEqual({ path: ['has already been taken'] });
    });

    it('refuses a project more visible than its group, and a missing name and path', async () => {
      const error = await rejectsWithoutEvents(
        fx,
        () => fx.createProject.execute({ actor: alice.actor, name: 'Loud', namespaceRef: 'platform', visibility: 'public' }),
        ErrorCode.VALIDATION_FAILED,
      );
      expect(error.details.validation).toEqual({ visibility_level: ['public is not allowed in a internal group.'] });
      const missing = await rejectsWithoutEvents(fx, () => fx.createProject.execute({ actor: alice.actor }), ErrorCode.BAD_REQUEST);
      expect(missing.details.errorKey).toBe(true);
    });

    it('enforces the personal projects limit', async () => {
      const none = await fx.factory.user({ projectsLimit: 0 });
      const blocked = await rejectsWithoutEvents(fx, () => fx.createProject.execute({ actor: none.actor, name: 'P' }), ErrorCode.VALIDATION_FAILED);
      expect(blocked.details.validation).toEqual({ limit_reached: [expect.stringContaining('Personal project creation is not allowed')] });
      const one = await fx.factory.user({ projectsLimit: 1 });
      await fx.createProject.execute({ actor: one.actor, name: 'First' });
      const full = await rejectsWithoutEvents(fx, () => fx.createProject.execute({ actor: one.actor, name: 'Second' }), ErrorCode.VALIDATION_FAILED);
      expect(full.details.validation).toEqual({ limit_reached: ['Your project limit is 1 projects! Please contact your administrator to increase it'] });
    });
  });

  describe('UpdateProjectUseCase', () => {
    it('renames the path and records project_rename with the old path, then project_update', async () => {
      const { project } = await fx.createProject.execute({ actor: dev.actor, name: 'Old Name', namespaceRef: 'platform' });
      const mark = await fx.outboxMark();
      const updated = await fx.updateProject.execute({
        actor: dev.actor,
        actorAccessLevel: 40,
        projectId: project.id,
        path: 'new-path',
        description: 'new',
        attributes: { wiki_enabled: false },
      });
      expect(updated).toMatchObject({ path: 'new-path', name: 'Old Name', description: 'new' });
      expect(featureAccessLevel(updated, 'wiki')).toBe('disabled');
      const events = await fx.eventsSince(mark);
      expect(events.map((e) => e.type)).toEqual(['project_rename', 'project_update']);
      expect(events[0].data).toMatchObject({ path: 'new-path', path_with_namespace: 'platform/new-path', old_path_with_namespace: 'platform/old-name' });
    });

    it('needs Owner to change the name or the visibility', async () => {
      const { project } = await fx.createProject.execute({ actor: dev.actor, name: 'Guarded', namespaceRef: 'platform' });
      await rejectsWithoutEvents(
        fx,
        () => fx.updateProject.execute({ actor: dev.actor, actorAccessLevel: 40, projectId: project.id, name: 'Renamed' }),
        ErrorCode.FORBIDDEN,
      );
      await rejectsWithoutEvents(
        fx,
        () => fx.updateProject.execute({ actor: dev.actor, actorAccessLevel: 40, projectId: project.id, visibility: 'internal' }),
        ErrorCode.FORBIDDEN,
      );
      const updated = await fx.updateProject.execute({
        actor: alice.actor,
        actorAccessLevel: 50,
        projectId: project.id,
        name: 'Renamed',
        visibility: 'internal',
      });
      expect(updated).toMatchObject({ name: 'Renamed', visibility: 'internal' });
    });

    it('refuses a path taken by a sibling and an update without attributes', async () => {
      const { project } = await fx.createProject.execute({ actor: alice.actor, name: 'Sibling A' });
      await fx.createProject.execute({ actor: alice.actor, name: 'Sibling B' });
      const error = await rejectsWithoutEvents(
        fx,
        () => fx.updateProject.execute({ actor: alice.actor, actorAccessLevel: 50, projectId: project.id, path: 'sibling-b' }),
        ErrorCode.VALIDATION_FAILED,
      );
      expect(error.details.validation).toEqual({ path: ['has already been taken'] });
      await rejectsWithoutEvents(
        fx,
        () => fx.updateProject.execute({ actor: alice.actor, actorAccessLevel: 50, projectId: project.id }),
        ErrorCode.BAD_REQUEST,
      );
    });
  });

  describe('DeleteProjectUseCase', () => {
    it('deletes the project with its memberships and records project_destroy', async () => {
      const { project } = await fx.createProject.execute({ actor: alice.actor, name: 'Short Lived' });
      await fx.factory.membership({ project: project.id }, dev.id, ACCESS_LEVELS.DEVELOPER);
      const mark = await fx.outboxMark();
      await fx.deleteProject.execute({ actor: alice.actor, projectId: project.id });
      await expect(fx.dataSource.manager.countBy(ProjectEntity, { id: project.id })).resolves.toBe(0);
      await expect(membersOf(project.id)).resolves.toEqual([]);
      const events = await fx.eventsSince(mark);
      expect(events).toEqual([
        expect.objectContaining({
          type: 'project_destroy',
          project_id: project.id,
          data: expect.objectContaining({ path_with_namespace: 'alice/short-lived', owner_email: 'alice@example.com' }),
        }),
      ]);
    });
  });
});
