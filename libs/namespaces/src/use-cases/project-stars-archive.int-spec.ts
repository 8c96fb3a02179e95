import { OutboxService } from '@app/messaging';
import { randomUUID } from 'node:crypto';
import { ProjectWithNamespace } from '../repositories/projects.repository';
import { ProjectStarsRepository } from '../repositories/project-stars.repository';
import { ProjectStatisticsRepository } from '../repositories/project-statistics.repository';
import { ArchiveProjectUseCase } from './archive-project.use-case';
import { StarProjectUseCase } from './star-project.use-case';
import { createNamespacesFixture, NamespacesFixture } from '@app/testing';
import { ENTITIES } from '@apps/entities';

type User = Awaited<ReturnType<NamespacesFixture['factory']['user']>>;

describe('stars, statistics, archive and project activity (PostgreSQL)', () => {
  let fx: NamespacesFixture;
  let alice: User;
  let project: ProjectWithNamespace;
  let stars: StarProjectUseCase;
  let statistics: ProjectStatisticsRepository;
  let archive: ArchiveProjectUseCase;

  const row = async (id: number) =>
    (
      await fx.dataSource.query(
        'SELECT star_count, archived, last_activity_at, (SELECT count(*)::int FROM project_stars WHERE project_id = $1) AS stars FROM projects WHERE id = $1',
        [id],
      )
    )[0];

  beforeAll(async () => {
    fx = await createNamespacesFixture('ns_stars', ENTITIES);
    alice = await fx.factory.user({ username: 'alice' });
    project = await fx.factory.project(alice.actor, { name: 'Starry', visibility: 'public' });
    stars = new StarProjectUseCase(fx.dataSource, new ProjectStarsRepository(fx.dataSource), fx.projects);
    statistics = new ProjectStatisticsRepository(fx.dataSource);
    archive = new ArchiveProjectUseCase(fx.dataSource, new OutboxService(fx.config), fx.projects);
  });
  afterAll(() => fx.close());

  describe(StarProjectUseCase.name, () => {
    it('counts each user once under concurrent stars, and follows users being deleted', async () => {
      const users = await Promise.all([1, 2, 3, 4, 5].map(() => fx.factory.user()));
      const attempts = users.flatMap((user) => [user, user, user]).map((user) => stars.execute({ userId: user.id, projectId: project.id, star: true }));
      const results = await Promise.all(attempts);
      expect(results.filter((r) => r.changed)).toHaveLength(5);
      expect(Math.max(...results.map((r) => r.project.starCount))).toBe(5);
      await expect(row(project.id)).resolves.toMatchObject({ star_count: 5, stars: 5 });

      await expect(stars.execute({ userId: users[0].id, projectId: project.id, star: false })).resolves.toMatchObject({
        changed: true,
        project: { starCount: 4 },
      });
      await expect(stars.execute({ userId: users[0].id, projectId: project.id, star: false })).resolves.toMatchObject({
        changed: false,
        project: { starCount: 4 },
      });
      await fx.dataSource.query('DELETE FROM users WHERE id = $1', [users[1].id]);
      await expect(row(project.id)).resolves.toMatchObject({ star_count: 3, stars: 3 });
    });
  });

  describe(ProjectStatisticsRepository.name, () => {
    it('creates and updates parts of the statistics; storage_size is the sum of the sizes', async () => {
      await expect(statistics.forProjects([project.id])).resolves.toEqual(new Map());
      await statistics.set(project.id, { repository_size: 1_000, commit_count: 3 });
      await statistics.set(project.id, { wiki_size: 20, packages_size: 5 });
      await statistics.set(project.id, { repository_size: 2_000 });
      const values = (await statistics.forProjects([project.id])).get(project.id);
      expect(values).toMatchObject({ repository_size: 2_000, commit_count: 3, wiki_size: 20, packages_size: 5, storage_size: 2_025, uploads_size: 0 });
      await expect(statistics.set(project.id, { repository_size: -1 })).rejects.toThrow('non-negative');
    });
  });

  describe(ArchiveProjectUseCase.name, () => {
    it('archives and unarchives idempotently, recording project_update only on a change', async () => {
      const mark = await fx.outboxMark();
      await expect(archive.execute({ actor: alice.actor, projectId: project.id, archived: true })).resolves.toMatchObject({ archived: true });
      await expect(archive.execute({ actor: alice.actor, projectId: project.id, archived: true })).resolves.toMatchObject({ archived: true });
      await expect(fx.access.project(project.id, alice.actor)).resolves.toMatchObject({ archived: true });
      await expect(archive.execute({ actor: alice.actor, projectId: project.id, archived: false })).resolves.toMatchObject({ archived: false });
      const events = await fx.eventsSince(mark);
      expect(events.map((e) => e.type)).toEqual(['project_update', 'project_update']);
      expect(events[0]).toMatchObject({ project_id: project.id, data: { path_with_namespace: 'alice/starry' } });
    });
  });

  describe('project activity', () => {
    const insertEvent = (projectId: number, createdAt: string) =>
      fx.dataSource.query(`INSERT INTO events (source_event_id, project_id, author_id, action, created_at) VALUES ($1, $2, $3, 'created', $4)`, [
        randomUUID(),
        projectId,
        alice.id,
        createdAt,
      ]);

    it('moves last_activity_at forward with the project’s events, at most once a minute, never backwards', async () => {
      await fx.dataSource.query(`UPDATE projects SET last_activity_at = '2030-01-01T00:00:00Z' WHERE id = $1`, [project.id]);
      await insertEvent(project.id, '2030-01-01T00:05:00Z');
      expect((await row(project.id)).last_activity_at.toISOString()).toBe('2030-01-01T00:05:00.000Z');
      await insertEvent(project.id, '2030-01-01T00:05:30Z');
      expect((await row(project.id)).last_activity_at.toISOString()).toBe('2030-01-01T00:05:00.000Z');
      await insertEvent(project.id, '2029-01-01T00:00:00Z');
      expect((await row(project.id)).last_activity_at.toISOString()).toBe('2030-01-01T00:05:00.000Z');
      await insertEvent(project.id, '2030-01-01T01:00:00.250Z');
      expect((await row(project.id)).last_activity_at.toISOString()).toBe('2030-01-01T01:00:00.250Z');
    });

    it('registers new topics of projects (case-insensitively unique)', async () => {
      await fx.updateProject.execute({ actor: alice.actor, actorAccessLevel: 50, projectId: project.id, topics: ['Kafka', 'postgres'] });
      const other = await fx.factory.project(alice.actor, { name: 'Other' });
      await fx.updateProject.execute({ actor: alice.actor, actorAccessLevel: 50, projectId: other.id, topics: ['kafka', 'Redis'] });
      const topics = ((await fx.dataSource.query('SELECT name FROM topics ORDER BY id')) as { name: string }[]).map((t) => t.name);
      expect(topics).toEqual(['Kafka', 'postgres', 'Redis']);
    });
  });
});
