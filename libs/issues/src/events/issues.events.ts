import type { DomainEventData, DomainEventType, NewDomainEvent } from '@app/messaging';
import type { IssueEntity } from '../entities/issue.entity';
import type { IterationEntity } from '../entities/iteration.entity';
import type { MergeRequestEntity } from '../entities/merge-request.entity';
import type { MilestoneEntity } from '../entities/milestone.entity';

/** Domain event types of this library. Never rename: they are stored in the stream. */
export const ISSUES_EVENTS = {
  ISSUE_OPENED: 'issue.opened',
  ISSUE_UPDATED: 'issue.updated',
  ISSUE_CLOSED: 'issue.closed',
  ISSUE_REOPENED: 'issue.reopened',
  ISSUE_DESTROYED: 'issue.destroyed',
  MERGE_REQUEST_OPENED: 'merge_request.opened',
  MERGE_REQUEST_UPDATED: 'merge_request.updated',
  MERGE_REQUEST_CLOSED: 'merge_request.closed',
  MERGE_REQUEST_REOPENED: 'merge_request.reopened',
  MERGE_REQUEST_MERGED: 'merge_request.merged',
  MILESTONE_CREATED: 'milestone.created',
  MILESTONE_UPDATED: 'milestone.updated',
  MILESTONE_CLOSED: 'milestone.closed',
  MILESTONE_REOPENED: 'milestone.reopened',
  MILESTONE_DESTROYED: 'milestone.destroyed',
  ITERATION_CREATED: 'iteration.created',
} as const satisfies Record<string, DomainEventType>;

export type IssuesEventType = (typeof ISSUES_EVENTS)[keyof typeof ISSUES_EVENTS];
export type IssueEventType = Extract<IssuesEventType, `issue.${string}`>;
export type MergeRequestEventType = Extract<IssuesEventType, `merge_request.${string}`>;
export type MilestoneEventType = Extract<IssuesEventType, `milestone.${string}`>;
type IssueEventData = DomainEventData<IssueEventType>;
type MergeRequestEventData = DomainEventData<MergeRequestEventType>;

/** A milestone as carried in events (what a resource milestone event shows): the catalogue's schema. */
export type MilestoneSnapshot = NonNullable<DomainEventData<MilestoneEventType>['milestone']>;

export type IterationSnapshot = NonNullable<DomainEventData<'iteration.created'>['iteration']>;

/** `{previous, current}` of one changed attribute. */
export interface Change<T> {
  previous: T;
  current: T;
}

export const milestoneSnapshot = (m: MilestoneEntity | null): MilestoneSnapshot | null =>
  m && {
    id: m.id,
    iid: m.iid,
    project_id: m.projectId,
    group_id: m.groupId,
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
    due_date: m.dueDate,
    start_date: m.startDate,
  };

export const iterationSnapshot = (i: IterationEntity | null): IterationSnapshot | null =>
  i && {
    id: i.id,
    iid: i.iid,
    group_id: i.groupId,
    title: i.title,
    description: i.description,
    start_date: i.startDate,
    due_date: i.dueDate,
    created_at: i.createdAt.toISOString(),
    updated_at: i.updatedAt.toISOString(),
  };

/** The attributes of an issue every issue event carries. */
function issueAttributes(issue: IssueEntity): IssueEventData['issue'] {
  return {
    id: issue.id,
    iid: issue.iid,
    title: issue.title,
    state: issue.state,
    issue_type: issue.issueType,
    confidential: issue.confidential,
    author_id: issue.authorId,
    assignee_ids: issue.assigneeIds,
    labels: issue.labels,
    milestone_id: issue.milestoneId,
    iteration_id: issue.iterationId,
    weight: issue.weight,
    severity: issue.severity,
  };
}

export function issueEvent(
  type: IssueEventType,
  actorId: number,
  issue: IssueEntity,
  groupId: number | null,
  data: Omit<IssueEventData, 'issue'> = {},
): NewDomainEvent<IssueEventType> {
  return {
    type,
    actor: actorId,
    projectId: issue.projectId,
    groupId,
    target: { type: 'issue', id: issue.id, iid: issue.iid, title: issue.title },
    data: { issue: issueAttributes(issue), ...data },
  };
}

/** A merge request as the events about it carry it (`data.merge_request`), for this lib's events and the approvals'. */
export function mergeRequestAttributes(mr: MergeRequestEntity): MergeRequestEventData['merge_request'] {
  return {
    id: mr.id,
    iid: mr.iid,
    title: mr.title,
    state: mr.state,
    source_branch: mr.sourceBranch,
    target_branch: mr.targetBranch,
    author_id: mr.authorId,
    milestone_id: mr.milestoneId,
  };
}

export function mergeRequestEvent(
  type: MergeRequestEventType,
  actorId: number,
  mr: MergeRequestEntity,
  groupId: number | null,
  data: Omit<MergeRequestEventData, 'merge_request'> = {},
): NewDomainEvent<MergeRequestEventType> {
  return {
    type,
    actor: actorId,
    projectId: mr.projectId,
    groupId,
    target: { type: 'merge_request', id: mr.id, iid: mr.iid, title: mr.title },
    data: {
      merge_request: mergeRequestAttributes(mr),
      ...data,
    },
  };
}

export function milestoneEvent(
  type: MilestoneEventType,
  actorId: number,
  milestone: MilestoneEntity,
  data: Omit<DomainEventData<MilestoneEventType>, 'milestone'> = {},
): NewDomainEvent<MilestoneEventType> {
  return {
    type,
    actor: actorId,
    projectId: milestone.projectId,
    groupId: milestone.groupId,
    target: { type: 'milestone', id: milestone.id, iid: milestone.iid, title: milestone.title },
    data: { milestone: milestoneSnapshot(milestone), ...data },
  };
}
