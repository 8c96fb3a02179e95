import { buildDomainEvent, DomainEvent } from '@app/messaging';
import { chainFromHeaders } from './hook-chain.interceptor';
import { parseRetryAfter } from './hook-deliverer';
import { retryDelay } from './hook-jobs';
import { chainOf, hookEventOf, subscribes } from './hook-payloads';

const event = (type: string, data: Record<string, unknown> = {}, extra: Partial<DomainEvent> = {}): DomainEvent => ({
  ...buildDomainEvent({ type, actor: 7, projectId: 3, data, occurredAt: new Date('2026-05-01T10:00:00.123Z') }),
  ...extra,
});
const none = { pushEvents: false, tagPushEvents: false, mergeRequestsEvents: false, repositoryUpdateEvents: false };

describe(hookEventOf.name, () => {
  it.each([
    'project_create',
    'project_destroy',
    'project_rename',
    'project_transfer',
    'user_create',
    'user_destroy',
    'group_create',
    'group_destroy',
    'user_add_to_team',
    'user_remove_from_team',
    'user_add_to_group',
    'user_remove_from_group',
  ])('delivers %s to every hook', (type) => {
    const hookEvent = hookEventOf(event(type, { project_id: 3 }))!;
    expect(hookEvent.flag).toBeNull();
    expect(hookEvent.payload.event_name).toBe(type);
    expect(subscribes(none, hookEvent.flag)).toBe(true);
  });

  it('shapes user events as GitLab does (no internal fields), with xmlschema timestamps', () => {
    expect(hookEventOf(event('user_create', { user_id: 5, name: 'A', username: 'a', email: 'a@x', user_type: 'human' }))!.payload).toEqual({
      event_name: 'user_create',
      created_at: '2026-05-01T10:00:00Z',
      updated_at: '2026-05-01T10:00:00Z',
      user_id: 5,
      name: 'A',
      username: 'a',
      email: 'a@x',
    });
  });

  it.each([
    ['push', 'push_events', { object_kind: 'push', event_name: 'push' }],
    ['tag_push', 'tag_push_events', { object_kind: 'tag_push', event_name: 'tag_push' }],
    ['repository_update', 'repository_update_events', { event_name: 'repository_update' }],
  ])('delivers %s only to hooks with %s', (type, flag, names) => {
    const hookEvent = hookEventOf(event(type, { ref: 'refs/heads/main', total_commits_count: 1 }))!;
    expect(hookEvent.flag).toBe(flag);
    expect(hookEvent.payload).toEqual({ ...names, ref: 'refs/heads/main', total_commits_count: 1 });
    expect(subscribes(none, hookEvent.flag)).toBe(false);
  });

  it.each([
    ['merge_request.opened', 'open'],
    ['merge_request.updated', 'update'],
    ['merge_request.closed', 'close'],
    ['merge_request.reopened', 'reopen'],
    ['merge_request.merged', 'merge'],
  ])('delivers %s as a merge_request event with action %s', (type, action) => {
    const hookEvent = hookEventOf(event(type, { merge_request: { id: 1, iid: 2, title: 'T', state: 'opened' } }))!;
    expect(hookEvent).toMatchObject({ trigger: 'merge_request', flag: 'merge_requests_events' });
    expect(hookEvent.payload).toMatchObject({
      object_kind: 'merge_request',
      event_type: 'merge_request',
      user: { id: 7 },
      project: { id: 3 },
      object_attributes: { id: 1, iid: 2, title: 'T', action },
    });
    expect(subscribes({ ...none, mergeRequestsEvents: true }, hookEvent.flag)).toBe(true);
  });

  it.each([
    ['merge_request.approved', 'approval'],
    ['merge_request.approved', 'approved'],
    ['merge_request.unapproved', 'unapproval'],
    ['merge_request.unapproved', 'unapproved'],
  ])('delivers %s with the action it carries (%s), without the approval fields in object_attributes', (type, action) => {
    const hookEvent = hookEventOf(event(type, { merge_request: { id: 1, iid: 2, title: 'T', state: 'opened' }, action, approvals_left: 1, approver_id: 7 }))!;
    expect(hookEvent).toMatchObject({ trigger: 'merge_request', flag: 'merge_requests_events' });
    expect(hookEvent.payload.object_attributes).toEqual({ id: 1, iid: 2, title: 'T', state: 'opened', target_project_id: 3, action });
  });

  it('ignores events no system hook receives', () => {
    expect(hookEventOf(event('issue.created'))).toBeNull();
    expect(hookEventOf(event('system_hook_create'))).toBeNull();
  });
});

describe('loop protection', () => {
  it('reads the chain of an event and of a request', () => {
    const id = '0b9e0f7e-9d7a-4d4c-8d2e-1f6a3c1b2a10';
    expect(chainOf(event('push'))).toBeNull();
    expect(chainOf(event('push', {}, { hook_chain: { id, depth: 2 } } as Partial<DomainEvent>))).toEqual({ id, depth: 2 });
    expect(chainFromHeaders({ 'x-service-event-uuid': id, 'x-service-event-chain-depth': '3' })).toEqual({ id, depth: 3 });
    expect(chainFromHeaders({ 'x-service-event-uuid': id })).toEqual({ id, depth: 1 });
    expect(chainFromHeaders({ 'x-service-event-uuid': 'nope' })).toBeNull();
    expect(chainFromHeaders({})).toBeNull();
  });
});

describe(retryDelay.name, () => {
  const schedule = [5_000, 300_000, 1_800_000];
  it('follows the schedule with ±20 % jitter', () => {
    expect(retryDelay(schedule, 0, null, () => 0)).toBe(4_000);
    expect(retryDelay(schedule, 0, null, () => 1)).toBe(6_000);
    expect(retryDelay(schedule, 1, null, () => 0.5)).toBe(300_000);
    expect(retryDelay(schedule, 9, null, () => 0.5)).toBe(1_800_000);
  });

  it('waits at least Retry-After', () => {
    expect(retryDelay(schedule, 0, 60_000, () => 0.5)).toBe(60_000);
    expect(retryDelay(schedule, 1, 60_000, () => 0.5)).toBe(300_000);
  });
});

describe(parseRetryAfter.name, () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('99999999', now)).toBe(86_400_000);
  });
});
