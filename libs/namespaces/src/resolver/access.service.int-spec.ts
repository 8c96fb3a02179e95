import { ACCESS_LEVELS } from '../entities/member.entity';
import { NamespaceEntity } from '../entities/namespace.entity';
import { ProjectWithNamespace } from '../repositories/projects.repository';
import { createNamespacesFixture, dayOffset, NamespacesFixture } from '@app/testing';
import { ENTITIES } from '@apps/entities';

type User = Awaited<ReturnType<NamespacesFixture['factory']['user']>>;

describe('AccessService (PostgreSQL)', () => {
  let fx: NamespacesFixture;
  let alice: User; // owns the platform group
  let bob: User; // developer of platform/infra only
  let carol: User; // no memberships
  let dave: User; // external
  let admin: User;
  let platform: NamespaceEntity;
  let infra: NamespaceEntity;
  let open: NamespaceEntity;
  let alerts: ProjectWithNamespace; // private, in platform/infra
  let docs: ProjectWithNamespace; // internal, in the public group "open"
  let personal: ProjectWithNamespace; // private, in alice's namespace

  beforeAll(async () => {
    fx = await createNamespacesFixture('ns_access', ENTITIES);
    [alice, bob, carol, dave, admin] = await Promise.all([
      fx.factory.user({ username: 'alice' }),
      fx.factory.user({ username: 'bob' }),
      fx.factory.user({ username: 'carol' }),
      fx.factory.user({ username: 'dave', external: true }),
      fx.factory.user({ username: 'root', admin: true }),
    ]);
    platform = await fx.factory.group(alice.actor, { name: 'Platform', path: 'platform' });
    infra = await fx.factory.group(alice.actor, { name: 'Infra', path: 'infra', parentId: platform.id });
    open = await fx.factory.group(alice.actor, { name: 'Open', path: 'open', visibility: 'public' });
    alerts = await fx.factory.project(alice.actor, { name: 'Alerts', namespaceRef: String(infra.id) });
    docs = await fx.factory.project(alice.actor, { name: 'Docs', namespaceRef: 'open', visibility: 'internal' });
    personal = await fx.factory.project(alice.actor, { name: 'Dotfiles' });
    await fx.factory.membership({ namespace: infra.id }, bob.id, ACCESS_LEVELS.DEVELOPER);
  });

  afterAll(() => fx.close());

  describe('resolving references', () => {
    it('finds projects by id and by case-insensitive full path', async () => {
      await expect(fx.access.project(String(alerts.id), null)).resolves.toMatchObject({ resource: { id: alerts.id } });
      const byPath = await fx.access.project('PLATFORM/Infra/ALERTS', alice.actor);
      expect(byPath?.resource.id).toBe(alerts.id);
      expect(byPath?.resource.namespace.fullPath).toBe('platform/infra');
      await expect(fx.access.project('platform/infra/nothing', alice.actor)).resolves.toBeNull();
      await expect(fx.access.project('999999', alice.actor)).resolves.toBeNull();
    });

    it('finds groups by id and full path, never personal namespaces', async () => {
      await expect(fx.access.group('Platform/INFRA', alice.actor)).resolves.toMatchObject({ resource: { id: infra.id } });
      await expect(fx.access.group(String(open.id), null)).resolves.toMatchObject({ resource: { id: open.id } });
      await expect(fx.access.group('alice', alice.actor)).resolves.toBeNull();
    });
  });

  describe('levels and visibility', () => {
    it('inherits the highest membership from ancestor groups', async () => {
      await expect(fx.access.project(String(alerts.id), alice.actor)).resolves.toMatchObject({ accessLevel: 50, visible: true });
      await expect(fx.access.project(String(alerts.id), bob.actor)).resolves.toMatchObject({ accessLevel: 30, visible: true });
      await expect(fx.access.group(String(infra.id), alice.actor)).resolves.toMatchObject({ accessLevel: 50, visible: true });
    });

    it('hides private resources from non-members and anonymous callers; administrators get 60', async () => {
      await expect(fx.access.project(String(alerts.id), carol.actor)).resolves.toMatchObject({ accessLevel: 0, visible: false });
      await expect(fx.access.project(String(alerts.id), null)).resolves.toMatchObject({ accessLevel: 0, visible: false });
      await expect(fx.access.project(String(alerts.id), admin.actor)).resolves.toMatchObject({ accessLevel: 60, visible: true });
      await expect(fx.access.project(String(personal.id), bob.actor)).resolves.toMatchObject({ visible: false });
    });

    it('gives the owner of a personal namespace Owner on its projects', async () => {
      await expect(fx.access.project(String(personal.id), alice.actor)).resolves.toMatchObject({ accessLevel: 50, visible: true });
    });

    it('shows internal projects to signed-in users but not to external users or anonymous callers', async () => {
      await expect(fx.access.project(String(docs.id), carol.actor)).resolves.toMatchObject({ accessLevel: 0, visible: true });
      await expect(fx.access.project(String(docs.id), dave.actor)).resolves.toMatchObject({ visible: false });
      await expect(fx.access.project(String(docs.id), null)).resolves.toMatchObject({ visible: false });
      await expect(fx.access.group(String(open.id), null)).resolves.toMatchObject({ visible: true, accessLevel: 0 });
    });

    it('lets members of a subgroup see the private parent group without a level there', async () => {
      await expect(fx.access.group(String(platform.id), bob.actor)).resolves.toMatchObject({ accessLevel: 0, visible: true });
      await expect(fx.access.group(String(platform.id), carol.actor)).resolves.toMatchObject({ visible: false });
    });

    it('ignores memberships that expired (expires_at today or earlier) and counts future ones', async () => {
      const erin = await fx.factory.user({ username: 'erin' });
      const expired = await fx.factory.membership({ project: alerts.id }, erin.id, ACCESS_LEVELS.MAINTAINER, dayOffset(0));
      await expect(fx.access.project(String(alerts.id), erin.actor)).resolves.toMatchObject({ accessLevel: 0, visible: false });
      await fx.dataSource.query('UPDATE members SET expires_at = $1 WHERE id = $2', [dayOffset(1), expired.id]);
      await expect(fx.access.project(String(alerts.id), erin.actor)).resolves.toMatchObject({ accessLevel: 40, visible: true });
    });
  });

  describe('permissions', () => {
    it("reports the caller's own project and group memberships separately", async () => {
      await expect(fx.access.projectPermissions(alerts, bob.id)).resolves.toEqual({ projectAccess: null, groupAccess: 30 });
      const frank = await fx.factory.user({ username: 'frank' });
      await fx.factory.membership({ project: alerts.id }, frank.id, ACCESS_LEVELS.REPORTER);
      await expect(fx.access.projectPermissions(alerts, frank.id)).resolves.toEqual({ projectAccess: 20, groupAccess: null });
      await expect(fx.access.projectPermissions(personal, alice.id)).resolves.toEqual({ projectAccess: 50, groupAccess: null });
      const many = await fx.access.projectPermissionsMany([alerts.id, personal.id, docs.id], alice.id);
      // alice owns the group, so creating the project added no project membership for her.
      expect(many.get(alerts.id)).toEqual({ projectAccess: null, groupAccess: 50, accessLevel: 50 });
      expect(many.get(personal.id)).toEqual({ projectAccess: 50, groupAccess: null, accessLevel: 50 });
    });
  });

  describe('list queries apply the same rules', () => {
    const projectIds = async (viewer: User['actor'] | null, filter = {}) => (await fx.projects.listQuery(filter, viewer).getMany()).map((p) => p.id).sort();
    const groupPaths = async (viewer: User['actor'] | null, filter = {}) => (await fx.groups.listQuery(filter, viewer).getMany()).map((g) => g.fullPath).sort();

    it('lists the projects each caller can see', async () => {
      await expect(projectIds(null)).resolves.toEqual([]);
      await expect(projectIds(carol.actor)).resolves.toEqual([docs.id]);
      await expect(projectIds(dave.actor)).resolves.toEqual([]);
      await expect(projectIds(bob.actor)).resolves.toEqual([alerts.id, docs.id].sort());
      await expect(projectIds(admin.actor)).resolves.toEqual([alerts.id, docs.id, personal.id].sort());
    });

    it('filters by membership, ownership and minimum level', async () => {
      await expect(projectIds(bob.actor, { membership: true })).resolves.toEqual([alerts.id]);
      await expect(projectIds(bob.actor, { minAccessLevel: 40 })).resolves.toEqual([]);
      await expect(projectIds(alice.actor, { owned: true })).resolves.toEqual([alerts.id, docs.id, personal.id].sort());
      await expect(projectIds(carol.actor, { search: 'doc' })).resolves.toEqual([docs.id]);
    });

    it('lists only related groups for members unless all_available, and public ones to anonymous callers', async () => {
      await expect(groupPaths(null)).resolves.toEqual(['open']);
      await expect(groupPaths(carol.actor)).resolves.toEqual([]);
      await expect(groupPaths(carol.actor, { allAvailable: true })).resolves.toEqual(['open']);
      await expect(groupPaths(bob.actor)).resolves.toEqual(['platform', 'platform/infra']);
      await expect(groupPaths(bob.actor, { minAccessLevel: 30 })).resolves.toEqual(['platform/infra']);
      await expect(groupPaths(alice.actor, { owned: true, topLevelOnly: true })).resolves.toEqual(['open', 'platform']);
      await expect(groupPaths(admin.actor)).resolves.toEqual(['open', 'platform', 'platform/infra']);
    });

    it('orders groups by similarity to the search term, exact matches first', async () => {
      const rows = await fx.groups.listQuery({ search: 'infra', orderBy: 'similarity' }, admin.actor).getMany();
      expect(rows.map((g) => g.fullPath)).toEqual(['platform/infra']);
      await fx.factory.group(alice.actor, { name: 'A Platform Tools', path: 'a-platform-tools' });
      const byName = await fx.groups.listQuery({ search: 'platform', topLevelOnly: true }, alice.actor).getMany();
      expect(byName.map((g) => g.path)).toEqual(['a-platform-tools', 'platform']);
      const bySimilarity = await fx.groups.listQuery({ search: 'platform', topLevelOnly: true, orderBy: 'similarity' }, alice.actor).getMany();
      expect(bySimilarity.map((g) => g.path)).toEqual(['platform', 'a-platform-tools']);
    });
  });
});
