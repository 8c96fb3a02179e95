import type { DomainEventType, NewDomainEvent } from '@app/messaging';
import type { IssueEntity } from './entities/issue.entity';
import type { IterationEntity } from './entities/iteration.entity';
import type { MergeRequestEntity } from './entities/merge-request.entity';
import type { MilestoneEntity } from './entities/milestone.entity';

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

/** A milestone as carried in events (what a resource milestone event shows). */
export interface MilestoneSnapshot {
  id: number;
  iid: number;
  project_id: number | null;
  group_id: number | null;
  title: string;
  description: string | null;
  state: string;
  created_at: string;
  updated_at: string;
  due_date: string | null;
  start_date: string | null;
}

export interface IterationSnapshot {
  id: number;
  iid: number;
  group_id: number;
  title: string | null;
  description: string | null;
  start_date: string;
  due_date: string;
  created_at: string;
  updated_at: string;
}

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
function issueAttributes(issue: IssueEntity): Record<string, unknown> {
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
  type: IssuesEventType,
  actorId: number,
  issue: IssueEntity,
  groupId: number | null,
  data: Record<string, unknown> = {},
): NewDomainEvent {
  return {
    type,
    actor: actorId,
    projectId: issue.projectId,
    groupId,
    target: { type: 'issue', id: issue.id, iid: issue.iid, title: issue.title },
    data: { issue: issueAttributes(issue), ...data },
  };
}

export function mergeRequestEvent(
  type: IssuesEventType,
  actorId: number,
  mr: MergeRequestEntity,
  groupId: number | null,
  data: Record<string, unknown> = {},
): NewDomainEvent {
  return {
    type,
    actor: actorId,
    projectId: mr.projectId,
    groupId,
    target: { type: 'merge_request', id: mr.id, iid: mr.iid, title: mr.title },
    data: {
      merge_request: {
        id: mr.id,
        iid: mr.iid,
        title: mr.title,
        state: mr.state,
        source_branch: mr.sourceBranch,
        target_branch: mr.targetBranch,
        author_id: mr.authorId,
        milestone_id: mr.milestoneId,
      },
      ...data,
    },
  };
}

export function milestoneEvent(type: IssuesEventType, actorId: number, milestone: MilestoneEntity, data: Record<string, unknown> = {}): NewDomainEvent {
  return {
    type,
    actor: actorId,
    projectId: milestone.projectId,
    groupId: milestone.groupId,
    target: { type: 'milestone', id: milestone.id, iid: milestone.iid, title: milestone.title },
    data: { milestone: milestoneSnapshot(milestone), ...data },
  };
}
