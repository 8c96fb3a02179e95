import { buildDomainEvent, UncheckedNewDomainEvent } from '@app/messaging';
import { actionNameOf, planProjection, UnprojectableEventError } from './event-projection';

const event = (e: UncheckedNewDomainEvent) => buildDomainEvent({ actor: 7, projectId: 42, groupId: 3, ...e });
const milestone = (id: number, title: string) => ({
  id,
  iid: id,
  project_id: 42,
  group_id: null,
  title,
  description: null,
  state: 'active',
  created_at: 'x',
  updated_at: 'x',
  due_date: null,
  start_date: null,
});

describe(planProjection.name, () => {
  it('maps project creation and membership to target-less events of the right author', () => {
    expect(planProjection(event({ type: 'project_create', target: { type: 'project', id: 42, title: 'api' } }))!.events).toEqual([
      expect.objectContaining({ action: 'created', authorId: 7, projectId: 42, groupId: 3, targetType: null, targetId: null }),
    ]);
    expect(planProjection(event({ type: 'user_add_to_team', data: { user_id: 9 } }))!.events).toEqual([
      expect.objectContaining({ action: 'joined', authorId: 9 }),
    ]);
    expect(planProjection(event({ type: 'user_remove_from_team', data: { user_id: 9 } }))!.events[0].action).toBe('left');
    expect(planProjection(event({ type: 'user_remove_from_team', data: { user_id: 9, expired: true } }))!.events[0].action).toBe('expired');
    const personal = { actor: 9, groupId: null, data: { user_id: 9, access_level: 'Owner' } };
    expect(planProjection(event({ type: 'user_add_to_team', ...personal }))!.events).toEqual([]);
    expect(planProjection(event({ type: 'user_add_to_team', ...personal, actor: 1 }))!.events).toHaveLength(1);
  });

  it('opens an issue with its initial milestone, iteration and weight as resource events', () => {
    const plan = planProjection(
      event({
        type: 'issue.opened',
        target: { type: 'issue', id: 5, iid: 1, title: 'Disk' },
        data: { issue: { weight: 3 }, milestone: milestone(11, 'v1'), iteration: { id: 4, iid: 1, group_id: 3, title: 's' } },
      }),
    )!;
    expect(plan.events).toEqual([expect.objectContaining({ action: 'created', targetType: 'Issue', targetId: 5, targetIid: 1, targetTitle: 'Disk' })]);
    expect(plan.milestoneEvents).toEqual([expect.objectContaining({ issueId: 5, mergeRequestId: null, milestoneId: 11, action: 'add' })]);
    expect(plan.iterationEvents).toEqual([expect.objectContaining({ issueId: 5, iterationId: 4, action: 'add' })]);
    expect(plan.weightEvents).toEqual([{ issueId: 5, weight: 3 }]);
    expect(plan.stateEvents).toEqual([]);
  });

  it('turns issue changes into milestone add/remove and weight events, without a contribution event', () => {
    const target = { type: 'issue', id: 5, iid: 1, title: 'Disk' };
    const swap = planProjection(
      event({
        type: 'issue.updated',
        target,
        data: { changes: { milestone: { previous: milestone(11, 'v1'), current: milestone(12, 'v2') }, weight: { previous: 3, current: null } } },
      }),
    )!;
    expect(swap.events).toEqual([]);
    expect(swap.milestoneEvents.map((m) => [m.milestoneId, m.action])).toEqual([[12, 'add']]);
    expect(swap.weightEvents).toEqual([{ issueId: 5, weight: null }]);
    const removed = planProjection(
      event({ type: 'issue.updated', target, data: { changes: { milestone: { previous: milestone(12, 'v2'), current: null } } } }),
    )!;
    expect(removed.milestoneEvents.map((m) => [m.milestoneId, m.action])).toEqual([[12, 'remove']]);
    const titleOnly = planProjection(event({ type: 'issue.updated', target, data: { changes: { title: { previous: 'a', current: 'b' } } } }))!;
    expect(Object.values(titleOnly).every((rows) => rows.length === 0)).toBe(true);
  });

  it('records state events for closing, reopening and merging', () => {
    const closed = planProjection(event({ type: 'issue.closed', target: { type: 'issue', id: 5, iid: 1, title: 'Disk' } }))!;
    expect(closed.events[0]).toMatchObject({ action: 'closed', targetType: 'Issue' });
    expect(closed.stateEvents).toEqual([{ issueId: 5, mergeRequestId: null, state: 'closed', sourceCommit: null, sourceMergeRequestId: null }]);
    const merged = planProjection(
      event({ type: 'merge_request.merged', target: { type: 'merge_request', id: 8, iid: 2, title: 'Fix' }, data: { merge_commit_sha: 'abc' } }),
    )!;
    expect(merged.events[0]).toMatchObject({ action: 'merged', targetType: 'MergeRequest' });
    expect(merged.stateEvents[0]).toMatchObject({ mergeRequestId: 8, state: 'merged', sourceCommit: 'abc' });
    expect(planProjection(event({ type: 'merge_request.reopened', target: { type: 'merge_request', id: 8, iid: 2 } }))!.stateEvents[0].state).toBe('reopened');
  });

  it('records an approval as an "approved" contribution event, and nothing for a withdrawal', () => {
    const target = { type: 'merge_request', id: 8, iid: 2, title: 'Fix' };
    expect(planProjection(event({ type: 'merge_request.approved', target, data: { action: 'approval' } }))!.events).toEqual([
      expect.objectContaining({ action: 'approved', targetType: 'MergeRequest', targetId: 8 }),
    ]);
    expect(
      Object.values(planProjection(event({ type: 'merge_request.unapproved', target, data: { action: 'unapproval' } }))!).every((rows) => rows.length === 0),
    ).toBe(true);
  });

  it('derives push data from system-hook push fields', () => {
    const plan = planProjection(
      event({
        type: 'push',
        data: {
          before: '0000000000000000000000000000000000000000',
          after: 'b'.repeat(40),
          ref: 'refs/heads/main',
          total_commits_count: 2,
          commits: [{ title: 'one' }, { message: 'two\nbody' }],
        },
      }),
    )!;
    expect(plan.events[0]).toMatchObject({ action: 'pushed', targetType: null });
    expect(plan.events[0].pushData).toEqual({
      commit_count: 2,
      action: 'created',
      ref_type: 'branch',
      commit_from: null,
      commit_to: 'b'.repeat(40),
      ref: 'main',
      commit_title: 'two',
      ref_count: null,
    });
  });

  it('removes the events of a deleted issue and of comments, and shows an edited comment as it is now', () => {
    expect(planProjection(event({ type: 'issue.destroyed', projectId: 7, target: { type: 'issue', id: 5 } }))!.removals).toEqual([
      { targetType: 'Issue', targetId: 5 },
      { commentsOn: { type: 'Issue', id: 5, projectId: 7 } },
    ]);
    expect(planProjection(event({ type: 'note.destroyed', target: { type: 'note', id: 3 }, data: { note: { id: 3 } } }))!).toMatchObject({
      events: [],
      removals: [{ targetType: 'Note', targetId: 3 }],
    });
    expect(planProjection(event({ type: 'note.updated', target: { type: 'note', id: 3 }, data: { note: { id: 3, body: 'edited' } } }))!.noteUpdates).toEqual([
      { noteId: 3, note: { id: 3, body: 'edited' } },
    ]);
    const snippet = planProjection(event({ type: 'snippet.destroyed', projectId: 7, target: { type: 'snippet', id: 2, title: 's' } }))!;
    expect(snippet.events).toEqual([expect.objectContaining({ action: 'destroyed', targetType: 'Snippet' })]);
    expect(snippet.removals).toEqual([{ commentsOn: { type: 'Snippet', id: 2, projectId: 7 } }]);
  });

  it('returns null for types without projections and refuses events missing what their type needs', () => {
    expect(planProjection(event({ type: 'user_create' }))).toBeNull();
    expect(() => planProjection(event({ type: 'issue.closed', target: { type: 'issue', id: 'five' } }))).toThrow(UnprojectableEventError);
    expect(() => planProjection(event({ type: 'issue.closed', actor: null, target: { type: 'issue', id: 5 } }))).toThrow(/actor is required/);
    expect(() => planProjection(event({ type: 'user_add_to_team', data: {} }))).toThrow(/data.user_id/);
    expect(() => planProjection(event({ type: 'note.created', target: { type: 'note', id: 3 } }))).toThrow(/data.note/);
    expect(() => planProjection(event({ type: 'note.updated', target: { type: 'note', id: 3 } }))).toThrow(/data.note/);
  });
});

describe(actionNameOf.name, () => {
  it.each([
    ['created', null, null, 'created'],
    ['created', 'Issue', null, 'opened'],
    ['reopened', 'Issue', null, 'opened'],
    ['closed', 'MergeRequest', null, 'closed'],
    ['merged', 'MergeRequest', null, 'accepted'],
    ['commented', 'Note', null, 'commented on'],
    ['joined', null, null, 'joined'],
    ['expired', null, null, 'removed due to membership expiration from'],
    ['destroyed', 'Milestone', null, 'destroyed'],
    ['approved', 'MergeRequest', null, 'approved'],
    ['pushed', null, { action: 'pushed' }, 'pushed to'],
    ['pushed', null, { action: 'created' }, 'pushed new'],
    ['pushed', null, { action: 'removed' }, 'deleted'],
  ])('%s on %s (push data %j) shows as %s', (action, targetType, pushData, expected) => {
    expect(actionNameOf(action, targetType, pushData)).toBe(expected);
  });
});
