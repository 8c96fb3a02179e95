import type { DomainEvent } from '@app/messaging';

/** The flag of the system hook record that selects an event kind; null: always delivered. */
export type HookEventFlag = 'push_events' | 'tag_push_events' | 'merge_requests_events' | 'repository_update_events' | null;

/** What the flags of a hook look like to the selection. */
export interface HookSubscription {
  pushEvents: boolean;
  tagPushEvents: boolean;
  mergeRequestsEvents: boolean;
  repositoryUpdateEvents: boolean;
}

export interface HookEvent {
  /** `event_name` of the payload (`project_create`, `push`, `merge_request`...), the delivery log's `trigger`. */
  trigger: string;
  flag: HookEventFlag;
  payload: Record<string, unknown>;
}

/**
 * The system events: delivered to every hook whatever its flags (GitLab's system hook events
 * for projects, users, groups and memberships).
 */
export const SYSTEM_EVENT_TYPES: ReadonlySet<string> = new Set([
  'project_create',
  'project_destroy',
  'project_rename',
  'project_transfer',
  'project_update',
  'user_create',
  'user_destroy',
  'user_rename',
  'user_failed_login',
  'key_create',
  'key_destroy',
  'group_create',
  'group_destroy',
  'group_rename',
  'user_add_to_team',
  'user_remove_from_team',
  'user_update_for_team',
  'user_add_to_group',
  'user_remove_from_group',
  'user_update_for_group',
]);

const MERGE_REQUEST_ACTIONS: Readonly<Record<string, string>> = {
  'merge_request.opened': 'open',
  'merge_request.updated': 'update',
  'merge_request.closed': 'close',
  'merge_request.reopened': 'reopen',
  'merge_request.merged': 'merge',
};

/** Timestamps of system hook payloads: `xmlschema`, no fractional seconds. */
const hookTime = (iso: string): string => iso.replace(/\.\d+Z$/, 'Z');

const USER_EVENT_FIELDS = ['user_id', 'name', 'username', 'email', 'old_username', 'state'] as const;

/**
 * The system hook delivery of a domain event, or null when no system hook is interested in
 * events of its type. The payload is the event's data (which the publishing library shapes
 * as GitLab's system hook documentation describes) plus `event_name` (and `object_kind` for
 * push, tag push and merge request events).
 */
export function hookEventOf(event: DomainEvent): HookEvent | null {
  const data = event.data;
  const type = event.type;
  if (SYSTEM_EVENT_TYPES.has(type)) {
    const occurred = hookTime(event.occurred_at);
    if (type.startsWith('user_') && !type.includes('team') && !type.includes('group')) {
      const payload: Record<string, unknown> = { event_name: type, created_at: data.created_at ?? occurred, updated_at: data.updated_at ?? occurred };
      for (const field of USER_EVENT_FIELDS) if (data[field] !== undefined) payload[field] = data[field];
      return { trigger: type, flag: null, payload };
    }
    return { trigger: type, flag: null, payload: { created_at: occurred, updated_at: occurred, ...data, event_name: type } };
  }
  switch (type) {
    case 'push':
      return { trigger: 'push', flag: 'push_events', payload: { object_kind: 'push', event_name: 'push', ...data } };
    case 'tag_push':
      return { trigger: 'tag_push', flag: 'tag_push_events', payload: { object_kind: 'tag_push', event_name: 'tag_push', ...data } };
    case 'repository_update':
      return { trigger: 'repository_update', flag: 'repository_update_events', payload: { event_name: 'repository_update', ...data } };
  }
  const action = MERGE_REQUEST_ACTIONS[type];
  if (action) return { trigger: 'merge_request', flag: 'merge_requests_events', payload: mergeRequestPayload(event, action) };
  return null;
}

/** GitLab's merge request hook shape from the event (the dispatcher may enrich `user`, `project`). */
function mergeRequestPayload(event: DomainEvent, action: string): Record<string, unknown> {
  const data = event.data;
  const mr = (data.merge_request ?? {}) as Record<string, unknown>;
  const { merge_request: _mr, changes, labels, user, project, repository, ...rest } = data;
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: user ?? { id: event.actor },
    project: project ?? { id: event.project_id },
    object_attributes: { ...mr, target_project_id: mr.target_project_id ?? event.project_id, ...rest, action },
    labels: labels ?? [],
    changes: changes ?? {},
    repository: repository ?? null,
  };
}

/** Whether a hook with these flags receives an event of `flag`. */
export function subscribes(hook: HookSubscription, flag: HookEventFlag): boolean {
  switch (flag) {
    case null:
      return true;
    case 'push_events':
      return hook.pushEvents;
    case 'tag_push_events':
      return hook.tagPushEvents;
    case 'merge_requests_events':
      return hook.mergeRequestsEvents;
    case 'repository_update_events':
      return hook.repositoryUpdateEvents;
  }
}

/** The loop protection fields an event may carry (`hook_chain`, set when a hook receiver's request caused it). */
export function chainOf(event: DomainEvent): { id: string; depth: number } | null {
  const chain = (event as DomainEvent & { hook_chain?: unknown }).hook_chain;
  if (!chain || typeof chain !== 'object') return null;
  const { id, depth } = chain as { id?: unknown; depth?: unknown };
  if (typeof id !== 'string' || typeof depth !== 'number' || !Number.isSafeInteger(depth) || depth < 1) return null;
  return { id, depth };
}
