import 'reflect-metadata';
import { AppConfig } from '@app/config';
import { createDataSource } from '@app/database';
import { EventsRepository, ListEventsDto, planProjection, ProjectionsRepository, PruneEventsUseCase } from '@app/events';
import { buildDomainEvent, DomainEvent } from '@app/messaging';
import { ACCESS_LEVELS } from '@app/namespaces';
import { createTestDatabase } from '@app/testing';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../../apps/entities';

/**
 * The project event list finds newest-first pages by position (`project_seq`) instead of
 * skipping rows: the numbering written by the projector and kept by the retention job must
 * give exactly the pages that skipping gives.
 */
describe('Project event positions (PostgreSQL)', () => {
  let db: { url: string; drop: () => Promise<void> };
  let dataSource: DataSource;
  let projections: ProjectionsRepository;
  let events: EventsRepository;
  const YEAR = 365 * 86_400_000;

  const closed = (projectId: number, n: number, occurredAt = new Date()): DomainEvent =>
    buildDomainEvent({
      type: 'issue.closed',
      actor: 1,
      projectId,
      occurredAt,
      target: { type: 'issue', id: 1000 * projectId + n, iid: n, title: `Issue ${n}` },
    });
  const project = (batch: DomainEvent[]) => projections.applyBatch(batch.map((event) => ({ event, plan: planProjection(event) })));
  const noFilter = () => Object.assign(new ListEventsDto(), {});

  /** The ids of every page of the project's list, newest first, by skipping rows (the reference). */
  const skipped = async (projectId: number, perPage: number, page: number): Promise<string[]> =>
    (
      (await dataSource.query('SELECT id FROM events WHERE project_id = $1 ORDER BY id DESC OFFSET $2 LIMIT $3', [
        projectId,
        (page - 1) * perPage,
        perPage,
      ])) as Array<{
        id: string;
      }>
    ).map((r) => String(r.id));

  const listed = async (projectId: number, perPage: number, page: number) => {
    const list = await events.ofProject(projectId, null, ACCESS_LEVELS.OWNER, noFilter());
    const { rows, info } = await events.page(list, { page, perPage, offset: (page - 1) * perPage }, undefined);
    return { ids: rows.map((r) => r.id), info, positional: list.positions !== undefined };
  };

  const expectSamePages = async (projectId: number, perPage: number) => {
    const [{ n }] = (await dataSource.query('SELECT count(*)::int AS n FROM events WHERE project_id = $1', [projectId])) as Array<{ n: number }>;
    const pages = Math.ceil(n / perPage) + 1;
    for (let page = 1; page <= pages; page++) {
      const got = await listed(projectId, perPage, page);
      expect({ page, ids: got.ids }).toEqual({ page, ids: await skipped(projectId, perPage, page) });
      expect(got.info.hasNextPage).toBe(page * perPage < n);
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase('event_positions');
    dataSource = createDataSource(AppConfig.fromEnvironment({ DATABASE_URL: db.url }), ENTITIES);
    await dataSource.initialize();
    projections = new ProjectionsRepository(dataSource);
    events = new EventsRepository(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });
  beforeEach(() => projections.truncate());

  it('numbers each project 1, 2, 3... in id order, across batches, duplicates and concurrent batches of other projects', async () => {
    const first = [closed(10, 1), closed(11, 1), closed(10, 2), closed(10, 3)];
    await project(first);
    await project([first[1], closed(11, 2), closed(10, 4)]);
    await Promise.all([project([closed(12, 1), closed(12, 2)]), project([closed(10, 5), closed(11, 3)]), project([closed(12, 3)])]);

    const rows = (await dataSource.query('SELECT project_id, project_seq::int AS seq FROM events ORDER BY project_id, id')) as Array<{
      project_id: number;
      seq: number;
    }>;
    const byProject = (id: number) => rows.filter((r) => r.project_id === id).map((r) => r.seq);
    expect(byProject(10)).toEqual([1, 2, 3, 4, 5]);
    expect(byProject(11)).toEqual([1, 2, 3]);
    expect(byProject(12)).toEqual([1, 2, 3]);
    expect(
      await dataSource.query('SELECT project_id, last_seq::int AS last, deleted_max_seq::int AS deleted FROM project_event_positions ORDER BY project_id'),
    ).toEqual([
      { project_id: 10, last: 5, deleted: 0 },
      { project_id: 11, last: 3, deleted: 0 },
      { project_id: 12, last: 3, deleted: 0 },
    ]);
  });

  it('gives, by position, exactly the pages that skipping gives', async () => {
    for (let b = 0; b < 5; b++) await project(Array.from({ length: 13 }, (_, i) => closed(i % 3 === 0 ? 21 : 20, b * 13 + i)));
    const first = await listed(20, 7, 1);
    expect(first.positional).toBe(true);
    await expectSamePages(20, 7);
    await expectSamePages(20, 20);
    await expectSamePages(21, 4);
  });

  it('stays exact after the retention job removed events, old ones first or out of order', async () => {
    const now = Date.now();
    // Four old events at the bottom, then 30 recent ones, then one old event projected late (a high number).
    await project(Array.from({ length: 4 }, (_, i) => closed(30, i, new Date(now - 4 * YEAR))));
    await project(Array.from({ length: 30 }, (_, i) => closed(30, 10 + i)));
    await project([closed(30, 99, new Date(now - 4 * YEAR))]);
    await project(Array.from({ length: 10 }, (_, i) => closed(30, 100 + i)));

    // Before the retention job runs, the expired events are filtered row by row (no positions).
    const before = await listed(30, 5, 1);
    expect(before.positional).toBe(false);
    expect(before.ids).toEqual(await skipped(30, 5, 1));
    expect(before.ids).toHaveLength(5);

    expect(await new PruneEventsUseCase(projections).execute({ olderThanYears: 3 })).toBe(5);
    expect(await dataSource.query('SELECT last_seq::int AS last, deleted_max_seq::int AS deleted FROM project_event_positions WHERE project_id = 30')).toEqual([
      { last: 45, deleted: 35 },
    ]);
    // Pages above the removed number 35 are found by position, the others by skipping: all exact.
    expect((await listed(30, 5, 1)).positional).toBe(true);
    await expectSamePages(30, 5);
    await expectSamePages(30, 3);
    await expectSamePages(30, 100);
  });

  it('leaves filtered lists and confidential conditions to row-by-row filtering', async () => {
    await project(Array.from({ length: 6 }, (_, i) => closed(40, i)));
    const filtered = await events.ofProject(40, null, ACCESS_LEVELS.OWNER, Object.assign(new ListEventsDto(), { action: 'closed' }));
    expect(filtered.positions).toBeUndefined();
    const { rows } = await events.page(filtered, { page: 2, perPage: 4, offset: 4 }, undefined);
    expect(rows.map((r) => r.id)).toEqual(await skipped(40, 4, 2));
    // Oldest first is always skipped through (positions count from the newest).
    const oldestFirst = await events.page(await events.ofProject(40, null, ACCESS_LEVELS.OWNER, noFilter()), { page: 1, perPage: 4, offset: 0 }, 'asc');
    expect(oldestFirst.rows.map((r) => r.id)).toEqual((await skipped(40, 6, 1)).reverse().slice(0, 4));
  });
});
