import 'reflect-metadata';
import { AppConfig } from '@app/config';
import { createDataSource } from '@app/database';
import { planProjection, ProjectionsRepository, PruneEventsUseCase } from '@app/events';
import { buildDomainEvent, UncheckedNewDomainEvent } from '@app/messaging';
import { createTestDatabase } from '@app/testing';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../../apps/entities';

/** The projector's writes against the real PostgreSQL: idempotency by event id, atomicity, retention. */
describe('Projector projections (PostgreSQL)', () => {
  let db: { url: string; drop: () => Promise<void> };
  let dataSource: DataSource;
  let sut: ProjectionsRepository;

  const event = (e: Partial<UncheckedNewDomainEvent> = {}) =>
    buildDomainEvent({ type: 'issue.closed', actor: 1, projectId: 10, target: { type: 'issue', id: 5, iid: 1, title: 'Disk' }, ...e });
  const count = async (table: string) => (await dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;
  const project = (e: ReturnType<typeof event>) => sut.apply(e, planProjection(e));

  beforeAll(async () => {
    db = await createTestDatabase('projector');
    dataSource = createDataSource(AppConfig.fromEnvironment({ DATABASE_URL: db.url }), ENTITIES);
    await dataSource.initialize();
    sut = new ProjectionsRepository(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });
  beforeEach(() => sut.truncate());

  it('projects an event once: a redelivery is recognized and writes nothing', async () => {
    const closed = event();
    await expect(project(closed)).resolves.toBe('projected');
    await expect(project(closed)).resolves.toBe('duplicate');
    expect(await count('events')).toBe(1);
    expect(await count('resource_state_events')).toBe(1);
    expect(await dataSource.query('SELECT event_id, type FROM projected_events')).toEqual([{ event_id: closed.id, type: 'issue.closed' }]);
  });

  it('writes one row when the same event is applied concurrently', async () => {
    const closed = event();
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => project(closed)));
    expect(outcomes.filter((o) => o === 'projected')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(7);
    expect(await count('events')).toBe(1);
    expect(await count('resource_state_events')).toBe(1);
  });

  it('remembers skipped types (no rows) so a replay skips them cheaply', async () => {
    const unknown = event({ type: 'thing.happened' });
    await expect(project(unknown)).resolves.toBe('skipped');
    await expect(project(unknown)).resolves.toBe('duplicate');
    expect(await count('events')).toBe(0);
    expect(await count('projected_events')).toBe(1);
  });

  it('keeps the event id and its rows together: a failing write leaves neither', async () => {
    const broken = event({ type: 'issue.opened', data: { milestone: { id: 3, title: 'v1' }, issue: { weight: 2 } } });
    const plan = planProjection(broken)!;
    // The contribution event row fails (action longer than its column) after the event id was claimed.
    plan.events[0] = { ...plan.events[0], action: 'x'.repeat(100) as never };
    await expect(sut.apply(broken, plan)).rejects.toThrow();
    expect(await count('projected_events')).toBe(0);
    expect(await count('resource_milestone_events')).toBe(0);
    await expect(project(broken)).resolves.toBe('projected');
    expect(await count('resource_milestone_events')).toBe(1);
    expect(await count('resource_weight_events')).toBe(1);
  });

  it('stores created_at from occurred_at, and the retention job removes only events older than 3 years', async () => {
    const now = new Date('2026-06-15T12:00:00Z');
    const old = event({ occurredAt: new Date('2023-06-14T11:00:00Z') });
    const recent = event({ occurredAt: new Date('2023-06-16T11:00:00Z') });
    await project(old);
    await project(recent);
    expect((await dataSource.query('SELECT created_at FROM events WHERE source_event_id = $1', [recent.id]))[0].created_at.toISOString()).toBe(
      '2023-06-16T11:00:00.000Z',
    );
    await expect(new PruneEventsUseCase(sut).execute({ olderThanYears: 3, now })).resolves.toBe(1);
    expect(await dataSource.query('SELECT source_event_id FROM events')).toEqual([{ source_event_id: recent.id }]);
  });

  describe('batches', () => {
    const planned = (...events: Array<ReturnType<typeof event>>) => events.map((e) => ({ event: e, plan: planProjection(e) }));

    it('gives the same tables as one by one, in stream order, with duplicates (earlier or in the batch) changing nothing', async () => {
      const earlier = event({ projectId: 11 });
      await project(earlier);
      const opened = event({
        type: 'issue.opened',
        projectId: 11,
        target: { type: 'issue', id: 6, iid: 2, title: 'Cpu' },
        data: { milestone: { id: 3, title: 'v1' }, issue: { weight: 2 } },
      });
      const closed = event({ projectId: 11, target: { type: 'issue', id: 6, iid: 2, title: 'Cpu' } });
      const other = event({
        type: 'merge_request.merged',
        projectId: 12,
        target: { type: 'merge_request', id: 8, iid: 1, title: 'Fix' },
        data: { merge_commit_sha: 'abc' },
      });
      const unknown = event({ type: 'thing.happened' });
      const outcomes = await sut.applyBatch(planned(opened, earlier, closed, opened, other, unknown, closed));
      expect(outcomes.map((o) => [o.event.id, o.outcome])).toEqual([
        [opened.id, 'projected'],
        [earlier.id, 'duplicate'],
        [closed.id, 'projected'],
        [opened.id, 'duplicate'],
        [other.id, 'projected'],
        [unknown.id, 'skipped'],
        [closed.id, 'duplicate'],
      ]);
      // Ids follow the stream: newest first lists show the batch's last event first.
      expect(await dataSource.query('SELECT source_event_id, action, target_id FROM events WHERE project_id = 11 ORDER BY id')).toEqual([
        { source_event_id: earlier.id, action: 'closed', target_id: 5 },
        { source_event_id: opened.id, action: 'created', target_id: 6 },
        { source_event_id: closed.id, action: 'closed', target_id: 6 },
      ]);
      expect(await count('events')).toBe(4);
      expect(await count('projected_events')).toBe(5);
      expect(await dataSource.query('SELECT issue_id, merge_request_id, state, source_commit, user_id FROM resource_state_events ORDER BY id')).toEqual([
        { issue_id: 5, merge_request_id: null, state: 'closed', source_commit: null, user_id: 1 },
        { issue_id: 6, merge_request_id: null, state: 'closed', source_commit: null, user_id: 1 },
        { issue_id: null, merge_request_id: 8, state: 'merged', source_commit: 'abc', user_id: 1 },
      ]);
      expect(await dataSource.query('SELECT issue_id, milestone_id, action FROM resource_milestone_events')).toEqual([
        { issue_id: 6, milestone_id: 3, action: 'add' },
      ]);
      expect(await dataSource.query('SELECT issue_id, weight FROM resource_weight_events')).toEqual([{ issue_id: 6, weight: 2 }]);
      const [row] = await dataSource.query('SELECT created_at FROM events WHERE source_event_id = $1', [other.id]);
      expect(row.created_at.toISOString()).toBe(other.occurred_at);

      // The whole batch redelivered: nothing changes.
      const again = await sut.applyBatch(planned(opened, closed, other, unknown));
      expect(again.every((o) => o.outcome === 'duplicate')).toBe(true);
      expect(await count('events')).toBe(4);
      expect(await count('resource_state_events')).toBe(3);
    });

    it('writes every event of overlapping batches applied concurrently exactly once', async () => {
      const events = Array.from({ length: 60 }, (_, n) => event({ projectId: 20 + (n % 3), target: { type: 'issue', id: n, iid: n, title: `i${n}` } }));
      const results = await Promise.all([
        sut.applyBatch(planned(...events.slice(0, 40))),
        sut.applyBatch(planned(...events.slice(20))),
        sut.applyBatch(planned(...events)),
      ]);
      const projected = results
        .flat()
        .filter((o) => o.outcome === 'projected')
        .map((o) => o.event.id);
      expect(projected.sort()).toEqual(events.map((e) => e.id).sort());
      expect(await count('events')).toBe(60);
      expect(await count('resource_state_events')).toBe(60);
    });

    it('is atomic: a failing row leaves no claim and no row of the batch', async () => {
      const good = event();
      const broken = event({ type: 'issue.opened', data: { milestone: { id: 3, title: 'v1' } } });
      const plans = planned(good, broken);
      plans[1].plan!.events[0] = { ...plans[1].plan!.events[0], action: 'x'.repeat(100) as never };
      await expect(sut.applyBatch(plans)).rejects.toThrow();
      expect(await count('projected_events')).toBe(0);
      expect(await count('events')).toBe(0);
      expect(await count('resource_state_events')).toBe(0);
    });
  });
});
