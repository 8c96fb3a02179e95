import { createHash } from 'node:crypto';
import type { CataloguedEvent } from '@app/messaging';
import type { Push } from '@app/repository';

/** What a merge request pipeline needs of its merge request (same-project merge requests). */
export interface MergeRequestForPipeline {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string | null;
  sourceBranch: string;
  targetBranch: string;
  labels: string[];
  assigneeUsernames: string[];
  milestoneTitle: string | null;
}

/** The merge request an event asks a pipeline for (by id): opened and reopened ones (GitLab's `MergeRequests::CreatePipelineService` callers). */
export const mergeRequestPipelineRequest = (event: CataloguedEvent<'merge_request.opened' | 'merge_request.reopened'>): number => event.data.merge_request.id;

/** The branch a push created or moved (a deletion is not a push that updates a merge request), or null. */
export function pushedBranch(push: Push): { projectId: number; branch: string; sha: string } | null {
  if (push.projectId === null || push.branch === null || push.deleted) return null;
  return { projectId: push.projectId, branch: push.branch, sha: push.after };
}

/**
 * The `trigger_event_id` of the pipeline of one merge request for one event (a push updates
 * several merge requests, and the push pipeline holds the event's own id): a UUID derived from
 * both, so that a redelivered event creates no second pipeline.
 */
export function mergeRequestTriggerId(eventId: string, mergeRequestId: number): string {
  const hex = createHash('sha256').update(`merge_request_event:${eventId}:${mergeRequestId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The full ref of a merge request's head, the `ref` of its pipelines. */
export const mergeRequestRef = (iid: number): string => `refs/merge-requests/${iid}/head`;
