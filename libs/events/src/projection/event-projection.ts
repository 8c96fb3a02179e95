import {
  ALERTING_EVENT_PART,
  assertNever,
  BADGES_EVENT_PART,
  CI_EVENT_PART,
  eventTypeSet,
  HOOKS_EVENT_PART,
  IDENTITY_EVENT_PART,
  isCataloguedEvent,
  SETTINGS_EVENT_PART,
  CUSTOM_ATTRIBUTES_EVENT_PART,
  typesOf,
  VULNERABILITIES_EVENT_PART,
  PROJECT_TRANSFER_EVENT_PART,
  type DomainEvent,
} from '@app/messaging';

/** GitLab's event actions: what the `action` filter of the event lists accepts. */
export const EVENT_ACTIONS = [
  'created',
  'updated',
  'closed',
  'reopened',
  'pushed',
  'commented',
  'merged',
  'joined',
  'left',
  'destroyed',
  'expired',
  'approved',
] as const;
export type EventAction = (typeof EVENT_ACTIONS)[number];

/** `target_type` filter values and the class names GitLab stores. */
export const EVENT_TARGET_TYPES = {
  issue: 'Issue',
  milestone: 'Milestone',
  merge_request: 'MergeRequest',
  note: 'Note',
  project: 'Project',
  snippet: 'Snippet',
  user: 'User',
} as const;
export type EventTargetFilter = keyof typeof EVENT_TARGET_TYPES;

export interface ContributionEventRow {
  projectId: number | null;
  groupId: number | null;
  authorId: number;
  action: EventAction;
  targetType: string | null;
  targetId: number | null;
  targetIid: number | null;
  targetTitle: string | null;
  note: Record<string, unknown> | null;
  pushData: Record<string, unknown> | null;
}

export interface MilestoneEventRow {
  issueId: number | null;
  mergeRequestId: number | null;
  milestoneId: number;
  milestoneSnapshot: Record<string, unknown>;
  action: 'add' | 'remove';
}

export interface StateEventRow {
  issueId: number | null;
  mergeRequestId: number | null;
  state: string;
  sourceCommit: string | null;
  sourceMergeRequestId: number | null;
}

export interface IterationEventRow {
  issueId: number;
  iterationId: number;
  iterationSnapshot: Record<string, unknown>;
  action: 'add' | 'remove';
}

export interface WeightEventRow {
  issueId: number;
  weight: number | null;
}

/**
 * Contribution events that go, as GitLab's events go with their target: those of one target
 * (a deleted comment, a deleted issue), or the comments on a removed noteable of a project.
 */
export type EventRemoval = { targetType: 'Note' | 'Issue'; targetId: number } | { commentsOn: { type: string; id: number; projectId: number } };

/** A comment edited: its "commented on" event shows the note as it is now (GitLab renders the live note). */
export interface NoteUpdate {
  noteId: number;
  note: Record<string, unknown>;
}

/** What one domain event turns into; all of it is written in one transaction. */
export interface ProjectionPlan {
  events: ContributionEventRow[];
  milestoneEvents: MilestoneEventRow[];
  stateEvents: StateEventRow[];
  iterationEvents: IterationEventRow[];
  weightEvents: WeightEventRow[];
  /** Applied after the rows above, in stream order. */
  removals: EventRemoval[];
  noteUpdates: NoteUpdate[];
}

const emptyPlan = (): ProjectionPlan => ({
  events: [],
  milestoneEvents: [],
  stateEvents: [],
  iterationEvents: [],
  weightEvents: [],
  removals: [],
  noteUpdates: [],
});

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const intOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) ? value : null);
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** An event the projector cannot apply (missing fields its type needs): dead-lettered, never retried forever. */
export class UnprojectableEventError extends Error {
  constructor(event: DomainEvent, problem: string) {
    super(`${event.type} ${event.id}: ${problem}`);
    this.name = 'UnprojectableEventError';
  }
}

function requireActor(event: DomainEvent): number {
  if (event.actor === null) throw new UnprojectableEventError(event, 'actor is required');
  return event.actor;
}

function requireTargetId(event: DomainEvent): number {
  const id = intOrNull(event.target?.id);
  if (id === null) throw new UnprojectableEventError(event, 'target.id must be an integer');
  return id;
}

function targetEvent(event: DomainEvent, action: EventAction, targetType: string): ContributionEventRow {
  return {
    projectId: event.project_id,
    groupId: event.group_id,
    authorId: requireActor(event),
    action,
    targetType,
    targetId: requireTargetId(event),
    targetIid: event.target?.iid ?? null,
    targetTitle: event.target?.title ?? null,
    note: null,
    pushData: null,
  };
}

function plainEvent(event: DomainEvent, action: EventAction, authorId: number, extra: Partial<ContributionEventRow> = {}): ContributionEventRow {
  return {
    projectId: event.project_id,
    groupId: event.group_id,
    authorId,
    action,
    targetType: null,
    targetId: null,
    targetIid: null,
    targetTitle: null,
    note: null,
    pushData: null,
    ...extra,
  };
}

/** Resource milestone event of a `{previous, current}` change: `add` the new one, or `remove` the old one. */
function milestoneChange(change: unknown, on: { issueId: number | null; mergeRequestId: number | null }): MilestoneEventRow[] {
  if (!isObject(change)) return [];
  const current = isObject(change.current) ? change.current : null;
  const previous = isObject(change.previous) ? change.previous : null;
  const milestone = current ?? previous;
  const id = intOrNull(milestone?.id);
  if (!milestone || id === null) return [];
  return [{ ...on, milestoneId: id, milestoneSnapshot: milestone, action: current ? 'add' : 'remove' }];
}

function iterationChange(change: unknown, issueId: number): IterationEventRow[] {
  if (!isObject(change)) return [];
  const current = isObject(change.current) ? change.current : null;
  const previous = isObject(change.previous) ? change.previous : null;
  const iteration = current ?? previous;
  const id = intOrNull(iteration?.id);
  if (!iteration || id === null) return [];
  return [{ issueId, iterationId: id, iterationSnapshot: iteration, action: current ? 'add' : 'remove' }];
}

/** `push_data` as GitLab shows it, from a push event's data (explicit `push_data`, or system-hook push fields). */
function pushDataOf(data: Json, tag: boolean): Json {
  if (isObject(data.push_data)) return data.push_data;
  const ref = stringOrNull(data.ref) ?? '';
  const zero = /^0+$/;
  const before = stringOrNull(data.before);
  const after = stringOrNull(data.after);
  const action = before && zero.test(before) ? 'created' : after && zero.test(after) ? 'removed' : 'pushed';
  const commits = Array.isArray(data.commits) ? data.commits.filter(isObject) : [];
  const last = commits[commits.length - 1];
  return {
    commit_count: intOrNull(data.total_commits_count) ?? commits.length,
    action,
    ref_type: tag ? 'tag' : 'branch',
    commit_from: action === 'created' ? null : before,
    commit_to: action === 'removed' ? null : after,
    ref: ref.replace(/^refs\/(heads|tags)\//, ''),
    commit_title: last ? (stringOrNull(last.title) ?? stringOrNull(last.message)?.split('\n')[0] ?? null) : null,
    ref_count: null,
  };
}

/** The catalogued types without projections (skipped and counted); every other type has a case in `planProjection`. */
export const PROJECTOR_IGNORES = eventTypeSet([
  ...typesOf(IDENTITY_EVENT_PART),
  'project_update',
  'project_rename',
  'project_destroy',
  'project_transfer',
  'group_create',
  'group_update',
  'group_rename',
  'group_destroy',
  'user_update_for_team',
  'user_add_to_group',
  'user_update_for_group',
  'user_remove_from_group',
  'user_rename',
  'user_failed_login',
  'key_create',
  'key_destroy',
  'milestone.updated',
  'iteration.created',
  // Epics have no project (the spec: events cannot be linked to epics).
  'epic.created',
  'epic.updated',
  'epic.closed',
  'epic.reopened',
  'epic.destroyed',
  'repository_update',
  'protected_branch.created',
  'protected_branch.updated',
  'protected_branch.destroyed',
  ...typesOf(ALERTING_EVENT_PART),
  ...typesOf(HOOKS_EVENT_PART),
  ...typesOf(BADGES_EVENT_PART),
  ...typesOf(CI_EVENT_PART),
  ...typesOf(SETTINGS_EVENT_PART),
  ...typesOf(CUSTOM_ATTRIBUTES_EVENT_PART),
  ...typesOf(VULNERABILITIES_EVENT_PART),
  ...typesOf(PROJECT_TRANSFER_EVENT_PART),
]);

/**
 * Maps one domain event to its projections. Returns null for types without projections
 * (`PROJECTOR_IGNORES`, and types outside the catalogue: skipped and counted). Pure: the same
 * event always gives the same plan. The switch is exhaustive over the catalogue.
 */
export function planProjection(event: DomainEvent): ProjectionPlan | null {
  if (!isCataloguedEvent(event) || PROJECTOR_IGNORES.matches(event)) return null;
  const plan = emptyPlan();
  // The stream is not trusted: fields are read defensively whatever the catalogue declares.
  const data: Json = event.data;
  switch (event.type) {
    case 'project_create':
      plan.events.push(plainEvent(event, 'created', requireActor(event)));
      return plan;
    case 'user_add_to_team':
    case 'user_remove_from_team': {
      const userId = intOrNull(data.user_id);
      if (userId === null) throw new UnprojectableEventError(event, 'data.user_id must be an integer');
      const action: EventAction = event.type === 'user_add_to_team' ? 'joined' : data.expired === true ? 'expired' : 'left';
      // As GitLab: the creator of a personal project (added as its Owner) does not "join" it.
      const personalOwner = action === 'joined' && event.group_id === null && data.access_level === 'Owner' && userId === event.actor;
      if (!personalOwner) plan.events.push(plainEvent(event, action, userId));
      return plan;
    }
    case 'issue.opened': {
      const issueId = requireTargetId(event);
      plan.events.push(targetEvent(event, 'created', 'Issue'));
      plan.milestoneEvents.push(...milestoneChange({ previous: null, current: data.milestone }, { issueId, mergeRequestId: null }));
      plan.iterationEvents.push(...iterationChange({ previous: null, current: data.iteration }, issueId));
      const weight = isObject(data.issue) ? intOrNull(data.issue.weight) : null;
      if (weight !== null) plan.weightEvents.push({ issueId, weight });
      return plan;
    }
    case 'issue.updated': {
      const issueId = requireTargetId(event);
      const changes = isObject(data.changes) ? data.changes : {};
      plan.milestoneEvents.push(...milestoneChange(changes.milestone, { issueId, mergeRequestId: null }));
      plan.iterationEvents.push(...iterationChange(changes.iteration, issueId));
      if (isObject(changes.weight)) plan.weightEvents.push({ issueId, weight: intOrNull(changes.weight.current) });
      return plan;
    }
    case 'issue.closed':
    case 'issue.reopened': {
      const state = event.type === 'issue.closed' ? 'closed' : 'reopened';
      plan.events.push(targetEvent(event, state, 'Issue'));
      plan.stateEvents.push({
        issueId: requireTargetId(event),
        mergeRequestId: null,
        state,
        sourceCommit: stringOrNull(data.source_commit),
        sourceMergeRequestId: intOrNull(data.source_merge_request_id),
      });
      return plan;
    }
    case 'merge_request.opened': {
      const mergeRequestId = requireTargetId(event);
      plan.events.push(targetEvent(event, 'created', 'MergeRequest'));
      plan.milestoneEvents.push(...milestoneChange({ previous: null, current: data.milestone }, { issueId: null, mergeRequestId }));
      return plan;
    }
    case 'merge_request.updated': {
      const changes = isObject(data.changes) ? data.changes : {};
      plan.milestoneEvents.push(...milestoneChange(changes.milestone, { issueId: null, mergeRequestId: requireTargetId(event) }));
      return plan;
    }
    case 'merge_request.closed':
    case 'merge_request.reopened':
    case 'merge_request.merged': {
      const state = event.type === 'merge_request.closed' ? 'closed' : event.type === 'merge_request.reopened' ? 'reopened' : 'merged';
      plan.events.push(targetEvent(event, state, 'MergeRequest'));
      plan.stateEvents.push({
        issueId: null,
        mergeRequestId: requireTargetId(event),
        state,
        sourceCommit: stringOrNull(data.merge_commit_sha) ?? stringOrNull(data.source_commit),
        sourceMergeRequestId: null,
      });
      return plan;
    }
    case 'merge_request.approved':
      plan.events.push(targetEvent(event, 'approved', 'MergeRequest'));
      return plan;
    // GitLab records no contribution event when an approval is withdrawn.
    case 'merge_request.unapproved':
      return plan;
    case 'milestone.created':
    case 'milestone.closed':
    case 'milestone.reopened':
    case 'milestone.destroyed': {
      const action = (
        { 'milestone.created': 'created', 'milestone.closed': 'closed', 'milestone.reopened': 'reopened', 'milestone.destroyed': 'destroyed' } as const
      )[event.type];
      plan.events.push(targetEvent(event, action, 'Milestone'));
      return plan;
    }
    case 'issue.destroyed': {
      // As GitLab (`has_many :events, as: :target, dependent: :delete_all`, and the issue's notes
      // destroyed with it): the issue's events and the comments on it go.
      const issueId = requireTargetId(event);
      plan.removals.push({ targetType: 'Issue', targetId: issueId });
      if (event.project_id !== null) plan.removals.push({ commentsOn: { type: 'Issue', id: issueId, projectId: event.project_id } });
      return plan;
    }
    case 'note.created': {
      const note = isObject(data.note) ? data.note : null;
      if (!note) throw new UnprojectableEventError(event, 'data.note must be an object');
      plan.events.push({ ...targetEvent(event, 'commented', 'Note'), note });
      return plan;
    }
    case 'note.updated': {
      const note = isObject(data.note) ? data.note : null;
      if (!note) throw new UnprojectableEventError(event, 'data.note must be an object');
      plan.noteUpdates.push({ noteId: requireTargetId(event), note });
      return plan;
    }
    case 'note.destroyed':
      plan.removals.push({ targetType: 'Note', targetId: requireTargetId(event) });
      return plan;
    case 'snippet.created':
    case 'snippet.updated':
    case 'snippet.destroyed': {
      const action = ({ 'snippet.created': 'created', 'snippet.updated': 'updated', 'snippet.destroyed': 'destroyed' } as const)[event.type];
      plan.events.push(targetEvent(event, action, 'Snippet'));
      // The comments on a removed snippet go with their notes.
      if (event.type === 'snippet.destroyed' && event.project_id !== null)
        plan.removals.push({ commentsOn: { type: 'Snippet', id: requireTargetId(event), projectId: event.project_id } });
      return plan;
    }
    case 'push':
    case 'tag_push':
      plan.events.push(plainEvent(event, 'pushed', requireActor(event), { pushData: pushDataOf(data, event.type === 'tag_push') }));
      return plan;
    default:
      return assertNever(event, 'event type');
  }
}

/** `action_name` as GitLab shows it, from the stored action, target and push data. */
export function actionNameOf(action: string, targetType: string | null, pushData: Record<string, unknown> | null): string {
  switch (action) {
    case 'pushed':
      return pushData?.action === 'created' ? 'pushed new' : pushData?.action === 'removed' ? 'deleted' : 'pushed to';
    case 'closed':
      return 'closed';
    case 'merged':
      return 'accepted';
    case 'joined':
      return 'joined';
    case 'left':
      return 'left';
    case 'expired':
      return 'removed due to membership expiration from';
    case 'destroyed':
      return 'destroyed';
    case 'commented':
      return 'commented on';
    case 'approved':
      return 'approved';
    case 'updated':
      return 'updated';
    case 'created':
      return targetType === null ? 'created' : 'opened';
    default:
      return 'opened';
  }
}
