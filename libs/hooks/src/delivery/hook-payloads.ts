import {
  ALERTING_EVENT_PART,
  BADGES_EVENT_PART,
  CI_EVENT_PART,
  HOOKS_EVENT_PART,
  ignoring,
  type CataloguedEvent,
  isCataloguedEvent,
  NOTES_EVENT_PART,
  SETTINGS_EVENT_PART,
  SNIPPETS_EVENT_PART,
  PROJECT_TRANSFER_EVENT_PART,
  VULNERABILITIES_EVENT_PART,
  CUSTOM_ATTRIBUTES_EVENT_PART,
  type DomainEvent,
  type DomainEventType,
} from '@app/messaging';

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
 * How system hooks treat each catalogued event type: `system` events are delivered to every
 * hook whatever its flags (GitLab's system hook events for projects, users, groups and
 * memberships; `system_user` ones carry the user fields only), the others to hooks with their
 * flag; `ignored` types are never delivered. Exhaustive: a new event type does not compile
 * until it is given a route here.
 */
export const HOOK_ROUTES = {
  project_create: 'system',
  project_destroy: 'system',
  project_rename: 'system',
  project_transfer: 'system',
  project_update: 'system',
  user_create: 'system_user',
  user_destroy: 'system_user',
  user_rename: 'system_user',
  user_failed_login: 'system_user',
  key_create: 'system',
  key_destroy: 'system',
  group_create: 'system',
  group_destroy: 'system',
  group_rename: 'system',
  user_add_to_team: 'system',
  user_remove_from_team: 'system',
  user_update_for_team: 'system',
  user_add_to_group: 'system',
  user_remove_from_group: 'system',
  user_update_for_group: 'system',
  push: 'push',
  tag_push: 'tag_push',
  repository_update: 'repository_update',
  'merge_request.opened': 'merge_request',
  'merge_request.updated': 'merge_request',
  'merge_request.closed': 'merge_request',
  'merge_request.reopened': 'merge_request',
  'merge_request.merged': 'merge_request',
  user_block: 'ignored',
  user_unblock: 'ignored',
  access_token_create: 'ignored',
  access_token_revoke: 'ignored',
  group_update: 'ignored',
  // GitLab sends approvals to merge request hooks (system hooks included), action in the event's data.
  'merge_request.approved': 'merge_request',
  'merge_request.unapproved': 'merge_request',
  'issue.opened': 'ignored',
  'issue.updated': 'ignored',
  'issue.closed': 'ignored',
  'issue.reopened': 'ignored',
  'issue.destroyed': 'ignored',
  'milestone.created': 'ignored',
  'milestone.updated': 'ignored',
  'milestone.closed': 'ignored',
  'milestone.reopened': 'ignored',
  'milestone.destroyed': 'ignored',
  'iteration.created': 'ignored',
  'epic.created': 'ignored',
  'epic.updated': 'ignored',
  'epic.closed': 'ignored',
  'epic.reopened': 'ignored',
  'epic.destroyed': 'ignored',
  'protected_branch.created': 'ignored',
  'protected_branch.updated': 'ignored',
  'protected_branch.destroyed': 'ignored',
  ...ignoring(ALERTING_EVENT_PART),
  ...ignoring(HOOKS_EVENT_PART),
  ...ignoring(BADGES_EVENT_PART),
  ...ignoring(CI_EVENT_PART),
  ...ignoring(SETTINGS_EVENT_PART),
  ...ignoring(CUSTOM_ATTRIBUTES_EVENT_PART),
  // GitLab's system hooks have no note or snippet events.
  ...ignoring(NOTES_EVENT_PART),
  ...ignoring(SNIPPETS_EVENT_PART),
  ...ignoring(PROJECT_TRANSFER_EVENT_PART),
  ...ignoring(VULNERABILITIES_EVENT_PART),
} as const satisfies Record<DomainEventType, HookRoute>;

type HookRoute = 'system' | 'system_user' | 'push' | 'tag_push' | 'repository_update' | 'merge_request' | 'ignored';

/** The system events (`system` and `system_user` routes): delivered to every hook whatever its flags. */
export const SYSTEM_EVENT_TYPES: ReadonlySet<string> = new Set(
  Object.entries(HOOK_ROUTES)
    .filter(([, route]) => route === 'system' || route === 'system_user')
    .map(([type]) => type),
);

/** The event types of a route. */
type TypesOf<TRoute extends HookRoute> = { [K in keyof typeof HOOK_ROUTES]: (typeof HOOK_ROUTES)[K] extends TRoute ? K : never }[keyof typeof HOOK_ROUTES];

/** An event of the types of a route, its `data` typed by the catalogue. */
type RoutedEvent<TRoute extends HookRoute> = CataloguedEvent<TypesOf<TRoute>>;

type MergeRequestType = TypesOf<'merge_request'>;

/** `object_attributes.action` of each merge request event routed to hooks. */
const MERGE_REQUEST_ACTIONS: Readonly<Record<MergeRequestType, string>> = {
  'merge_request.opened': 'open',
  'merge_request.updated': 'update',
  'merge_request.closed': 'close',
  'merge_request.reopened': 'reopen',
  'merge_request.merged': 'merge',
  'merge_request.approved': 'approved',
  'merge_request.unapproved': 'unapproved',
};

/** The action of a merge request event: approvals carry theirs (`approval`/`approved`, `unapproval`/`unapproved`). */
const mergeRequestAction = (event: RoutedEvent<'merge_request'>): string => {
  if (event.type === 'merge_request.approved' || event.type === 'merge_request.unapproved') {
    const action: unknown = event.data.action;
    if (typeof action === 'string') return action;
  }
  return MERGE_REQUEST_ACTIONS[event.type];
};

/** Timestamps of system hook payloads: `xmlschema`, no fractional seconds. */
const hookTime = (iso: string): string => iso.replace(/\.\d+Z$/, 'Z');

const USER_EVENT_FIELDS = ['user_id', 'name', 'username', 'email', 'old_username', 'state'] as const;

/** The data of an event as payloads pass it on: every field as published (those the catalogue does not list too). */
const fieldsOf = (event: CataloguedEvent): Readonly<Record<string, unknown>> => event.data;

/**
 * The delivery of each route, built from an event of the types that route lists (a route per
 * type in `HOOK_ROUTES`): exhaustive, a new route does not compile until it is built here.
 */
const HOOK_EVENT_BUILDERS: { readonly [TRoute in HookRoute]: (event: RoutedEvent<TRoute>) => HookEvent | null } = {
  system_user: (event) => {
    const data = fieldsOf(event);
    const occurred = hookTime(event.occurred_at);
    const payload: Record<string, unknown> = { event_name: event.type, created_at: data.created_at ?? occurred, updated_at: data.updated_at ?? occurred };
    for (const field of USER_EVENT_FIELDS) if (data[field] !== undefined) payload[field] = data[field];
    return { trigger: event.type, flag: null, payload };
  },
  system: (event) => {
    const occurred = hookTime(event.occurred_at);
    return { trigger: event.type, flag: null, payload: { created_at: occurred, updated_at: occurred, ...fieldsOf(event), event_name: event.type } };
  },
  push: (event) => ({ trigger: 'push', flag: 'push_events', payload: { object_kind: 'push', event_name: 'push', ...fieldsOf(event) } }),
  tag_push: (event) => ({ trigger: 'tag_push', flag: 'tag_push_events', payload: { object_kind: 'tag_push', event_name: 'tag_push', ...fieldsOf(event) } }),
  repository_update: (event) => ({
    trigger: 'repository_update',
    flag: 'repository_update_events',
    payload: { event_name: 'repository_update', ...fieldsOf(event) },
  }),
  merge_request: (event) => ({ trigger: 'merge_request', flag: 'merge_requests_events', payload: mergeRequestPayload(event, mergeRequestAction(event)) }),
  ignored: () => null,
};

/**
 * The system hook delivery of a domain event, or null when no system hook is interested in
 * events of its type. The payload is the event's data (which the publishing library shapes
 * as GitLab's system hook documentation describes) plus `event_name` (and `object_kind` for
 * push, tag push and merge request events).
 */
export function hookEventOf(event: DomainEvent): HookEvent | null {
  if (!isCataloguedEvent(event)) return null;
  // The one place an event meets its route's builder: the route is the one `HOOK_ROUTES` gives its type.
  const build = HOOK_EVENT_BUILDERS[HOOK_ROUTES[event.type]] as (event: CataloguedEvent) => HookEvent | null;
  return build(event);
}

/** GitLab's merge request hook shape from the event (the dispatcher may enrich `user`, `project`). */
function mergeRequestPayload(event: RoutedEvent<'merge_request'>, action: string): Record<string, unknown> {
  const data = fieldsOf(event);
  const mr: Readonly<Record<string, unknown>> = event.data.merge_request ?? {};
  // The approval fields of approval events are the action's inputs, not merge request attributes.
  const { merge_request: _mr, changes, labels, user, project, repository, action: _action, approvals_left: _left, approver_id: _approver, ...rest } = data;
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
