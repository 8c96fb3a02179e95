import { Type } from '@sinclair/typebox';
import { Changes, Data, defineEvents, Id, NullableId, NullableString } from './event-part';

/** A milestone as events carry it (what a resource milestone event shows). */
export const MilestoneSnapshot = Type.Object({
  id: Id,
  iid: Id,
  project_id: NullableId,
  group_id: NullableId,
  title: Type.String(),
  description: NullableString,
  state: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  due_date: NullableString,
  start_date: NullableString,
});

export const IterationSnapshot = Type.Object({
  id: Id,
  iid: Id,
  group_id: Id,
  title: NullableString,
  description: NullableString,
  start_date: Type.String(),
  due_date: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

const IssueAttributes = Type.Object(
  {
    id: Id,
    iid: Id,
    title: Type.String(),
    state: Type.String(),
    issue_type: Type.String(),
    confidential: Type.Boolean(),
    author_id: NullableId,
    assignee_ids: Type.Array(Id),
    labels: Type.Array(Type.String()),
    milestone_id: NullableId,
    iteration_id: NullableId,
    weight: Type.Union([Type.Integer(), Type.Null()]),
    severity: Type.String(),
  },
  { additionalProperties: true },
);

const MergeRequestAttributes = Type.Object(
  {
    id: Id,
    iid: Id,
    title: Type.String(),
    state: Type.String(),
    source_branch: Type.String(),
    target_branch: Type.String(),
    author_id: NullableId,
    milestone_id: NullableId,
  },
  { additionalProperties: true },
);

const IssueData = Data({
  issue: IssueAttributes,
  changes: Type.Optional(Changes),
  milestone: Type.Optional(Type.Union([MilestoneSnapshot, Type.Null()])),
  iteration: Type.Optional(Type.Union([IterationSnapshot, Type.Null()])),
  state: Type.Optional(Type.String()),
  source_commit: Type.Optional(NullableString),
  source_merge_request_id: Type.Optional(NullableId),
});

const MergeRequestData = Data({
  merge_request: MergeRequestAttributes,
  changes: Type.Optional(Changes),
  milestone: Type.Optional(Type.Union([MilestoneSnapshot, Type.Null()])),
  state: Type.Optional(Type.String()),
  merge_commit_sha: Type.Optional(NullableString),
  squash_commit_sha: Type.Optional(NullableString),
});

const MilestoneData = Data({ milestone: Type.Union([MilestoneSnapshot, Type.Null()]), changes: Type.Optional(Changes), state: Type.Optional(Type.String()) });

/** Events of `libs/issues`: issues (incidents too), merge requests, milestones, iterations. `target` is `{type, id, iid, title}`. */
export const ISSUES_EVENT_PART = defineEvents({
  'issue.opened': { description: 'An issue was created (its milestone and iteration, if any).', data: IssueData },
  'issue.updated': { description: 'Issue attributes changed (`changes`).', data: IssueData },
  'issue.closed': { description: 'An issue was closed (`source_commit`, `source_merge_request_id` when a merge closed it).', data: IssueData },
  'issue.reopened': { description: 'An issue was reopened.', data: IssueData },
  'issue.destroyed': { description: 'An issue was deleted.', data: IssueData },
  'merge_request.opened': { description: 'A merge request was created.', data: MergeRequestData },
  'merge_request.updated': { description: 'Merge request attributes changed (`changes`).', data: MergeRequestData },
  'merge_request.closed': { description: 'A merge request was closed.', data: MergeRequestData },
  'merge_request.reopened': { description: 'A merge request was reopened.', data: MergeRequestData },
  'merge_request.merged': { description: 'A merge request was merged (`merge_commit_sha`, `squash_commit_sha`).', data: MergeRequestData },
  'milestone.created': { description: 'A milestone was created.', data: MilestoneData },
  'milestone.updated': { description: 'Milestone attributes changed (`changes`).', data: MilestoneData },
  'milestone.closed': { description: 'A milestone was closed.', data: MilestoneData },
  'milestone.reopened': { description: 'A milestone was reopened.', data: MilestoneData },
  'milestone.destroyed': { description: 'A milestone was deleted.', data: MilestoneData },
  'iteration.created': { description: 'An iteration was created.', data: Data({ iteration: Type.Union([IterationSnapshot, Type.Null()]) }) },
});
